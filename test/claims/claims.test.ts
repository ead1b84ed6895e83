import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLAIM_EVENT_SCHEMAS } from "../../src/claims/events.ts";
import type { Claim } from "../../src/claims/schema.ts";
import type { ErrorCode } from "../../src/error-catalog.ts";
import { api, createPartner, ISO_UTC } from "../helpers.ts";
import { buildTiff } from "../imaging/fixtures/tiff.ts";
import { eventsOf } from "../orders/order-helpers.ts";
import { requestUpload, smallPng, uploadedFile, uploadImage } from "../print-files/upload-helpers.ts";
import {
	ageShipment,
	damagedBody,
	deliveredOrder,
	expectCode,
	postClaim,
	postClaimOk,
	shippedOrder,
} from "./claim-helpers.ts";

type ClaimPage = { data: Claim[]; next_cursor: string | null };

describe("POST /v1/orders/{id}/claims", () => {
	it("a claim on delivered units is a 201, submitted, and records claim.created with the claim", async () => {
		const { key, order, itemId, photo } = await deliveredOrder();
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect(claim).toEqual({
			id: expect.stringMatching(/^clm_/),
			order_id: order.id,
			status: "submitted",
			reason: "damaged_in_transit",
			items: [{ item_id: itemId, quantity: 1 }],
			description: "The glass arrived cracked across the top left corner.",
			photos: [photo],
			created_at: expect.stringMatching(ISO_UTC),
			resolution: null,
		});
		const created = (await eventsOf(order.id)).filter((event) => event.type === "claim.created");
		expect(created).toHaveLength(1);
		expect(created[0]?.body).toMatchObject({ event: "claim.created", order_id: order.id, claim });
		expect(CLAIM_EVENT_SCHEMAS["claim.created"].strict().safeParse(created[0]?.body).success).toBe(true);
	});

	it("another account's order is a 404, and so is the same account's order through the other mode's key", async () => {
		const { partner, order, itemId, photo } = await deliveredOrder();
		const stranger = await createPartner("Stranger Prints");
		const body = damagedBody(itemId, 1, [photo]);
		await expectCode(await postClaim(stranger.keys.live.key, order.id, body), 404, "not_found", "order_not_found");
		await expectCode(await postClaim(partner.keys.test.key, order.id, body), 404, "not_found", "order_not_found");
	});

	it("photos of another account, not yet uploaded, a TIFF, named twice, or 11 of them are a 422 naming the index", async () => {
		const { key, order, itemId, photo } = await deliveredOrder();
		const stranger = await createPartner("Other Shop");
		const theirs = await uploadedFile(stranger.keys.live.key, smallPng(48, 36));
		const waiting = (await requestUpload(key)).id;
		const tiff = await uploadImage(
			key,
			buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 64, height: 32 }),
			"image/tiff",
		);
		const cases: Array<[string[], string, ErrorCode]> = [
			[[photo, theirs], "photo_file_ids[1]", "unknown_print_file"],
			[[waiting], "photo_file_ids[0]", "print_file_not_uploaded"],
			[[photo, photo, tiff], "photo_file_ids[1]", "invalid_field"],
			[[photo, tiff], "photo_file_ids[1]", "unsupported_file_format"],
			[Array.from({ length: 11 }, () => photo), "photo_file_ids[10]", "invalid_field"],
		];
		for (const [photos, field, code] of cases) {
			const error = await expectCode(
				await postClaim(key, order.id, damagedBody(itemId, 1, photos)),
				422,
				"validation_error",
				code,
			);
			expect(error.field).toBe(field);
		}
	});

	it("a damage claim without photos is a 422 on photo_file_ids; a wrong_item claim needs none", async () => {
		const { key, order, itemId } = await deliveredOrder();
		const error = await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 1, [])),
			422,
			"validation_error",
			"invalid_field",
		);
		expect(error.field).toBe("photo_file_ids");
		const claim = await postClaimOk(key, order.id, {
			reason: "wrong_item",
			items: [{ item_id: itemId, quantity: 1 }],
			description: "A landscape print came instead of the portrait.",
		});
		expect(claim.photos).toEqual([]);
	});

	it("claiming more units than shipped is a 422 on items[0].quantity, and so is claiming the same units twice", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const tooMany = await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 3, [photo])),
			422,
			"validation_error",
			"claim_units_exceeded",
		);
		expect(tooMany.field).toBe("items[0].quantity");
		await postClaimOk(key, order.id, damagedBody(itemId, 2, [photo]));
		const twice = await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 1, [photo])),
			422,
			"validation_error",
			"claim_units_exceeded",
		);
		expect(twice.field).toBe("items[0].quantity");
		expect(twice.message).toContain("has 0 shipped units");
	});

	it("an item not of the order, or named twice, is a 422 on its entry", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const body = damagedBody(itemId, 1, [photo]);
		const foreign = await expectCode(
			await postClaim(key, order.id, { ...body, items: [{ item_id: "itm_nope", quantity: 1 }] }),
			422,
			"validation_error",
			"invalid_field",
		);
		expect(foreign.field).toBe("items[0].item_id");
		const twice = await expectCode(
			await postClaim(key, order.id, { ...body, items: [...body.items, ...body.items] }),
			422,
			"validation_error",
			"invalid_field",
		);
		expect(twice.field).toBe("items[1].item_id");
	});

	it("30 concurrent claims of one unit each on 2 shipped units: 2 are created, 28 are 422, 2 units are claimed", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const responses = await Promise.all(
			Array.from({ length: 30 }, () => postClaim(key, order.id, damagedBody(itemId, 1, [photo]))),
		);
		const statuses = responses.map((response) => response.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(2);
		expect(statuses.filter((status) => status === 422)).toHaveLength(28);
		const claimed = await env.DB.prepare("SELECT SUM(quantity) AS units FROM claim_items WHERE item_id = ?1")
			.bind(itemId)
			.first<{ units: number }>();
		expect(claimed?.units).toBe(2);
		expect((await eventsOf(order.id)).filter((event) => event.type === "claim.created")).toHaveLength(2);
	});

	it("lost_in_transit is a 409 before 5 days in transit and a 201 after; a delivered shipment is never lost", async () => {
		const { key, order, itemId, shipment, opsKey } = await shippedOrder(1);
		const lost = {
			reason: "lost_in_transit",
			items: [{ item_id: itemId, quantity: 1 }],
			description: "Tracking has not moved for a week.",
		};
		const early = await expectCode(await postClaim(key, order.id, lost), 409, "conflict", "claim_not_allowed");
		expect(early.message).toContain("5 days");
		await ageShipment(shipment.id, 5);
		await postClaimOk(key, order.id, lost);

		const other = await shippedOrder(1);
		await api(`/v1/ops/shipments/${other.shipment.id}/deliver`, { method: "POST", key: other.opsKey });
		await ageShipment(other.shipment.id, 6);
		const delivered = await expectCode(
			await postClaim(other.key, other.order.id, { ...lost, items: [{ item_id: other.itemId, quantity: 1 }] }),
			409,
			"conflict",
			"claim_not_allowed",
		);
		expect(delivered.message).toContain("was delivered");
		expect(opsKey).toBeTruthy();
	});

	it("other reasons are a 409 before delivery and after 30 days of it, and a 201 on day 29", async () => {
		const { key, order, itemId, shipment, photo, opsKey } = await shippedOrder(2);
		const body = damagedBody(itemId, 1, [photo]);
		const undelivered = await expectCode(await postClaim(key, order.id, body), 409, "conflict", "claim_not_allowed");
		expect(undelivered.message).toContain("not delivered yet");
		await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: opsKey });
		await ageShipment(shipment.id, 29);
		await postClaimOk(key, order.id, body);
		await ageShipment(shipment.id, 2);
		const late = await expectCode(await postClaim(key, order.id, body), 409, "conflict", "claim_not_allowed");
		expect(late.message).toContain("30 days after delivery");
	});

	it("units not shipped yet are a 409 saying so", async () => {
		const { key, order, itemId, photo } = await shippedOrder(1);
		await env.DB.prepare("DELETE FROM shipments WHERE order_id = ?1").bind(order.id).run();
		const error = await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 1, [photo])),
			409,
			"conflict",
			"claim_not_allowed",
		);
		expect(error.message).toContain("has not shipped yet");
	});

	it("hostile bodies are 4xx in the envelope: a huge description, an unknown reason, a zero quantity, control characters", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(1);
		const base = damagedBody(itemId, 1, [photo]);
		const bodies = [
			{ ...base, description: "x".repeat(2001) },
			{ ...base, reason: "bored" },
			{ ...base, items: [{ item_id: itemId, quantity: 0 }] },
			{ ...base, description: "bad\u0000text" },
			{ ...base, items: [] },
			{ ...base, photo_file_ids: "pf_1" },
		];
		for (const body of bodies) {
			const response = await postClaim(key, order.id, body);
			expect(response.status).toBe(422);
		}
	});
});

describe("reading claims", () => {
	it("GET /v1/orders/{id}/claims lists the order's claims oldest first; GET /v1/claims/{id} reads one", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(2);
		const first = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const second = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const listed = (await (await api(`/v1/orders/${order.id}/claims`, { key })).json()) as ClaimPage;
		expect(listed).toEqual({ data: [first, second], next_cursor: null });
		const read = await api(`/v1/claims/${second.id}`, { key });
		expect(await read.json()).toEqual(second);
	});

	it("another account's claim, or the other mode's, is a 404; so is another's order's claim list", async () => {
		const { partner, key, order, itemId, photo } = await deliveredOrder(1);
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const stranger = await createPartner("Nosy Prints");
		await expectCode(
			await api(`/v1/claims/${claim.id}`, { key: stranger.keys.live.key }),
			404,
			"not_found",
			"claim_not_found",
		);
		await expectCode(
			await api(`/v1/claims/${claim.id}`, { key: partner.keys.test.key }),
			404,
			"not_found",
			"claim_not_found",
		);
		await expectCode(
			await api(`/v1/orders/${order.id}/claims`, { key: stranger.keys.live.key }),
			404,
			"not_found",
			"order_not_found",
		);
	});

	it("GET /v1/claims pages newest first with a cursor, narrowed by status, and only the caller's own", async () => {
		const { key, order, itemId, photo } = await deliveredOrder(3);
		const made: Claim[] = [];
		for (let count = 0; count < 3; count++)
			made.push(await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo])));
		const first = (await (await api("/v1/claims?limit=2", { key })).json()) as ClaimPage;
		expect(first.data.map((claim) => claim.id)).toEqual([made[2]?.id, made[1]?.id]);
		expect(first.next_cursor).not.toBeNull();
		const second = (await (
			await api(`/v1/claims?limit=2&cursor=${first.next_cursor ?? ""}`, { key })
		).json()) as ClaimPage;
		expect(second).toEqual({ data: [made[0]], next_cursor: null });
		const rejected = (await (await api("/v1/claims?status=rejected", { key })).json()) as ClaimPage;
		expect(rejected.data).toEqual([]);
		await expectCode(await api("/v1/claims?cursor=nonsense", { key }), 422, "validation_error", "invalid_cursor");
	});
});
