/**
 * The events an order's moves record, order.* and shipment.*, and the body each is sent with: one zod
 * schema per event gives the body's type, checks every body before it is stored, and is the OpenAPI
 * document's entry for the event. With them, the shapes those bodies share with the order itself (its
 * tracking, hold details and shipments). Pure: event-statements.ts records a body in a move's batch, and
 * webhooks stores, signs and sends it without reading it.
 */
import { z } from "@hono/zod-openapi";
import type { KeyMode } from "../accounts/scopes.ts";
import { HOLD_REASONS } from "../error-catalog.ts";
import { dateTime } from "../http/date-time.ts";
import { OrderCostsSchema } from "./costs-schema.ts";
import { type Metadata, MetadataBody } from "./metadata.ts";

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

/** Where a shipment stands: in transit until delivered, or returned to the sender. */
export const SHIPMENT_STATUSES = ["in_transit", "delivered", "returned"] as const;

/** The fields every event body about an order carries, whatever the event (claims' events too). */
export const BASE_BODY_FIELDS = {
	id: z
		.string()
		.openapi({ description: "The event's id (`evt_…`), also `webhook-id`: deduplicate on it.", example: "evt_9Lq3" }),
	created_at: dateTime(),
	order_id: z.string().openapi({ example: "ord_3kq9" }),
	external_id: z.string().openapi({ example: "PO-1001" }),
	version: z.number().int().openapi({
		description:
			"The order's version after the move; it only grows, so an event older than one already seen can be dropped.",
		example: 4,
	}),
	metadata: MetadataBody,
};

/** A shipment's tracking, as the order (which names it `Tracking`) and its events show it. */
export const TrackingBody = z.object({
	carrier: z.string().openapi({ example: "UPS" }),
	number: z.string().openapi({ example: "1Z999AA10123456784" }),
	url: z.string().openapi({ example: "https://www.ups.com/track?tracknum=1Z999AA10123456784" }),
});

/** One entry of `hold_details`, as webhooks and the order itself show it (the order names it `HoldDetail`). */
export const HoldDetailBody = z.object({
	item_id: z.string().nullable().openapi({ example: "itm_5Tg8" }),
	field: z.string().openapi({ example: "print_file_id" }),
	code: z.enum(HOLD_REASONS).openapi({
		description:
			"Why this entry holds the order: one of the `hold_reason` codes (the order's `hold_reason` is its first entry's).",
		example: "file_resolution_too_low",
	}),
	message: z.string().openapi({ example: "The file prints at 96 DPI at 16 × 20 in; at least 150 DPI is needed." }),
});

/** A shipment, as the order's `shipments` and the shipment events show it (the order names it `Shipment`). */
export const ShipmentBody = z.object({
	id: z.string().openapi({ example: "shp_8Hd2kQ" }),
	order_id: z.string().openapi({ example: "ord_3kq9" }),
	items: z
		.array(
			z.object({
				item_id: z.string().openapi({ example: "itm_5Tg8" }),
				quantity: z.number().int().openapi({ example: 1 }),
			}),
		)
		.openapi({ description: "The units this shipment carries, by item." }),
	carrier: z.string().openapi({ example: "UPS" }),
	tracking: TrackingBody,
	packages: z
		.array(
			z.object({
				length_in: z.number().openapi({ example: 27.5 }),
				width_in: z.number().openapi({ example: 24 }),
				depth_in: z.number().openapi({ example: 4 }),
				billable_weight_lb: z.number().int().openapi({
					description: "Whole pounds: the larger of the box's weight and its dimensional weight, rounded up.",
					example: 19,
				}),
			}),
		)
		.openapi({
			description:
				"The boxes: one per framed unit, and one flat box for the unframed prints it carries. Empty for an order placed before orders were priced.",
		}),
	status: z.enum(SHIPMENT_STATUSES).openapi({
		description: "in_transit until delivered, or returned to the sender.",
		example: "in_transit",
	}),
	shipped_at: dateTime(),
	delivered_at: dateTime().nullable(),
	returned_at: dateTime().nullable(),
});

/** A shipment event's body: the order's base fields and the shipment after the move. */
function shipmentEvent<T extends ShipmentEventType>(event: T) {
	return z.object({
		...BASE_BODY_FIELDS,
		event: z.literal(event),
		status: z.string().openapi({ description: "The order's status after the move.", example: "shipped" }),
		shipment: ShipmentBody,
	});
}

/**
 * A changed field's value: the method's name, or an object (`ship_to`, `metadata`, an item's changed
 * fields); null where there was none. Declared as one schema with a list of types: Scalar's reader
 * refuses a schema without a type, and an `anyOf` of inline types in this place too.
 */
const ChangedValue = z
	.union([z.string(), z.record(z.string(), z.union([z.string(), z.number(), z.boolean()]).nullable())])
	.nullable()
	.openapi({ type: ["string", "object", "null"], additionalProperties: true, example: "express" });

/** One change an order.updated event reports: the field, its value before and after. */
const FieldChange = z
	.object({
		field: z.enum(["ship_to", "shipping_method", "items", "metadata"]).openapi({ example: "shipping_method" }),
		from: ChangedValue.openapi({
			description: "The value before: the whole object for ship_to and metadata, the item's changed fields for items.",
		}),
		to: ChangedValue.openapi({ description: "The value after, in the same shape." }),
	})
	.openapi("OrderFieldChange");

/** The order's costs after a change, as the order shows them (null while an item cannot be priced). */
const CostsAfter = OrderCostsSchema.nullable();

/** The order and shipment events sent as webhooks, each with its body's schema: the document's entries for them. */
export const SENT_ORDER_EVENT_SCHEMAS = {
	"order.in_production": z
		.object({ ...BASE_BODY_FIELDS, event: z.literal("order.in_production"), status: z.literal("in_production") })
		.openapi("OrderInProductionEvent"),
	"order.on_hold": z
		.object({
			...BASE_BODY_FIELDS,
			event: z.literal("order.on_hold"),
			status: z.literal("on_hold"),
			hold_reason: z.enum(HOLD_REASONS).openapi({ example: "file_resolution_too_low" }),
			hold_details: z.array(HoldDetailBody),
		})
		.openapi("OrderOnHoldEvent"),
	"order.shipped": z
		.object({
			...BASE_BODY_FIELDS,
			event: z.literal("order.shipped"),
			status: z.literal("shipped"),
			tracking: TrackingBody,
			shipped_at: dateTime(),
		})
		.openapi("OrderShippedEvent"),
	"order.delivered": z
		.object({
			...BASE_BODY_FIELDS,
			event: z.literal("order.delivered"),
			status: z.literal("delivered"),
			delivered_at: dateTime(),
		})
		.openapi("OrderDeliveredEvent"),
	"order.canceled": z
		.object({
			...BASE_BODY_FIELDS,
			event: z.literal("order.canceled"),
			status: z.literal("canceled"),
			canceled_at: dateTime(),
		})
		.openapi("OrderCanceledEvent"),
	"order.updated": z
		.object({
			...BASE_BODY_FIELDS,
			event: z.literal("order.updated"),
			status: z
				.string()
				.openapi({ description: "The order's status, unchanged by the change.", example: "in_production" }),
			changes: z.array(FieldChange).min(1),
			costs: CostsAfter,
		})
		.openapi("OrderUpdatedEvent"),
	"shipment.created": shipmentEvent("shipment.created").openapi("ShipmentCreatedEvent"),
	"shipment.delivered": shipmentEvent("shipment.delivered").openapi("ShipmentDeliveredEvent"),
	"shipment.returned": shipmentEvent("shipment.returned").openapi("ShipmentReturnedEvent"),
} as const;

/** Every order and shipment event's body: the sent ones, and order.received (recorded and listed, never sent). */
const ORDER_EVENT_SCHEMAS = {
	"order.received": z.object({
		...BASE_BODY_FIELDS,
		event: z.literal("order.received"),
		status: z.string().openapi({ description: "The order's status as it was received." }),
	}),
	...SENT_ORDER_EVENT_SCHEMAS,
} satisfies Record<OrderEventType | ShipmentEventType, z.ZodType>;

/** The body of an order or shipment event of `Type`, as its schema types it. */
export type OrderEventBody<Type extends OrderEventType | ShipmentEventType> = z.output<
	(typeof ORDER_EVENT_SCHEMAS)[Type]
>;

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
	metadata: Metadata;
};

/** What an `order.updated` event says changed: each field from and to, and the order's costs after it. */
export type OrderUpdateSubject = {
	changes: Array<{ field: "ship_to" | "shipping_method" | "items" | "metadata"; from: unknown; to: unknown }>;
	costs: object | null;
};

/** An order or shipment event to record: its type, the order it is about, and whether it is sent (to which URL). */
export type OrderEvent = {
	type: OrderEventType | ShipmentEventType;
	accountId: string;
	mode: KeyMode;
	order: OrderEventSubject;
	/** The shipment a shipment.* event is about. */
	shipment?: z.output<typeof ShipmentBody>;
	/** What an order.updated event says changed. */
	update?: OrderUpdateSubject;
	/**
	 * null: recorded and listed, never sent (order.received). Otherwise sent to the order's callback URL
	 * (none: a `no_endpoint` record) and to every endpoint of the account's mode that subscribes to the type.
	 */
	delivery: { url: string | null } | null;
	createdAt: Date;
};

/**
 * What every body starts with, whatever the event: its id, type and time, and the order it is about
 * as the move left it. A field every event carries goes here (and in BASE_BODY_FIELDS).
 */
export function baseBody(type: string, order: OrderEventSubject, eventId: string, createdAt: Date) {
	return {
		id: eventId,
		event: type,
		created_at: createdAt.toISOString(),
		order_id: order.id,
		external_id: order.external_id,
		status: order.status,
		version: order.version,
	};
}

/**
 * `body` with its order's `metadata` last: every event about an order (order.*, shipment.*, claim.*)
 * carries the metadata the order has when the event is recorded.
 */
export function withOrderMetadata<Body extends object>(body: Body, metadata: Metadata): Body & { metadata: Metadata } {
	return { ...body, metadata };
}

/**
 * `body` as the JSON text that is stored, signed and sent, once `schema` (the document's entry for its
 * event) accepts it: a body that strays from what partners are told is a bug, thrown here rather than sent.
 * The text keeps the body's own order of fields, which the schema's parse would not.
 */
export function checkedBody(schema: z.ZodType, body: object): string {
	schema.parse(body);
	return JSON.stringify(body);
}

/** What the order event of `type` is about besides the base: the fields of the move that made it. */
function moveFields(type: OrderEventType | ShipmentEventType, order: OrderEventSubject): object {
	switch (type) {
		case "order.shipped":
			return { tracking: order.tracking, shipped_at: order.shipped_at };
		case "order.on_hold":
			return { hold_reason: order.hold_reason, hold_details: order.hold_details };
		case "order.delivered":
			return { delivered_at: order.delivered_at };
		case "order.canceled":
			return { canceled_at: order.canceled_at };
		default:
			return {};
	}
}

/**
 * The webhook body of an order or shipment event, as JSON text: the base, then what the event is about
 * (a shipment event's shipment, an order.updated's changes and costs, a move's own fields), then the
 * order's metadata; checked against the event's schema.
 */
export function orderEventBody(event: OrderEvent, eventId: string): string {
	const about =
		event.shipment !== undefined
			? { shipment: event.shipment }
			: event.update !== undefined
				? event.update
				: moveFields(event.type, event.order);
	const body = { ...baseBody(event.type, event.order, eventId, event.createdAt), ...about };
	return checkedBody(ORDER_EVENT_SCHEMAS[event.type], withOrderMetadata(body, event.order.metadata));
}
