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
] as const;
/** One of ORDER_EVENT_TYPES. */
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/** The events that are sent as webhooks (order.received is recorded and listed, never sent). */
export const SENT_EVENT_TYPES = [
	"order.in_production",
	"order.on_hold",
	"order.shipped",
	"order.delivered",
	"order.canceled",
] as const satisfies ReadonlyArray<OrderEventType>;
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

/** The webhook body of an event: a base, plus what the event is about. */
export function webhookBody(
	type: OrderEventType,
	order: OrderEventSubject,
	eventId: string,
	createdAt: string,
): string {
	const base = {
		id: eventId,
		event: type,
		created_at: createdAt,
		order_id: order.id,
		external_id: order.external_id,
		status: order.status,
		version: order.version,
	};
	return JSON.stringify(withOrderMetadata(eventFields(type, order, base), order.metadata));
}

/** `base` with what the event of `type` is about. */
function eventFields(type: OrderEventType, order: OrderEventSubject, base: object): object {
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
