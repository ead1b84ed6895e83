import { describe, expect, it } from "vitest";
import {
	ORDER_EVENT_TYPES,
	type OrderEventSubject,
	webhookBody,
	withOrderMetadata,
} from "../../src/webhooks/events.ts";

const SUBJECT: OrderEventSubject = {
	id: "ord_1",
	external_id: "PO-1",
	status: "shipped",
	version: 4,
	tracking: { carrier: "UPS", number: "1Z999", url: "https://ups.example/1Z999" },
	shipped_at: "2026-11-21T10:00:00.000Z",
	hold_reason: null,
	hold_details: [],
	delivered_at: null,
	canceled_at: null,
	metadata: { shop_order_ref: "SO-1", channel: "etsy" },
};

describe("webhookBody", () => {
	for (const type of ORDER_EVENT_TYPES) {
		it(`${type}'s body carries the order's metadata, last`, () => {
			const body = JSON.parse(webhookBody(type, SUBJECT, "evt_1", "2026-11-21T10:00:00.000Z")) as Record<
				string,
				unknown
			>;
			expect(body.metadata).toEqual({ shop_order_ref: "SO-1", channel: "etsy" });
			expect(Object.keys(body).at(-1)).toBe("metadata");
			expect(body.event).toBe(type);
		});
	}

	it("writes {} for an order without metadata", () => {
		const body = JSON.parse(webhookBody("order.in_production", { ...SUBJECT, metadata: {} }, "evt_2", "x")) as {
			metadata: unknown;
		};
		expect(body.metadata).toEqual({});
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
