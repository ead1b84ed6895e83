import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import type { Order } from "../../src/orders/response.ts";
import { api, send } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, settleValidation, TRACKING } from "../orders/order-helpers.ts";
import { smallPng, uploadedFile } from "../print-files/upload-helpers.ts";
import { ageShipment, damagedBody, expectCode, postClaim, postClaimOk } from "./claim-helpers.ts";

type Shipment = Order["shipments"][number];

/**
 * One item of two units shipped as two boxes of one unit each: the first delivered, the second still on
 * its way, shipped six days ago (so it may be claimed as lost).
 */
async function twoBoxes() {
	const made = await partnerWithFile({ opsKey: true });
	const created = await createOrder(made.key, orderBody(made.file, {}, { quantity: 2 }));
	const order = await settleValidation(made.key, created.id);
	expect(order.status).toBe("in_production");
	const itemId = order.items[0]?.id ?? "";
	const boxes: Shipment[] = [];
	for (const number of ["1Z999AA10000000001", "1Z999AA10000000002"]) {
		const response = await send("POST", `/v1/ops/orders/${order.id}/shipments`, made.opsKey, {
			...TRACKING,
			number,
			items: [{ item_id: itemId, quantity: 1 }],
		});
		expect(response.status, await response.clone().text()).toBe(201);
		boxes.push((await response.json()) as Shipment);
	}
	const [first, second] = boxes;
	if (first === undefined || second === undefined) throw new Error("two boxes expected");
	const delivered = await api(`/v1/ops/shipments/${first.id}/deliver`, { method: "POST", key: made.opsKey });
	expect(delivered.status).toBe(200);
	await ageShipment(second.id, 6);
	const photo = await uploadedFile(made.key, smallPng(48, 36));
	return { ...made, order, itemId, photo };
}

const lostBody = (itemId: string) => ({
	reason: "lost_in_transit",
	items: [{ item_id: itemId, quantity: 1 }],
	description: "The tracking has not moved for six days.",
});

describe("claims on an item shipped in two boxes, one delivered and one late", () => {
	it("a second damaged_in_transit claim of the one delivered unit is a 422: the late box's unit did not arrive", async () => {
		const { key, order, itemId, photo } = await twoBoxes();
		await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const error = await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 1, [photo])),
			422,
			"validation_error",
			"claim_units_exceeded",
		);
		expect(error.field).toBe("items[0].quantity");
		expect(error.message).toContain("0 delivered units");
	});

	it("a second lost_in_transit claim when one box is late is a 422, and a damage claim of the delivered unit still passes", async () => {
		const { key, order, itemId, photo } = await twoBoxes();
		await postClaimOk(key, order.id, lostBody(itemId));
		await expectCode(await postClaim(key, order.id, lostBody(itemId)), 422, "validation_error", "claim_units_exceeded");
		await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		await expectCode(
			await postClaim(key, order.id, damagedBody(itemId, 1, [photo])),
			422,
			"validation_error",
			"claim_units_exceeded",
		);
	});

	it("ten concurrent lost claims of the one late unit create exactly one", async () => {
		const { key, order, itemId } = await twoBoxes();
		const answers = await Promise.all(Array.from({ length: 10 }, () => postClaim(key, order.id, lostBody(itemId))));
		expect(answers.map((answer) => answer.status).sort()).toEqual([201, ...Array<number>(9).fill(422)]);
		const listed = await api(`/v1/orders/${order.id}/claims`, { key });
		const { data } = (await listed.json()) as { data: Claim[] };
		expect(data).toHaveLength(1);
	});

	it("the order's claim action closes once both units are claimed, each by its own kind of claim", async () => {
		const { key, order, itemId, photo } = await twoBoxes();
		const action = async () => {
			const response = await api(`/v1/orders/${order.id}/actions`, { key });
			return ((await response.json()) as { claim: { available: boolean; reason: string | null } }).claim;
		};
		await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect((await action()).available).toBe(true);
		await postClaimOk(key, order.id, lostBody(itemId));
		expect(await action()).toMatchObject({ available: false, reason: "Every shipped unit is in a claim already." });
	});

	it("with only the late box claimed lost, the claim action is open for the delivered box, until 30 days after its delivery", async () => {
		const { key, order, itemId } = await twoBoxes();
		await postClaimOk(key, order.id, lostBody(itemId));
		const read = await api(`/v1/orders/${order.id}`, { key });
		const delivered = ((await read.json()) as Order).shipments.find((shipment) => shipment.status === "delivered");
		const response = await api(`/v1/orders/${order.id}/actions`, { key });
		const { claim } = (await response.json()) as { claim: { available: boolean; until: string | null } };
		const closes = Date.parse(delivered?.delivered_at ?? "") + 30 * 86_400_000;
		expect(claim).toEqual({ available: true, until: new Date(closes).toISOString(), reason: null });
	});
});
