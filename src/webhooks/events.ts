/**
 * The events webhooks carry and the body each is sent with (the OpenAPI document's `webhooks`). Plain data: the
 * order's move hands over what happened, and this module shapes the body that is signed and sent.
 */

/** The events a move records. */
export const ORDER_EVENT_TYPES = [
	"order.received",
	"order.in_production",
	"order.on_hold",
	"order.shipped",
	"order.delivered",
	"order.canceled",
	"order.updated",
] as const;
/** One of ORDER_EVENT_TYPES. */
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/** The events a shipment's move records, beside its order's. */
export const SHIPMENT_EVENT_TYPES = ["shipment.created", "shipment.delivered", "shipment.returned"] as const;
/** One of SHIPMENT_EVENT_TYPES. */
export type ShipmentEventType = (typeof SHIPMENT_EVENT_TYPES)[number];

/** The events a claim's creation and resolution record, beside its order's. */
export const CLAIM_EVENT_TYPES = ["claim.created", "claim.approved", "claim.rejected"] as const;
/** One of CLAIM_EVENT_TYPES. */
export type ClaimEventType = (typeof CLAIM_EVENT_TYPES)[number];

/** Why a partner claims units. */
export const CLAIM_REASONS = [
	"damaged_in_transit",
	"lost_in_transit",
	"print_defect",
	"frame_defect",
	"wrong_item",
] as const;

/** Where a claim stands: submitted until the service team approves or rejects it. */
export const CLAIM_STATUSES = ["submitted", "approved", "rejected"] as const;

/** Where a shipment stands: in transit until delivered, or returned to the sender. */
export const SHIPMENT_STATUSES = ["in_transit", "delivered", "returned"] as const;

/** Every event type the event log lists. */
export const EVENT_TYPES = [...ORDER_EVENT_TYPES, ...SHIPMENT_EVENT_TYPES, ...CLAIM_EVENT_TYPES] as const;
/** One of EVENT_TYPES. */
export type EventType = (typeof EVENT_TYPES)[number];

/** The events that are sent as webhooks (order.received is recorded and listed, never sent). */
export const SENT_EVENT_TYPES = [
	"order.in_production",
	"order.on_hold",
	"order.shipped",
	"order.delivered",
	"order.canceled",
	"order.updated",
	"shipment.created",
	"shipment.delivered",
	"shipment.returned",
	"claim.created",
	"claim.approved",
	"claim.rejected",
] as const satisfies ReadonlyArray<EventType>;
/** One of SENT_EVENT_TYPES. */
export type SentEventType = (typeof SENT_EVENT_TYPES)[number];

/** Where a delivery stands. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "no_endpoint"] as const;
/** One of DELIVERY_STATUSES. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** An order's metadata as an event body carries it: the partner's keys and string values, `{}` for none. */
export type EventMetadata = Readonly<Record<string, string>>;

/**
 * `body` with its order's `metadata` last: every event about an order (order.* and shipment.*) carries
 * the metadata the order has when the event is recorded.
 */
export function withOrderMetadata<Body extends object>(
	body: Body,
	metadata: EventMetadata,
): Body & { metadata: EventMetadata } {
	return { ...body, metadata };
}

/** What an event says of its order: the order as the move left it. */
export type OrderEventSubject = {
	id: string;
	external_id: string;
	status: string;
	/** The order's version after the move: it only grows, so a receiver can drop an event older than one it has. */
	version: number;
	tracking: { carrier: string; number: string; url: string } | null;
	shipped_at: string | null;
	hold_reason: string | null;
	hold_details: unknown[];
	delivered_at: string | null;
	canceled_at: string | null;
	metadata: EventMetadata;
};

/** What an `order.updated` event says changed: each field from and to, and the order's costs after it. */
export type OrderUpdateSubject = {
	changes: Array<{ field: "ship_to" | "shipping_method" | "items" | "metadata"; from: unknown; to: unknown }>;
	costs: object | null;
};

/** A shipment as its events carry it: the shipment object of the order's `shipments`. */
export type ShipmentEventSubject = {
	id: string;
	order_id: string;
	items: Array<{ item_id: string; quantity: number }>;
	carrier: string;
	tracking: { carrier: string; number: string; url: string };
	packages: Array<{ length_in: number; width_in: number; depth_in: number; billable_weight_lb: number }>;
	status: string;
	shipped_at: string;
	delivered_at: string | null;
	returned_at: string | null;
};

/** A claim as its events carry it: the claim object of `GET /v1/claims/{id}`. */
export type ClaimEventSubject = {
	id: string;
	order_id: string;
	status: string;
	reason: string;
	items: Array<{ item_id: string; quantity: number }>;
	description: string;
	photos: string[];
	created_at: string;
	resolution: {
		remedy: string | null;
		reprint_order_id: string | null;
		credit_cents: number | null;
		message: string | null;
		resolved_at: string;
	} | null;
};

/** What an event is about beside its order: a shipment (shipment.*) or a claim (claim.*). */
export type EventAbout = { shipment: ShipmentEventSubject } | { claim: ClaimEventSubject } | OrderUpdateSubject | null;

/**
 * What every body starts with, whatever the event: its id, type and time, and the order it is about
 * as the move left it. A field every event carries goes here.
 */
function baseBody(type: EventType, order: OrderEventSubject, eventId: string, createdAt: string) {
	return {
		id: eventId,
		event: type,
		created_at: createdAt,
		order_id: order.id,
		external_id: order.external_id,
		status: order.status,
		version: order.version,
	};
}

/**
 * The webhook body of an event: the base, plus what the event is about (a shipment event's
 * shipment, a claim event's claim), ending with the order's metadata as the move left it.
 */
export function webhookBody(
	type: EventType,
	order: OrderEventSubject,
	eventId: string,
	createdAt: string,
	about: EventAbout = null,
): string {
	const base = baseBody(type, order, eventId, createdAt);
	const fields = about !== null ? { ...base, ...about } : orderEventFields(type, order, base);
	return JSON.stringify(withOrderMetadata(fields, order.metadata));
}

/** `base` with what the order event of `type` is about. */
function orderEventFields(type: EventType, order: OrderEventSubject, base: object): object {
	switch (type) {
		case "order.shipped":
			return { ...base, tracking: order.tracking, shipped_at: order.shipped_at };
		case "order.on_hold":
			return { ...base, hold_reason: order.hold_reason, hold_details: order.hold_details };
		case "order.delivered":
			return { ...base, delivered_at: order.delivered_at };
		case "order.canceled":
			return { ...base, canceled_at: order.canceled_at };
		default:
			return base;
	}
}
