import { describe, expect, it } from "vitest";
import { CLAIM_EVENT_SCHEMAS } from "../../src/claims/events.ts";
import type { Claim } from "../../src/claims/schema.ts";
import { api, createKeyWithScopes, ISO_UTC, send } from "../helpers.ts";
import { eventsOf, readOrder } from "../orders/order-helpers.ts";
import { ageShipment, damagedBody, deliveredOrder, expectCode, postClaimOk, shippedOrder } from "./claim-helpers.ts";

function approve(opsKey: string, claimId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/ops/claims/${claimId}/approve`, opsKey, body);
}

function reject(opsKey: string, claimId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/ops/claims/${claimId}/reject`, opsKey, body);
}

async function resolved(response: Response): Promise<Claim> {
	const text = await response.text();
	expect(response.status, text).toBe(200);
	return JSON.parse(text) as Claim;
}

describe("POST /v1/ops/claims/{id}/approve and /reject", () => {
	it("a refund credits the claimed units' item charges; the claim is approved and claim.approved recorded", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const unitPrice = order.items[0]?.unit_price?.total ?? Number.NaN;
		const approved = await resolved(await approve(opsKey, claim.id, { remedy: "refund", message: "Sorry." }));
		expect(approved).toEqual({
			...claim,
			status: "approved",
			resolution: {
				remedy: "refund",
				reprint_order_id: null,
				credit_cents: unitPrice,
				message: "Sorry.",
				resolved_at: expect.stringMatching(ISO_UTC),
			},
		});
		expect(await (await api(`/v1/claims/${claim.id}`, { key })).json()).toEqual(approved);
		const events = (await eventsOf(order.id)).filter((event) => event.type === "claim.approved");
		expect(events).toHaveLength(1);
		expect(events[0]?.body).toMatchObject({ claim: approved });
		expect(CLAIM_EVENT_SCHEMAS["claim.approved"].strict().safeParse(events[0]?.body).success).toBe(true);
	});

	it("a lost shipment's refund adds the claimed units' share of shipping, rounded down", async () => {
		const { key, opsKey, order, itemId, shipment } = await shippedOrder(3);
		await ageShipment(shipment.id, 6);
		const claim = await postClaimOk(key, order.id, {
			reason: "lost_in_transit",
			items: [{ item_id: itemId, quantity: 2 }],
			description: "Tracking stopped a week ago.",
		});
		const costs = (await readOrder(key, order.id)).costs;
		const unitPrice = order.items[0]?.unit_price?.total ?? Number.NaN;
		const approved = await resolved(await approve(opsKey, claim.id, { remedy: "refund" }));
		expect(approved.resolution?.credit_cents).toBe(unitPrice * 2 + Math.floor(((costs?.shipping ?? 0) * 2) / 3));
		expect(approved.resolution?.message).toBeNull();
	});

	it("a rejection needs a message, records claim.rejected, and gives the claimed units back", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		await expectCode(await reject(opsKey, claim.id, {}), 400, "bad_request", "field_required");
		const rejected = await resolved(await reject(opsKey, claim.id, { message: "The photo shows no damage." }));
		expect(rejected).toMatchObject({
			status: "rejected",
			resolution: { remedy: null, credit_cents: null, message: "The photo shows no damage." },
		});
		const events = (await eventsOf(order.id)).filter((event) => event.type === "claim.rejected");
		expect(events).toHaveLength(1);
		expect(CLAIM_EVENT_SCHEMAS["claim.rejected"].strict().safeParse(events[0]?.body).success).toBe(true);
		await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
	});

	it("a claim is resolved once: a second decision is a 409 saying what the first was", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		await resolved(await reject(opsKey, claim.id, { message: "No damage shown." }));
		const again = await expectCode(
			await approve(opsKey, claim.id, { remedy: "refund" }),
			409,
			"conflict",
			"claim_already_resolved",
		);
		expect(again.message).toContain("rejected already");
	});

	it("approve and reject pressed at the same moment, 10 times over: exactly one wins and one event is recorded", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const responses = await Promise.all(
			Array.from({ length: 10 }, (_, index) =>
				index % 2 === 0
					? approve(opsKey, claim.id, { remedy: "refund" })
					: reject(opsKey, claim.id, { message: "No damage shown." }),
			),
		);
		const statuses = responses.map((response) => response.status);
		expect(statuses.filter((status) => status === 200)).toHaveLength(1);
		expect(statuses.filter((status) => status === 409)).toHaveLength(9);
		const decisions = (await eventsOf(order.id)).filter((event) => event.type !== "claim.created");
		expect(decisions.filter((event) => event.type.startsWith("claim."))).toHaveLength(1);
	});

	it("a partner's key is a 403 on the ops routes; an unknown claim is a 404; a bad remedy a 422", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect((await approve(key, claim.id, { remedy: "refund" })).status).toBe(403);
		expect((await api("/v1/ops/claims", { key })).status).toBe(403);
		await expectCode(await approve(opsKey, "clm_nope", { remedy: "refund" }), 404, "not_found", "claim_not_found");
		expect((await approve(opsKey, claim.id, { remedy: "store_credit" })).status).toBe(422);
		expect((await reject(opsKey, claim.id, { message: "x".repeat(1001) })).status).toBe(422);
	});
});

describe("GET /v1/ops/claims", () => {
	it("lists every account's claims in a status, oldest first, a page at a time", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const first = await deliveredOrder(1);
		const second = await deliveredOrder(1);
		const a = await postClaimOk(first.key, first.order.id, damagedBody(first.itemId, 1, [first.photo]));
		const b = await postClaimOk(second.key, second.order.id, damagedBody(second.itemId, 1, [second.photo]));
		await resolved(await reject(opsKey, a.id, { message: "No damage shown." }));
		type Page = { data: Claim[]; next_cursor: string | null };
		const submitted = (await (await api("/v1/ops/claims?limit=100", { key: opsKey })).json()) as Page;
		const ids = submitted.data.map((claim) => claim.id);
		expect(ids).toContain(b.id);
		expect(ids).not.toContain(a.id);
		const rejected = (await (await api("/v1/ops/claims?status=rejected&limit=1", { key: opsKey })).json()) as Page;
		expect(rejected.data).toHaveLength(1);
		const times = submitted.data.map((claim) => claim.created_at);
		expect([...times].sort()).toEqual(times);
	});
});
