/**
 * The webhook bodies as schemas, one per event that is sent, for the OpenAPI document's `webhooks`
 * (OAS 3.1): what `webhookBody` in `events.ts` writes, field for field.
 */
import { z } from "@hono/zod-openapi";
import { HOLD_REASONS } from "../error-catalog.ts";
import { dateTime } from "../http/date-time.ts";
import { CLAIM_REASONS, CLAIM_STATUSES, SHIPMENT_STATUSES } from "./events.ts";

/** Metadata as the document shows it: what a shop typically keeps with an order. */
export const METADATA_EXAMPLE = { shop_order_ref: "SO-48213", customer_id: "cus_8842", channel: "etsy" };

/**
 * What the reference says of the order of metadata's keys: JavaScript objects, and so every JSON
 * answer built from one, put canonical array indexes first, ascending; the other keys keep their order.
 */
export const METADATA_KEY_ORDER =
	"Keys come back in the order sent, except that keys that are integers (`0`, `7`, `42`; not `007` or `-1`) come first, in ascending numeric order, as every JSON object in JavaScript orders them.";

/**
 * An order's metadata as the order and every event body show it: the partner's keys and string values,
 * exactly as last set; `{}` when there are none. Event bodies of other families (a shipment's) carry it too.
 */
export const MetadataSchema = z.record(z.string(), z.string()).openapi("Metadata", {
	description:
		"The partner's own keys and values, as last set (`{}` for none); never printed and never interpreted by the service. " +
		METADATA_KEY_ORDER,
	example: METADATA_EXAMPLE,
});

const base = {
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
	metadata: MetadataSchema,
};

const Tracking = z.object({
	carrier: z.string().openapi({ example: "UPS" }),
	number: z.string().openapi({ example: "1Z999AA10123456784" }),
	url: z.string().openapi({ example: "https://www.ups.com/track?tracknum=1Z999AA10123456784" }),
});
/** One entry of `hold_details`, as webhooks and the order itself show it (the order names it `HoldDetail`). */
export const HoldDetail = z.object({
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
	tracking: Tracking,
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

/** Units of one item a claim names. */
export const ClaimItemBody = z.object({
	item_id: z.string().min(1).max(64).openapi({ example: "itm_5Tg8" }),
	quantity: z.number().int().min(1).max(1000).openapi({ example: 1 }),
});

const ClaimResolutionBody = z
	.object({
		remedy: z.enum(["reprint", "refund"]).nullable().openapi({
			description: "How an approved claim is made good; null for a rejection.",
			example: "reprint",
		}),
		reprint_order_id: z.string().nullable().openapi({ example: "ord_8Kq2" }),
		credit_cents: z.number().int().nullable().openapi({
			description:
				"A refund's credit in cents: the claimed units' share of the item charges (and, when lost, of shipping); null otherwise.",
			example: 4800,
		}),
		message: z.string().nullable().openapi({ example: "Sorry about the glass: a new piece ships this week." }),
		resolved_at: dateTime(),
	})
	.openapi("ClaimResolution");

/** A claim, as the claim routes and the claim events show it (the API names it `Claim`). */
export const ClaimBody = z.object({
	id: z.string().openapi({ example: "clm_4Rt8" }),
	order_id: z.string().openapi({ example: "ord_3kq9" }),
	status: z.enum(CLAIM_STATUSES).openapi({ example: "submitted" }),
	reason: z.enum(CLAIM_REASONS).openapi({ example: "damaged_in_transit" }),
	items: z.array(ClaimItemBody).openapi({ description: "The units claimed, by item." }),
	description: z.string().openapi({
		example: "The glass arrived cracked across the top left corner; the box was crushed on that side.",
	}),
	photos: z.array(z.string()).openapi({ description: "The photos' print file ids.", example: ["pf_7Yh2"] }),
	created_at: dateTime(),
	resolution: ClaimResolutionBody.nullable().openapi({ description: "null until the claim is approved or rejected." }),
});

/** A claim event's body: the order's base fields and the claim as it stands. */
function claimEvent<T extends string>(event: T) {
	return z.object({
		...base,
		event: z.literal(event),
		status: z.string().openapi({ description: "The order's status.", example: "delivered" }),
		claim: ClaimBody,
	});
}

/** A shipment event's body: the order's base fields and the shipment after the move. */
function shipmentEvent<T extends string>(event: T) {
	return z.object({
		...base,
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
const CostsAfter = z
	.object({
		currency: z.literal("USD"),
		items: z.number().int().openapi({ example: 14889 }),
		shipping: z.number().int().openapi({ example: 3890 }),
		total: z.number().int().openapi({ example: 18779 }),
		price_book_version: z.number().int().openapi({ example: 1 }),
		quote_id: z.string().nullable().openapi({ example: null }),
		charge: z.enum(["order", "reprint"]).openapi({ example: "order" }),
	})
	.nullable();

/** The webhook events the service sends, each with its body's schema. */
export const WEBHOOK_EVENT_SCHEMAS = {
	"order.in_production": z
		.object({ ...base, event: z.literal("order.in_production"), status: z.literal("in_production") })
		.openapi("OrderInProductionEvent"),
	"order.on_hold": z
		.object({
			...base,
			event: z.literal("order.on_hold"),
			status: z.literal("on_hold"),
			hold_reason: z.enum(HOLD_REASONS).openapi({ example: "file_resolution_too_low" }),
			hold_details: z.array(HoldDetail),
		})
		.openapi("OrderOnHoldEvent"),
	"order.shipped": z
		.object({
			...base,
			event: z.literal("order.shipped"),
			status: z.literal("shipped"),
			tracking: Tracking,
			shipped_at: dateTime(),
		})
		.openapi("OrderShippedEvent"),
	"order.delivered": z
		.object({ ...base, event: z.literal("order.delivered"), status: z.literal("delivered"), delivered_at: dateTime() })
		.openapi("OrderDeliveredEvent"),
	"order.canceled": z
		.object({ ...base, event: z.literal("order.canceled"), status: z.literal("canceled"), canceled_at: dateTime() })
		.openapi("OrderCanceledEvent"),
	"order.updated": z
		.object({
			...base,
			event: z.literal("order.updated"),
			status: z
				.string()
				.openapi({ description: "The order's status, unchanged by the change.", example: "in_production" }),
			changes: z.array(FieldChange).min(1),
			costs: CostsAfter.openapi({ description: "The order's costs after the change." }),
		})
		.openapi("OrderUpdatedEvent"),
	"shipment.created": shipmentEvent("shipment.created").openapi("ShipmentCreatedEvent"),
	"shipment.delivered": shipmentEvent("shipment.delivered").openapi("ShipmentDeliveredEvent"),
	"shipment.returned": shipmentEvent("shipment.returned").openapi("ShipmentReturnedEvent"),
	"claim.created": claimEvent("claim.created").openapi("ClaimCreatedEvent"),
	"claim.approved": claimEvent("claim.approved").openapi("ClaimApprovedEvent"),
	"claim.rejected": claimEvent("claim.rejected").openapi("ClaimRejectedEvent"),
} as const;

/** The body of the signed `ping` that `POST /v1/webhook-endpoints/{id}/test` sends (never retried, never logged). */
export const PingEventSchema = z
	.object({
		id: z.string().openapi({ description: "The ping's id (`ping_…`), also `webhook-id`.", example: "ping_8Rt2" }),
		event: z.literal("ping"),
		created_at: dateTime(),
		endpoint_id: z.string().openapi({ example: "whe_3Lk9" }),
		mode: z.enum(["live", "test"]).openapi({ description: "The mode whose secret signed it." }),
	})
	.openapi("PingEvent");

/** The headers every webhook carries. */
export const WebhookHeaders = z.object({
	"svc-signature": z.string().openapi({
		description: "`t=<unix seconds>,v1=<hex HMAC-SHA256 of the raw body>`, one `v1=` per secret during a rotation.",
		example: "t=1795345200,v1=5257a869e7ecebeda32affa62cdca3fa51cad7e77a0e56ff536d0ce8e108d8bd",
	}),
	"webhook-id": z.string().openapi({ description: "Standard Webhooks: the event's id.", example: "evt_9Lq3" }),
	"webhook-timestamp": z
		.string()
		.openapi({ description: "Standard Webhooks: unix seconds of this attempt.", example: "1795345200" }),
	"webhook-signature": z.string().openapi({
		description:
			"Standard Webhooks: `v1,<base64 HMAC-SHA256 of id.timestamp.body>`, keyed by the base64 after `whsec_`.",
		example: "v1,K5oZfzN95Z9UVu1EsfQmfVNQhnkZ2pj9o9NDN/H/pI4=",
	}),
});
