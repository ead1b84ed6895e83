import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";
import { encodePng } from "../imaging/fixtures/png.ts";
import { FILE_HOST, partnerFileServer } from "../print-files/file-hosting.ts";
import { sharpPng, uploadedFile } from "../print-files/upload-helpers.ts";
import {
	createOrder,
	eventBody,
	eventTypes,
	insertRawOrder,
	opsMoveOk,
	readOrder,
	runOrderAlarm,
	settleValidation,
	urlOrderBody,
} from "./order-helpers.ts";

const { hostFile } = partnerFileServer("holds");

/** A fresh partner key and an order of it that validation put on hold (8 × 10 in, sharp file, `item` overrides). */
async function heldOrder(item: Record<string, unknown>, url?: string): Promise<{ key: string; order: Order }> {
	const key = (await createPartner()).keys.live.key;
	const created = await createOrder(key, urlOrderBody(url ?? (await hostFile(sharpPng())), "HOLD", item));
	const order = await settleValidation(key, created.id);
	expect(order.status).toBe("on_hold");
	return { key, order };
}

/** PATCH /v1/orders/{id}/items/{item_id}. */
function patchItem(key: string, order: Order, body: unknown, itemId = order.items[0]?.id ?? ""): Promise<Response> {
	return send("PATCH", `/v1/orders/${order.id}/items/${itemId}`, key, body);
}

/** PATCHes the order's first item, expects 200 `validating` with the hold cleared, and settles validation. */
async function fixAndSettle(key: string, order: Order, body: unknown): Promise<{ patched: Order; settled: Order }> {
	const response = await patchItem(key, order, body);
	expect(response.status).toBe(200);
	const patched = (await response.json()) as Order;
	expect(patched.status).toBe("validating");
	expect(patched.hold_reason).toBeNull();
	expect(patched.hold_details).toEqual([]);
	return { patched, settled: await settleValidation(key, order.id) };
}

describe("PATCH /v1/orders/{id}/items/{item_id}", () => {
	it("a new size fixes size_not_offered: 200 validating, then in_production", async () => {
		const { key, order } = await heldOrder({ width_in: 8.5 });
		expect(order.hold_reason).toBe("size_not_offered");
		const { patched, settled } = await fixAndSettle(key, order, { width_in: 8 });
		expect(patched.items[0]?.width_in).toBe(8);
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]).toMatchObject({ width_in: 8, height_in: 10, effective_dpi: 300 });
		// The file fetched the first time is reused, not fetched again.
		expect(order.items[0]?.print_file_id).toMatch(/^pf_/);
		expect(settled.items[0]?.print_file_id).toBe(order.items[0]?.print_file_id);
		expect(await eventTypes(order.id)).toEqual([
			"order.received",
			"order.on_hold",
			"order.updated",
			"order.in_production",
		]);
	});

	it("a new frame fixes frame_not_found", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		expect(order.hold_reason).toBe("frame_not_found");
		const { patched, settled } = await fixAndSettle(key, order, { frame: "walnut-flat-075" });
		expect(patched.items[0]?.frame).toBe("walnut-flat-075");
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.frame).toBe("walnut-flat-075");
	});

	it("a new mat fixes mat_not_found", async () => {
		const { key, order } = await heldOrder({ frame: "walnut-flat-075", mat: "no-such-mat" });
		expect(order.hold_reason).toBe("mat_not_found");
		const { settled } = await fixAndSettle(key, order, { mat: "bright-white" });
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]).toMatchObject({ frame: "walnut-flat-075", mat: "bright-white" });
	});

	it("frame: null while a mat stays is a 422 on mat: a mat needs a frame", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame", mat: "bright-white" });
		const response = await patchItem(key, order, { frame: null });
		expect(response.status).toBe(422);
		expect(((await response.json()) as { error: { field: string } }).error.field).toBe("mat");
	});

	it("frame: null and mat: null remove both: an unframed print, its glazing back to none", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame", mat: "bright-white" });
		const { patched, settled } = await fixAndSettle(key, order, { frame: null, mat: null });
		expect(patched.items[0]).toMatchObject({ frame: null, mat: null, mat_border_in: null, glazing: "none" });
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]).toMatchObject({ frame: null, mat: null, glazing: "none" });
	});

	it("framing fields are patched as at creation: a double mat with a weighted bottom, its defaults shown", async () => {
		const { key, order } = await heldOrder({ frame: "walnut-flat-075", mat: "no-such-mat" });
		const { patched, settled } = await fixAndSettle(key, order, {
			mat: "museum-rag-white-8ply",
			mat_bottom_border_in: 3,
			inner_mat: "museum-rag-black-4ply",
			glazing: "museum-acrylic",
		});
		expect(patched.items[0]).toMatchObject({
			mat_border_in: 2,
			mat_bottom_border_in: 3,
			inner_mat: "museum-rag-black-4ply",
			inner_mat_reveal_in: 0.25,
			glazing: "museum-acrylic",
		});
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.dimensions?.top_mat_opening).toEqual({ width_in: 8.25, height_in: 10.25 });
		expect(settled.costs?.total).toBeGreaterThan(0);
	});

	it("a patch that leaves the item unbuildable is a 422 on the field at fault, and changes nothing", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		for (const [body, field] of [
			[{ inner_mat: "museum-rag-black-4ply" }, "inner_mat"],
			[{ mat_border_in: 3 }, "mat_border_in"],
			[{ mat: "bright-white", mat_border_in: 6.5 }, "mat_border_in"],
			[{ mat: "bright-white", mat_border_in: 3, mat_bottom_border_in: 2 }, "mat_bottom_border_in"],
			[{ frame: null, glazing: "museum-acrylic" }, "glazing"],
		] as const) {
			const response = await patchItem(key, order, body);
			expect(response.status, JSON.stringify(body)).toBe(422);
			expect(((await response.json()) as { error: { field: string } }).error.field).toBe(field);
		}
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it("a new print_file_id (a ready uploaded file) replaces a print_file_url that was too small", async () => {
		const { key, order } = await heldOrder({}, await hostFile(encodePng(48, 48)));
		expect(order.hold_reason).toBe("file_resolution_too_low");
		const fileId = await uploadedFile(key, sharpPng());
		const { patched, settled } = await fixAndSettle(key, order, { print_file_id: fileId });
		expect(patched.items[0]).toMatchObject({ print_file_id: fileId, print_file_url: null, effective_dpi: 300 });
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]).toMatchObject({ print_file_id: fileId, print_file_url: null, effective_dpi: 300 });
	});

	it("a new print_file_url replaces one that could not be fetched, and the new file is fetched", async () => {
		const { key, order } = await heldOrder({}, `${FILE_HOST}/status/404`);
		expect(order.hold_reason).toBe("file_fetch_failed");
		const url = await hostFile(sharpPng());
		const { patched, settled } = await fixAndSettle(key, order, { print_file_url: url });
		expect(patched.items[0]?.print_file_url).toBe(url);
		expect(settled.status).toBe("in_production");
		const fileId = settled.items[0]?.print_file_id;
		expect(fileId).toMatch(/^pf_/);
		expect(settled.items[0]?.effective_dpi).toBe(300);
		const file = await api(`/v1/print-files/${fileId}`, { key });
		expect(await file.json()).toMatchObject({ status: "ready", width_px: 2400, height_px: 3000 });
	});

	it("a fix that does not fix puts the order on hold again", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const { settled } = await fixAndSettle(key, order, { frame: "still-no-such-frame" });
		expect(settled.status).toBe("on_hold");
		expect(settled.hold_reason).toBe("frame_not_found");
		expect(settled.hold_details[0]?.message).toContain("still-no-such-frame");
	});

	it("a new uploaded file below 150 DPI is a 422 on print_file_id and the order stays on_hold", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const blurry = await uploadedFile(key, encodePng(48, 48));
		const error = await expectError(
			await patchItem(key, order, { print_file_id: blurry, frame: "walnut-flat-075" }),
			"validation_error",
			"print_file_id",
		);
		expect(error.message).toContain("150 DPI");
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("on_hold");
		expect(after.hold_reason).toBe("frame_not_found");
		expect(after.items).toEqual(order.items);
	});

	it("a print_file_id of another account is a 422 on print_file_id", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const strangerKey = (await createPartner("Other Gallery")).keys.live.key;
		const theirs = await uploadedFile(strangerKey, sharpPng());
		await expectError(await patchItem(key, order, { print_file_id: theirs }), "validation_error", "print_file_id");
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it("a new print_file_url at a private address is a 422 on print_file_url", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		await expectError(
			await patchItem(key, order, { print_file_url: "https://192.168.1.10/print.png" }),
			"validation_error",
			"print_file_url",
		);
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it("is a 409 naming the status when the order is not on_hold and the floor has started it", async () => {
		const key = (await createPartner()).keys.live.key;
		const created = await createOrder(key, urlOrderBody(await hostFile(sharpPng()), "HOLD"));
		const order = await settleValidation(key, created.id);
		expect(order.status).toBe("in_production");
		await opsMoveOk(await createKeyWithScopes(["ops"]), order.id, "start");
		const error = await expectError(await patchItem(key, order, { frame: "walnut-flat-075" }), "conflict");
		expect(error.message).toContain("in_production");
		expect((await readOrder(key, order.id)).items[0]?.frame).toBeNull();
	});

	it("is a 404 on item_id for an item the order does not have", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		await expectError(await patchItem(key, order, { frame: null }, "itm_doesnotexist"), "not_found", "item_id");
	});

	it("is a 404 for another account's order", async () => {
		const { order } = await heldOrder({ frame: "no-such-frame" });
		const strangerKey = (await createPartner("Other Gallery")).keys.live.key;
		await expectError(await patchItem(strangerKey, order, { frame: null }), "not_found", "id");
	});

	it("is a 422 with both print_file_id and print_file_url", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const fileId = await uploadedFile(key, sharpPng());
		const response = await patchItem(key, order, { print_file_id: fileId, print_file_url: await hostFile(sharpPng()) });
		expect(response.status).toBe(422);
		const error = (await response.json()) as { error: { type: string; message: string } };
		expect(error.error.type).toBe("validation_error");
		expect(error.error.message).toMatch(/not both/);
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it("is a 422 with an empty body", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const response = await patchItem(key, order, {});
		expect(response.status).toBe(422);
		expect(((await response.json()) as { error: { type: string } }).error.type).toBe("validation_error");
		expect((await readOrder(key, order.id)).status).toBe("on_hold");
	});

	it.each([
		["status", "in_production"],
		["quantity", 3],
		["id", "itm_mine"],
	])("is a 422 on %s: no mass assignment", async (field, value) => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		await expectError(await patchItem(key, order, { frame: null, [field]: value }), "validation_error", field);
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("on_hold");
		expect(after.items).toEqual(order.items);
	});
});

describe("POST /v1/orders/{id}/cancel", () => {
	/** Cancels as the partner and checks the 200 answer and the order.canceled event. */
	async function cancelAndCheck(key: string, orderId: string): Promise<Order> {
		const response = await api(`/v1/orders/${orderId}/cancel`, { method: "POST", key });
		expect(response.status).toBe(200);
		const canceled = (await response.json()) as Order;
		expect(canceled.status).toBe("canceled");
		expect(canceled.canceled_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
		expect(canceled.hold_reason).toBeNull();
		expect(canceled.hold_details).toEqual([]);
		expect(await eventBody(orderId, "order.canceled")).toMatchObject({
			event: "order.canceled",
			order_id: orderId,
			status: "canceled",
			canceled_at: canceled.canceled_at,
		});
		expect(await readOrder(key, orderId)).toEqual(canceled);
		return canceled;
	}

	it("cancels an order in received (its machine not yet reached)", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const { id } = await insertRawOrder(
			{ accountId: partner.account.id, mode: "live" },
			"received",
			await hostFile(sharpPng()),
		);
		expect((await readOrder(key, id)).status).toBe("received");
		await cancelAndCheck(key, id);
		// The Durable Object has nothing left to do for it.
		await runOrderAlarm(id);
		expect((await readOrder(key, id)).status).toBe("canceled");
	});

	it("cancels an order in validating", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const { id } = await insertRawOrder(
			{ accountId: partner.account.id, mode: "live" },
			"validating",
			await hostFile(sharpPng()),
		);
		await cancelAndCheck(key, id);
	});

	it("cancels an order right after creation, and validation does not undo it", async () => {
		const key = (await createPartner()).keys.live.key;
		const created = await createOrder(key, urlOrderBody(await hostFile(sharpPng()), "HOLD"));
		await cancelAndCheck(key, created.id);
		await runOrderAlarm(created.id);
		expect((await readOrder(key, created.id)).status).toBe("canceled");
		expect((await eventTypes(created.id)).at(-1)).toBe("order.canceled");
	});

	it("cancels an order on_hold", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		await cancelAndCheck(key, order.id);
	});

	it("cancels an order in_production", async () => {
		const key = (await createPartner()).keys.live.key;
		const created = await createOrder(key, urlOrderBody(await hostFile(sharpPng()), "HOLD"));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		await cancelAndCheck(key, created.id);
	});

	it("is a 409 naming shipped once the order has shipped", async () => {
		const key = (await createPartner()).keys.live.key;
		const opsKey = await createKeyWithScopes(["ops"]);
		const created = await createOrder(key, urlOrderBody(await hostFile(sharpPng()), "HOLD"));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		const shipped = await send("POST", `/v1/ops/orders/${created.id}/ship`, opsKey, {
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
		});
		expect(shipped.status).toBe(200);
		const error = await expectError(await api(`/v1/orders/${created.id}/cancel`, { method: "POST", key }), "conflict");
		expect(error.message).toContain("shipped");
		const after = await readOrder(key, created.id);
		expect(after.status).toBe("shipped");
		expect(after.canceled_at).toBeNull();
		expect(await eventTypes(created.id)).not.toContain("order.canceled");
	});

	it("is a 409 naming canceled the second time", async () => {
		const { key, order } = await heldOrder({ frame: "no-such-frame" });
		const first = await cancelAndCheck(key, order.id);
		const error = await expectError(await api(`/v1/orders/${order.id}/cancel`, { method: "POST", key }), "conflict");
		expect(error.message).toContain("canceled");
		expect(await readOrder(key, order.id)).toEqual(first);
		expect((await eventTypes(order.id)).filter((type) => type === "order.canceled")).toHaveLength(1);
	});

	it("is a 404 for another account's order", async () => {
		const { order } = await heldOrder({ frame: "no-such-frame" });
		const strangerKey = (await createPartner("Other Gallery")).keys.live.key;
		await expectError(
			await api(`/v1/orders/${order.id}/cancel`, { method: "POST", key: strangerKey }),
			"not_found",
			"id",
		);
	});
});
