import { describe, expect, it } from "vitest";
import {
	checkedBody,
	ORDER_EVENT_TYPES,
	type OrderEvent,
	type OrderEventBody,
	type OrderEventSubject,
	type OrderEventType,
	orderEventBody,
	SENT_ORDER_EVENT_SCHEMAS,
	SHIPMENT_EVENT_TYPES,
	type ShipmentEventType,
	withOrderMetadata,
} from "../../src/orders/events.ts";

const AT = new Date("2026-11-21T10:00:00.000Z");
const TRACKING = { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" };

const SUBJECT: OrderEventSubject = {
	id: "ord_1",
	external_id: "PO-1",
	status: "in_production",
	version: 4,
	tracking: null,
	shipped_at: null,
	hold_reason: null,
	hold_details: [],
	delivered_at: null,
	canceled_at: null,
	metadata: { shop_order_ref: "SO-1", channel: "etsy" },
};

/** The order as the move that records each order event leaves it, and what an order.updated says changed. */
const AFTER: Record<OrderEventType, Partial<OrderEvent> & { order: OrderEventSubject }> = {
	"order.received": { order: { ...SUBJECT, status: "received" } },
	"order.in_production": { order: SUBJECT },
	"order.on_hold": {
		order: {
			...SUBJECT,
			status: "on_hold",
			hold_reason: "file_resolution_too_low",
			hold_details: [
				{ item_id: "itm_1", field: "print_file_id", code: "file_resolution_too_low", message: "96 DPI at 16 × 20 in." },
			],
		},
	},
	"order.shipped": { order: { ...SUBJECT, status: "shipped", tracking: TRACKING, shipped_at: AT.toISOString() } },
	"order.delivered": { order: { ...SUBJECT, status: "delivered", delivered_at: AT.toISOString() } },
	"order.canceled": { order: { ...SUBJECT, status: "canceled", canceled_at: AT.toISOString() } },
	"order.updated": {
		order: SUBJECT,
		update: { changes: [{ field: "shipping_method", from: "standard", to: "express" }], costs: null },
	},
};

const SHIPMENT = {
	id: "shp_1",
	order_id: "ord_1",
	items: [{ item_id: "itm_1", quantity: 1 }],
	carrier: "UPS",
	tracking: TRACKING,
	packages: [{ length_in: 27.5, width_in: 24, depth_in: 4, billable_weight_lb: 19 }],
	status: "in_transit" as const,
	shipped_at: AT.toISOString(),
	delivered_at: null,
	returned_at: null,
};

function eventOf(type: OrderEventType | ShipmentEventType, about: Partial<OrderEvent>): OrderEvent {
	return { type, accountId: "acc_1", mode: "live", order: SUBJECT, delivery: null, createdAt: AT, ...about };
}

function parsed(text: string): Record<string, unknown> {
	return JSON.parse(text) as Record<string, unknown>;
}

describe("orderEventBody", () => {
	for (const type of ORDER_EVENT_TYPES) {
		it(`${type}'s body carries the order's metadata, last`, () => {
			const body = parsed(orderEventBody(eventOf(type, AFTER[type]), "evt_1"));
			expect(body.metadata).toEqual({ shop_order_ref: "SO-1", channel: "etsy" });
			expect(Object.keys(body).at(-1)).toBe("metadata");
			expect(body.event).toBe(type);
			expect(body).toMatchObject({ id: "evt_1", created_at: AT.toISOString(), order_id: "ord_1", version: 4 });
		});
	}

	for (const type of SHIPMENT_EVENT_TYPES) {
		it(`${type}'s body carries the shipment, then the order's metadata, last`, () => {
			const body = parsed(orderEventBody(eventOf(type, { shipment: SHIPMENT }), "evt_2"));
			expect(body.shipment).toEqual(SHIPMENT);
			expect(Object.keys(body).at(-1)).toBe("metadata");
		});
	}

	it("writes every sent event's body as its schema, the document's entry, accepts it: no field more, none less", () => {
		for (const type of Object.keys(SENT_ORDER_EVENT_SCHEMAS) as Array<keyof typeof SENT_ORDER_EVENT_SCHEMAS>) {
			const about = type.startsWith("shipment.") ? { shipment: SHIPMENT } : AFTER[type as OrderEventType];
			const body = parsed(orderEventBody(eventOf(type, about), "evt_3"));
			expect(SENT_ORDER_EVENT_SCHEMAS[type].strict().safeParse(body).success, type).toBe(true);
		}
	});

	it("types a body by its schema: an order.shipped's tracking is the order's", () => {
		const text = orderEventBody(eventOf("order.shipped", AFTER["order.shipped"]), "evt_7");
		const shipped: OrderEventBody<"order.shipped"> = SENT_ORDER_EVENT_SCHEMAS["order.shipped"].parse(JSON.parse(text));
		expect(shipped.tracking).toEqual(TRACKING);
		expect(shipped.status).toBe("shipped");
	});

	it("writes {} for an order without metadata", () => {
		const body = parsed(
			orderEventBody(eventOf("order.in_production", { order: { ...SUBJECT, metadata: {} } }), "evt_4"),
		);
		expect(body.metadata).toEqual({});
	});

	it("refuses a body its event's schema does not accept (an order.shipped without tracking), rather than send it", () => {
		expect(() =>
			orderEventBody(eventOf("order.shipped", { order: { ...SUBJECT, status: "shipped" } }), "evt_5"),
		).toThrow();
		expect(() => checkedBody(SENT_ORDER_EVENT_SCHEMAS["order.delivered"], { id: "evt_6" })).toThrow();
	});
});

describe("withOrderMetadata, for bodies of other event families", () => {
	it("adds metadata last to any body and leaves the body it was given unchanged", () => {
		const shipmentBody = { id: "evt_3", event: "shipment.created", order_id: "ord_1", version: 5 };
		const withMetadata = withOrderMetadata(shipmentBody, { ref: "R-1" });
		expect(withMetadata).toEqual({ ...shipmentBody, metadata: { ref: "R-1" } });
		expect(Object.keys(withMetadata).at(-1)).toBe("metadata");
		expect(shipmentBody).not.toHaveProperty("metadata");
	});

	it("keeps a metadata key named __proto__ when the body is written as JSON", () => {
		const metadata = JSON.parse('{"__proto__": "kept"}') as Record<string, string>;
		expect(JSON.stringify(withOrderMetadata({ id: "evt_4" }, metadata))).toBe(
			'{"id":"evt_4","metadata":{"__proto__":"kept"}}',
		);
	});
});
