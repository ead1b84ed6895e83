import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, expectError, ISO_UTC, send } from "../helpers.ts";
import {
	createOrder,
	eventsOf,
	opsMove,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	readOrder,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

type Shipment = Order["shipments"][number];

/** A second label, told apart from TRACKING. */
const SECOND = { carrier: "FedEx", number: "794644790132" };

/**
 * A live order in production of three units: two framed 8 × 10 in pieces (one item) and one unframed
 * print (another item), with the partner's key and a new ops key.
 */
async function threeUnitOrder(): Promise<{ order: Order; key: string; opsKey: string }> {
	const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
	const framed = orderBody(file, {}, { quantity: 2 });
	const unframed = { print_file_id: file, width_in: 8, height_in: 10, quantity: 1 };
	const created = await createOrder(key, { ...framed, items: [...framed.items, unframed] });
	const order = await settleValidation(key, created.id);
	expect(order.status).toBe("in_production");
	return { order, key, opsKey };
}

function framedItem(order: Order): string {
	return order.items[0]?.id ?? "";
}

function printItem(order: Order): string {
	return order.items[1]?.id ?? "";
}

/** POST /v1/ops/orders/{id}/shipments. */
function shipUnits(opsKey: string, orderId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/ops/orders/${orderId}/shipments`, opsKey, body);
}

/** A shipment that must be created: the 201's body. */
async function shipUnitsOk(opsKey: string, orderId: string, body: unknown): Promise<Shipment> {
	const response = await shipUnits(opsKey, orderId, body);
	if (response.status !== 201) throw new Error(`expected 201, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Shipment;
}

/** POST /v1/ops/shipments/{id}/{action}. */
function shipmentMove(opsKey: string, shipmentId: string, action: "deliver" | "return"): Promise<Response> {
	return api(`/v1/ops/shipments/${shipmentId}/${action}`, { method: "POST", key: opsKey });
}

async function eventTypesAfter(orderId: string, before: number): Promise<string[]> {
	return (await eventsOf(orderId)).slice(before).map((event) => event.type);
}

describe("an order's shipments and fulfillment", () => {
	it("an order in production shows no shipments and none of its units shipped", async () => {
		const { order } = await threeUnitOrder();
		expect(order.shipments).toEqual([]);
		expect(order.fulfillment).toEqual({ units: 3, shipped_units: 0, delivered_units: 0 });
		expect(order.tracking).toBeNull();
	});
});

describe("POST /v1/ops/orders/{id}/shipments", () => {
	it("a shipment of some units is a 201 with one box per framed unit; the order stays in_production with shipment.created only", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const before = (await eventsOf(order.id)).length;
		const shipment = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: framedItem(order), quantity: 2 }],
		});
		expect(shipment).toMatchObject({
			id: expect.stringMatching(/^shp_/),
			order_id: order.id,
			items: [{ item_id: framedItem(order), quantity: 2 }],
			carrier: "UPS",
			tracking: TRACKING,
			status: "in_transit",
			delivered_at: null,
			returned_at: null,
		});
		// The boxes a quote of the same two framed units counts, as the quote shows them.
		const quote = await send("POST", "/v1/quotes", key, {
			ship_to: order.ship_to,
			items: [{ width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white", quantity: 2 }],
		});
		expect(quote.status).toBe(201);
		const quoted = (await quote.json()) as { shipping_options: Array<{ packages: Array<Record<string, unknown>> }> };
		const boxes = (quoted.shipping_options[0]?.packages ?? []).map((box) => ({
			length_in: box.length_in,
			width_in: box.width_in,
			depth_in: box.depth_in,
			billable_weight_lb: box.billable_weight_lb,
		}));
		expect(boxes).toHaveLength(2);
		expect(shipment.packages).toEqual(boxes);
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("in_production");
		expect(after.tracking).toBeNull();
		expect(after.shipped_at).toBeNull();
		// Its start (no one had started it) and the shipment: two versions in one write.
		expect(after.version).toBe(order.version + 2);
		expect(after.production_started_at).toBe(shipment.shipped_at);
		// Still in production since it entered production: the floor's clock on the order runs on.
		expect(after.updated_at).toBe(order.updated_at);
		expect(after.shipments).toEqual([shipment]);
		expect(after.fulfillment).toEqual({ units: 3, shipped_units: 2, delivered_units: 0 });
		expect(await eventTypesAfter(order.id, before)).toEqual(["shipment.created"]);
	});

	it("the shipment of the last units ships the order with the first shipment's tracking: shipment.created, then order.shipped as before", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: printItem(order), quantity: 1 }],
		});
		// One flat box for the unframed print.
		expect(first.packages).toHaveLength(1);
		expect(first.packages[0]?.depth_in).toBe(2);
		const before = (await eventsOf(order.id)).length;
		// Without items: every unit that remains, here the two framed ones, and a known carrier's URL is built.
		const last = await shipUnitsOk(opsKey, order.id, SECOND);
		expect(last.items).toEqual([{ item_id: framedItem(order), quantity: 2 }]);
		expect(last.tracking.url).toContain("794644790132");
		const shipped = await readOrder(key, order.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.tracking).toEqual(TRACKING);
		expect(shipped.shipped_at).toBe(last.shipped_at);
		expect(shipped.shipments.map((shipment) => shipment.id)).toEqual([first.id, last.id]);
		expect(shipped.fulfillment).toEqual({ units: 3, shipped_units: 3, delivered_units: 0 });
		const events = (await eventsOf(order.id)).slice(before);
		expect(events.map((event) => event.type)).toEqual(["shipment.created", "order.shipped"]);
		expect(events[0]?.body).toMatchObject({
			event: "shipment.created",
			order_id: order.id,
			external_id: order.external_id,
			version: shipped.version,
			shipment: last,
			metadata: {},
		});
		// order.shipped keeps exactly the fields it always had, and the order's metadata that every body ends with.
		expect(Object.keys(events[1]?.body ?? {}).sort()).toEqual(
			[
				"created_at",
				"event",
				"external_id",
				"id",
				"metadata",
				"order_id",
				"shipped_at",
				"status",
				"tracking",
				"version",
			].sort(),
		);
		expect(events[1]?.body).toMatchObject({ tracking: TRACKING, shipped_at: shipped.shipped_at });
	});

	it("naming more units than remain is a 422 on items[i].quantity, and nothing ships", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const over = await shipUnits(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: framedItem(order), quantity: 3 }],
		});
		expect((await expectError(over, "validation_error", "items[0].quantity")).code).toBe("units_already_shipped");
		// The same item twice counts once for both entries.
		const twice = await shipUnits(opsKey, order.id, {
			...TRACKING,
			items: [
				{ item_id: framedItem(order), quantity: 1 },
				{ item_id: framedItem(order), quantity: 2 },
			],
		});
		await expectError(twice, "validation_error", "items[1].quantity");
		await shipUnitsOk(opsKey, order.id, { ...TRACKING, items: [{ item_id: framedItem(order), quantity: 1 }] });
		const again = await shipUnits(opsKey, order.id, {
			...SECOND,
			items: [{ item_id: framedItem(order), quantity: 2 }],
		});
		await expectError(again, "validation_error", "items[0].quantity");
		const unknown = await shipUnits(opsKey, order.id, { ...SECOND, items: [{ item_id: "itm_nope", quantity: 1 }] });
		await expectError(unknown, "validation_error", "items[0].item_id");
		expect((await readOrder(key, order.id)).fulfillment.shipped_units).toBe(1);
	});

	it("50 concurrent shipments of one unit each of a 3-unit order ship exactly 3 units, one shipment and one event per unit", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const before = (await eventsOf(order.id)).length;
		const answers = await Promise.all(
			Array.from({ length: 50 }, (_, index) =>
				shipUnits(opsKey, order.id, {
					carrier: "UPS",
					number: `1Z999AA1012345${String(index).padStart(4, "0")}`,
					items: [{ item_id: index % 2 === 0 ? framedItem(order) : printItem(order), quantity: 1 }],
				}),
			),
		);
		const statuses = answers.map((answer) => answer.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(3);
		// Every other answer is a clear refusal: the units are gone (422) or the order has shipped (409).
		expect(statuses.every((status) => status === 201 || status === 422 || status === 409)).toBe(true);
		const shipped = await readOrder(key, order.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.shipments).toHaveLength(3);
		expect(
			shipped.shipments.every((shipment) => shipment.items.length === 1 && shipment.items[0]?.quantity === 1),
		).toBe(true);
		expect(shipped.fulfillment).toEqual({ units: 3, shipped_units: 3, delivered_units: 0 });
		const types = await eventTypesAfter(order.id, before);
		expect(types.filter((type) => type === "shipment.created")).toHaveLength(3);
		expect(types.filter((type) => type === "order.shipped")).toHaveLength(1);
	});

	it("an order not in production is a 409, an unknown order a 404", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const held = await settleValidation(key, (await createOrder(key, orderBody(file, {}, { frame: "no-such" }))).id);
		expect(held.status).toBe("on_hold");
		await expectError(await shipUnits(opsKey, held.id, TRACKING), "conflict");
		await expectError(await shipUnits(opsKey, "ord_nope", TRACKING), "not_found", "id");
	});

	it("malformed, hostile or huge bodies are a 4xx naming the field, never a 500", async () => {
		const { order, opsKey } = await threeUnitOrder();
		const item = framedItem(order);
		const cases: Array<[unknown, string]> = [
			[{ ...TRACKING, items: [] }, "items"],
			[{ ...TRACKING, items: [{ item_id: item, quantity: 0 }] }, "items[0].quantity"],
			[{ ...TRACKING, items: [{ item_id: item, quantity: 1.5 }] }, "items[0].quantity"],
			[{ ...TRACKING, items: [{ item_id: item, quantity: 1e12 }] }, "items[0].quantity"],
			[{ ...TRACKING, items: [{ item_id: item, quantity: "1" }] }, "items[0].quantity"],
			[{ ...TRACKING, items: [{ item_id: "x".repeat(5000), quantity: 1 }] }, "items[0].item_id"],
			[{ ...TRACKING, items: [{ item_id: item, quantity: 1, extra: true }] }, "items[0].extra"],
			[{ ...TRACKING, items: Array.from({ length: 101 }, () => ({ item_id: item, quantity: 1 })) }, "items"],
			[{ carrier: "Local Courier", number: "A1" }, "url"],
			[{ ...TRACKING, carrier: "UPS\nFedEx" }, "carrier"],
		];
		for (const [body, field] of cases) {
			const response = await shipUnits(opsKey, order.id, body);
			expect([400, 422]).toContain(response.status);
			const error = (await response.json()) as { error: { field?: string } };
			expect(error.error.field).toBe(field);
		}
	});
});

describe("POST /v1/ops/orders/{id}/shipments with a label the order already has", () => {
	it("the same label with the same units is a 200 with the existing shipment; nothing more ships and no event is sent", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const units = [{ item_id: framedItem(order), quantity: 1 }];
		const first = await shipUnitsOk(opsKey, order.id, { ...TRACKING, items: units });
		const before = (await eventsOf(order.id)).length;
		// A scanner's copy of the label: another case, spaces in the number.
		const again = await shipUnits(opsKey, order.id, {
			carrier: TRACKING.carrier.toLowerCase(),
			number: ` ${TRACKING.number.slice(0, 4)} ${TRACKING.number.slice(4)}`,
			url: TRACKING.url,
			items: units,
		});
		expect(again.status).toBe(200);
		expect(((await again.json()) as Shipment).id).toBe(first.id);
		const after = await readOrder(key, order.id);
		expect(after.shipments).toHaveLength(1);
		expect(after.fulfillment.shipped_units).toBe(1);
		expect(await eventTypesAfter(order.id, before)).toEqual([]);
	});

	it("the same label naming other units is a 409 shipment_label_reused that names the shipment, and nothing ships", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: framedItem(order), quantity: 1 }],
		});
		const other = await shipUnits(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: printItem(order), quantity: 1 }],
		});
		const error = await expectError(other, "conflict", "number");
		expect(error.code).toBe("shipment_label_reused");
		expect(error.message).toContain(first.id);
		// Without items it would carry the units that remain, which this label does not.
		await expectError(await shipUnits(opsKey, order.id, TRACKING), "conflict", "number");
		expect((await readOrder(key, order.id)).fulfillment.shipped_units).toBe(1);
	});

	it("the one-step ship with the label of a partial shipment is a 409 shipment_label_reused naming it, and nothing ships", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: framedItem(order), quantity: 1 }],
		});
		const before = (await eventsOf(order.id)).length;
		const error = await expectError(await opsMove(opsKey, order.id, "ship", TRACKING), "conflict", "number");
		expect(error.code).toBe("shipment_label_reused");
		expect(error.message).toContain(first.id);
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("in_production");
		expect(after.shipments).toHaveLength(1);
		expect(await eventTypesAfter(order.id, before)).toEqual([]);
		// A new label ships what remains.
		expect((await opsMoveOk(opsKey, order.id, "ship", SECOND)).status).toBe("shipped");
	});

	it("the label that shipped every unit, sent again without items after the order shipped, is a 200 with that shipment", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, TRACKING);
		const again = await shipUnits(opsKey, order.id, TRACKING);
		expect(again.status).toBe(200);
		expect(((await again.json()) as Shipment).id).toBe(first.id);
		expect((await readOrder(key, order.id)).status).toBe("shipped");
	});

	it("20 concurrent identical requests make one shipment and one shipment.created: one 201, nineteen 200s with its id", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const before = (await eventsOf(order.id)).length;
		const body = { ...TRACKING, items: [{ item_id: framedItem(order), quantity: 2 }] };
		const answers = await Promise.all(Array.from({ length: 20 }, () => shipUnits(opsKey, order.id, body)));
		const statuses = answers.map((answer) => answer.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(1);
		expect(statuses.filter((status) => status === 200)).toHaveLength(19);
		const ids = new Set(await Promise.all(answers.map(async (answer) => ((await answer.json()) as Shipment).id)));
		expect(ids.size).toBe(1);
		expect((await readOrder(key, order.id)).shipments).toHaveLength(1);
		expect(await eventTypesAfter(order.id, before)).toEqual(["shipment.created"]);
	});

	it("the same label on another order is that order's own new shipment", async () => {
		const one = await threeUnitOrder();
		const two = await threeUnitOrder();
		await shipUnitsOk(one.opsKey, one.order.id, TRACKING);
		const shipment = await shipUnitsOk(two.opsKey, two.order.id, TRACKING);
		expect(shipment.order_id).toBe(two.order.id);
	});
});

describe("an order with units shipped", () => {
	it("cannot be canceled, by the partner or the floor: a 409 that counts the units shipped", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		await shipUnitsOk(opsKey, order.id, { ...TRACKING, items: [{ item_id: printItem(order), quantity: 1 }] });
		const byPartner = await api(`/v1/orders/${order.id}/cancel`, { method: "POST", key });
		expect((await expectError(byPartner, "conflict")).message).toContain("1 of 3 shipped");
		await expectError(await opsMove(opsKey, order.id, "cancel"), "conflict");
		expect((await readOrder(key, order.id)).status).toBe("in_production");
	});

	it("on hold, its shipped item cannot be changed by the partner; another item can", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		await shipUnitsOk(opsKey, order.id, { ...TRACKING, items: [{ item_id: printItem(order), quantity: 1 }] });
		await opsMoveOk(opsKey, order.id, "hold", { message: "Checking the glass." });
		const shippedItem = await send("PATCH", `/v1/orders/${order.id}/items/${printItem(order)}`, key, { width_in: 10 });
		expect((await expectError(shippedItem, "conflict")).code).toBe("order_not_editable");
		const other = await send("PATCH", `/v1/orders/${order.id}/items/${framedItem(order)}`, key, { mat: null });
		expect(other.status).toBe(200);
	});
});

describe("POST /v1/ops/shipments/{id}/deliver and /return", () => {
	it("one shipment delivered keeps the order shipped; the last one in transit delivers the order; a second deliver is a 409", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: printItem(order), quantity: 1 }],
		});
		const second = await shipUnitsOk(opsKey, order.id, SECOND);
		const before = (await eventsOf(order.id)).length;
		const delivered = await shipmentMove(opsKey, first.id, "deliver");
		expect(delivered.status).toBe(200);
		expect(await delivered.json()).toMatchObject({
			id: first.id,
			status: "delivered",
			delivered_at: expect.stringMatching(ISO_UTC),
		});
		const midway = await readOrder(key, order.id);
		expect(midway.status).toBe("shipped");
		expect(midway.fulfillment).toEqual({ units: 3, shipped_units: 3, delivered_units: 1 });
		expect(await eventTypesAfter(order.id, before)).toEqual(["shipment.delivered"]);

		await expectError(await shipmentMove(opsKey, first.id, "deliver"), "conflict");
		expect((await shipmentMove(opsKey, second.id, "deliver")).status).toBe(200);
		const done = await readOrder(key, order.id);
		expect(done.status).toBe("delivered");
		expect(done.fulfillment.delivered_units).toBe(3);
		expect(await eventTypesAfter(order.id, before)).toEqual([
			"shipment.delivered",
			"shipment.delivered",
			"order.delivered",
		]);
	});

	it("a shipment delivered before the rest ships leaves the order in production", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...TRACKING,
			items: [{ item_id: printItem(order), quantity: 1 }],
		});
		expect((await shipmentMove(opsKey, first.id, "deliver")).status).toBe(200);
		expect((await readOrder(key, order.id)).status).toBe("in_production");
	});

	it("a return records the shipment returned with shipment.returned; it cannot be delivered or returned again", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, TRACKING);
		const before = (await eventsOf(order.id)).length;
		const returned = await shipmentMove(opsKey, first.id, "return");
		expect(returned.status).toBe(200);
		expect(await returned.json()).toMatchObject({ status: "returned", returned_at: expect.stringMatching(ISO_UTC) });
		expect((await readOrder(key, order.id)).status).toBe("shipped");
		const events = (await eventsOf(order.id)).slice(before);
		expect(events.map((event) => event.type)).toEqual(["shipment.returned"]);
		expect(events[0]?.body).toMatchObject({ shipment: { id: first.id, status: "returned" } });
		await expectError(await shipmentMove(opsKey, first.id, "return"), "conflict");
		await expectError(await shipmentMove(opsKey, first.id, "deliver"), "conflict");
	});

	// Ops keys see every account's and mode's orders, so they see their shipments too (this ops key is
	// of another account than the order's); a partner key, even the order's own, is refused.
	it("an unknown shipment is a 404; a partner key on every shipment route is a 403", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		const shipment = await shipUnitsOk(opsKey, order.id, TRACKING);
		for (const action of ["deliver", "return"] as const) {
			await expectError(await shipmentMove(opsKey, "shp_nope", action), "not_found", "id");
			await expectError(await shipmentMove(key, shipment.id, action), "forbidden");
		}
		await expectError(await shipUnits(key, order.id, TRACKING), "forbidden");
	});
});

describe("the order's ship and deliver moves through shipments", () => {
	it("ship after a partial shipment is one shipment of the rest; the order keeps the first shipment's tracking", async () => {
		const { order, opsKey } = await threeUnitOrder();
		const first = await shipUnitsOk(opsKey, order.id, {
			...SECOND,
			items: [{ item_id: framedItem(order), quantity: 1 }],
		});
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		expect(shipped.status).toBe("shipped");
		expect(shipped.tracking).toEqual(first.tracking);
		expect(shipped.shipments).toHaveLength(2);
		expect(shipped.shipments[1]).toMatchObject({
			tracking: TRACKING,
			items: [
				{ item_id: framedItem(order), quantity: 1 },
				{ item_id: printItem(order), quantity: 1 },
			],
		});
		// The same label again is refused as a repeat (the shipments import tells it from a conflict).
		await expectError(await opsMove(opsKey, order.id, "ship", TRACKING), "conflict");
	});

	it("deliver delivers every shipment still in transit, and the order", async () => {
		const { order, key, opsKey } = await threeUnitOrder();
		await shipUnitsOk(opsKey, order.id, { ...SECOND, items: [{ item_id: printItem(order), quantity: 1 }] });
		await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		const delivered = await opsMoveOk(opsKey, order.id, "deliver");
		expect(delivered.status).toBe("delivered");
		expect(delivered.shipments.map((shipment) => shipment.status)).toEqual(["delivered", "delivered"]);
		expect(delivered.fulfillment).toEqual({ units: 3, shipped_units: 3, delivered_units: 3 });
		expect((await readOrder(key, order.id)).shipments).toEqual(delivered.shipments);
	});
});
