import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, send } from "../helpers.ts";
import {
	createOrder,
	eventTypes,
	orderBody,
	partnerWithFile,
	postOrder,
	readOrder,
	settleValidation,
	TRACKING,
} from "../orders/order-helpers.ts";
import { smallPng, uploadedFile } from "../print-files/upload-helpers.ts";
import { damagedBody, deliveredOrder, postClaimOk } from "./claim-helpers.ts";

function approveReprint(opsKey: string, claimId: string): Promise<Response> {
	return send("POST", `/v1/ops/claims/${claimId}/approve`, opsKey, { remedy: "reprint", message: "A new one ships." });
}

async function approvedReprint(opsKey: string, claimId: string): Promise<Claim> {
	const response = await approveReprint(opsKey, claimId);
	const text = await response.text();
	expect(response.status, text).toBe(200);
	return JSON.parse(text) as Claim;
}

describe("approving a claim with a reprint", () => {
	it("makes a new order of the claimed units: same file, framing, ship_to and method, -R1, charged nothing, through validation with its own events", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(3);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 2, [photo]));
		const approved = await approvedReprint(opsKey, claim.id);
		const reprintId = approved.resolution?.reprint_order_id ?? "";
		expect(approved.resolution).toMatchObject({ remedy: "reprint", reprint_order_id: expect.stringMatching(/^ord_/) });
		const reprint = await settleValidation(key, reprintId);
		const original = order.items[0];
		expect(reprint).toMatchObject({
			external_id: `${order.external_id}-R1`,
			status: "in_production",
			reprint_of: order.id,
			claim_id: claim.id,
			ship_to: order.ship_to,
			shipping_method: order.shipping_method,
			costs: { items: 0, shipping: 0, total: 0, charge: "reprint" },
		});
		expect(reprint.items).toHaveLength(1);
		expect(reprint.items[0]).toMatchObject({
			print_file_id: original?.print_file_id,
			width_in: original?.width_in,
			height_in: original?.height_in,
			frame: original?.frame,
			mat: original?.mat,
			quantity: 2,
		});
		expect(await eventTypes(reprintId)).toEqual(["order.received", "order.in_production"]);
		expect((await readOrder(key, order.id)).costs?.charge).toBe("order");
	});

	it("an original named with 126 characters gets a reprint named within 128: its name cut to fit -R1", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const long = `${order.external_id}-${"x".repeat(126 - order.external_id.length - 1)}`;
		await env.DB.prepare("UPDATE orders SET external_id = ?2 WHERE id = ?1").bind(order.id, long).run();
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		const reprint = await settleValidation(key, reprintId);
		expect(reprint.external_id).toBe(`${long.slice(0, 125)}-R1`);
		expect(reprint.external_id).toHaveLength(128);
		expect((await readOrder(key, order.id)).reprints).toEqual([reprintId]);
	});

	it("a partner's own order named <external_id>-R1 neither blocks the reprint nor is taken for it, and still replays", async () => {
		const { key, opsKey, order, itemId, photo, file } = await deliveredOrder(1);
		const ownBody = orderBody(file, { external_id: `${order.external_id}-R1` });
		const own = await createOrder(key, ownBody);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		expect(reprintId).not.toBe(own.id);
		const reprint = await settleValidation(key, reprintId);
		expect(reprint).toMatchObject({ external_id: `${order.external_id}-R1`, claim_id: claim.id, reprint_of: order.id });
		// The partner's create replays the partner's own order, not the reprint.
		const replay = await postOrder(key, ownBody);
		expect(replay.status).toBe(200);
		expect(((await replay.json()) as Order).id).toBe(own.id);
		expect((await readOrder(key, order.id)).reprints).toEqual([reprintId]);
	});

	it("a reprint that cannot be made refuses the approval and writes nothing: the claim stays submitted, no event, no order", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		// A recipient the create refuses today (no country): the reprint cannot be ordered as it was.
		const shipTo = JSON.stringify({ ...order.ship_to, country: "" });
		await env.DB.prepare("UPDATE orders SET ship_to = ?2 WHERE id = ?1").bind(order.id, shipTo).run();
		const refused = await approveReprint(opsKey, claim.id);
		expect(refused.status).toBe(409);
		expect((await (await api(`/v1/claims/${claim.id}`, { key })).json()) as Claim).toMatchObject({
			status: "submitted",
			resolution: null,
		});
		expect(await eventTypes(order.id)).not.toContain("claim.approved");
		const reprints = await env.DB.prepare("SELECT COUNT(*) AS n FROM orders WHERE claim_id = ?1")
			.bind(claim.id)
			.first<{ n: number }>();
		expect(reprints?.n).toBe(0);
		// Once it can be made, the approval goes through, with its reprint.
		await env.DB.prepare("UPDATE orders SET ship_to = ?2 WHERE id = ?1")
			.bind(order.id, JSON.stringify(order.ship_to))
			.run();
		const approved = await approvedReprint(opsKey, claim.id);
		expect((await settleValidation(key, approved.resolution?.reprint_order_id ?? "")).status).toBe("in_production");
	});

	it("a claim approved before decisions and reprints were one write, its reprint never made, gets it by approving again, once", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = "ord_legacyReprint0000000001";
		const resolution = {
			remedy: "reprint",
			reprint_order_id: reprintId,
			credit_cents: null,
			message: null,
			resolved_at: new Date().toISOString(),
		};
		await env.DB.prepare(
			"UPDATE claims SET status = 'approved', resolution = ?2, resolution_id = 'legacy', resolved_at = ?3 WHERE id = ?1",
		)
			.bind(claim.id, JSON.stringify(resolution), resolution.resolved_at)
			.run();
		const again = await approvedReprint(opsKey, claim.id);
		expect(again.resolution).toEqual(resolution);
		expect((await settleValidation(key, reprintId)).external_id).toBe(`${order.external_id}-R1`);
		expect((await readOrder(key, order.id)).reprints).toEqual([reprintId]);
		expect((await approveReprint(opsKey, claim.id)).status).toBe(409);
		expect(await eventTypes(order.id)).not.toContain("claim.approved");
	});

	it("the reprint's work ticket says REPRINT of the original order", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		await settleValidation(key, reprintId);
		const ticket = await api(`/v1/ops/orders/${reprintId}/work-ticket`, { key: opsKey });
		expect(ticket.status).toBe(200);
		expect(await ticket.text()).toContain(`REPRINT of ${order.id}`);
	});

	it("a claim on a reprint is allowed, on the reprint's own units; the second reprint of the original is -R2", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const first = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, first.id)).resolution?.reprint_order_id ?? "";
		const reprint = await settleValidation(key, reprintId);
		const shipped = await send("POST", `/v1/ops/orders/${reprintId}/shipments`, opsKey, { ...TRACKING });
		const shipment = (await shipped.json()) as Order["shipments"][number];
		await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey });
		const onReprint = await postClaimOk(key, reprintId, damagedBody(reprint.items[0]?.id ?? "", 1, [photo]));
		expect(onReprint.order_id).toBe(reprintId);
		const second = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const secondReprint = (await approvedReprint(opsKey, second.id)).resolution?.reprint_order_id ?? "";
		expect((await readOrder(key, secondReprint)).external_id).toBe(`${order.external_id}-R2`);
	});

	it("approving with a reprint and rejecting at the same moment: one wins, and a reprint exists only if the approval won", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const [approval, rejection] = await Promise.all([
			approveReprint(opsKey, claim.id),
			send("POST", `/v1/ops/claims/${claim.id}/reject`, opsKey, { message: "No damage shown." }),
		]);
		expect([approval.status, rejection.status].sort()).toEqual([200, 409]);
		const reprints = await env.DB.prepare("SELECT id FROM orders WHERE reprint_of = ?1")
			.bind(order.id)
			.all<{ id: string }>();
		expect(reprints.results).toHaveLength(approval.status === 200 ? 1 : 0);
	});

	it("the original order lists its reprint in `reprints` after the approval: read, listed and by external id; its version stays", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		expect(order.reprints).toEqual([]);
		const before = await readOrder(key, order.id);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		const read = await readOrder(key, order.id);
		expect(read.reprints).toEqual([reprintId]);
		expect(read.version).toBe(before.version);
		expect(read.updated_at).toBe(before.updated_at);
		const byExternalId = await api(`/v1/orders/by-external-id/${encodeURIComponent(order.external_id)}`, { key });
		expect(((await byExternalId.json()) as Order).reprints).toEqual([reprintId]);
		const listed = (await (await api("/v1/orders?limit=10", { key })).json()) as { data: Order[] };
		expect(listed.data.find((each) => each.id === order.id)?.reprints).toEqual([reprintId]);
		expect(listed.data.find((each) => each.id === reprintId)?.reprints).toEqual([]);
		// The reprint itself goes through its pipeline; the original, untouched, still answers its moves' guards.
		expect((await settleValidation(key, reprintId)).reprint_of).toBe(order.id);
	});

	it("after a reprint is listed on an original still in production, the floor's moves on it go through and answer its reprints", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const opsKey = made.opsKey ?? "";
		const created = await createOrder(made.key, orderBody(made.file, {}, { quantity: 2 }));
		const order = await settleValidation(made.key, created.id);
		const itemId = order.items[0]?.id ?? "";
		const units = [{ item_id: itemId, quantity: 1 }];
		const partial = await send("POST", `/v1/ops/orders/${order.id}/shipments`, opsKey, { ...TRACKING, items: units });
		const shipment = (await partial.json()) as Order["shipments"][number];
		await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey });
		const photo = await uploadedFile(made.key, smallPng(48, 36));
		const claim = await postClaimOk(made.key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		// The rest under a label of its own: the partial shipment's label ships its units once.
		const rest = { ...TRACKING, number: "1Z999AA10123456799" };
		const shipped = await send("POST", `/v1/ops/orders/${order.id}/ship`, opsKey, rest);
		expect(shipped.status).toBe(200);
		const after = (await shipped.json()) as Order;
		expect(after.status).toBe("shipped");
		expect(after.reprints).toEqual([reprintId]);
	});

	it("a second claim's reprint is appended to the original's `reprints`, oldest first", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const first = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const firstReprint = (await approvedReprint(opsKey, first.id)).resolution?.reprint_order_id ?? "";
		const second = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const secondReprint = (await approvedReprint(opsKey, second.id)).resolution?.reprint_order_id ?? "";
		expect(secondReprint).not.toBe(firstReprint);
		expect((await readOrder(key, order.id)).reprints).toEqual([firstReprint, secondReprint]);
	});

	it("two claims on one order approved with reprints at the same moment: both reprints are listed on the original", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const first = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const second = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const approved = await Promise.all([approvedReprint(opsKey, first.id), approvedReprint(opsKey, second.id)]);
		const ids = approved.map((claim) => claim.resolution?.reprint_order_id ?? "");
		expect([...(await readOrder(key, order.id)).reprints].sort()).toEqual([...ids].sort());
	});

	it("the same approval with a reprint sent twice at once makes one reprint, listed once; the other is a 409", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const answers = await Promise.all([approveReprint(opsKey, claim.id), approveReprint(opsKey, claim.id)]);
		expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
		const made = await env.DB.prepare("SELECT id FROM orders WHERE claim_id = ?1").bind(claim.id).all<{ id: string }>();
		expect(made.results).toHaveLength(1);
		expect((await readOrder(key, order.id)).reprints).toEqual([made.results[0]?.id]);
	});

	it("another account, and the same account's test key, get 404 for the original and see none of its reprints", async () => {
		const { partner, key, opsKey, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintId = (await approvedReprint(opsKey, claim.id)).resolution?.reprint_order_id ?? "";
		const other = (await createPartner("Other Gallery")).keys.live.key;
		const testKey = partner.keys.test.key;
		for (const stranger of [other, testKey]) {
			const original = await api(`/v1/orders/${order.id}`, { key: stranger });
			expect(original.status).toBe(404);
			expect(await original.text()).not.toContain(reprintId);
			expect((await api(`/v1/orders/${reprintId}`, { key: stranger })).status).toBe(404);
			const listed = await (await api("/v1/orders?limit=100", { key: stranger })).text();
			expect(listed).not.toContain(reprintId);
		}
	});
});
