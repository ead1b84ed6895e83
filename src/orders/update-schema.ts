/** The schemas of a change of an order (`PATCH /v1/orders/{id}`) and of what a partner may still do to it. */
import { z } from "@hono/zod-openapi";
import { ShipToSchema } from "../addresses/schema.ts";
import { dateTime } from "../http/date-time.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import { CentsSchema } from "../quotes/schema.ts";
import { MetadataPatchSchema } from "./metadata.ts";
import { OrderSchema } from "./response.ts";

/** `PATCH /v1/orders/{id}`: any of the recipient, the method and the metadata; any other field is refused. */
export const UpdateOrderBody = z
	.strictObject({
		ship_to: ShipToSchema.optional().openapi({
			description:
				"The new recipient, whole, checked as at creation. While the order is received, validating or on_hold, or in_production before editable_until.",
		}),
		shipping_method: z.enum(SHIPPING_METHODS).optional().openapi({
			description:
				"The new method, offered for the order's items and destination. Same statuses as ship_to. Shipping is priced again from the order's price book; the items keep their prices.",
			example: "express",
		}),
		metadata: MetadataPatchSchema.optional(),
	})
	.openapi("UpdateOrderRequest", {
		example: { shipping_method: "express", metadata: { shop_order_ref: "SO-48213" } },
	});

export type UpdateOrderInput = z.infer<typeof UpdateOrderBody>;

const FromTo = z
	.object({
		from: CentsSchema.openapi({ example: 1450 }),
		to: CentsSchema.openapi({ example: 3890 }),
	})
	.openapi("CentsChange");

export const CostsChangedSchema = z
	.object({ shipping: FromTo, total: FromTo })
	.nullable()
	.openapi("CostsChanged", {
		description:
			"What the change did to the costs: shipping and total, before and after. Null when they did not change (a street corrected, metadata only, no change at all).",
		example: { shipping: { from: 1450, to: 3890 }, total: { from: 16339, to: 18779 } },
	});

export const UpdatedOrderSchema = z
	.object({ ...OrderSchema.shape, costs_changed: CostsChangedSchema })
	.openapi("UpdatedOrder");

const AvailabilitySchema = z
	.object({
		available: z.boolean().openapi({ example: true }),
		until: dateTime().nullable().openapi({
			description: "Until when it stays available (the end of the edit window); null when no end is fixed.",
			example: "2026-11-24T09:30:00.000Z",
		}),
		reason: z
			.string()
			.nullable()
			.openapi({ description: "Why not, and since when; null when available.", example: null }),
	})
	.openapi("ActionAvailability");

export const OrderActionsSchema = z
	.object({
		cancel: AvailabilitySchema,
		update_recipient: AvailabilitySchema,
		update_shipping_method: AvailabilitySchema,
		update_items: AvailabilitySchema,
		update_metadata: AvailabilitySchema,
		claim: AvailabilitySchema,
	})
	.openapi("OrderActions", {
		example: {
			cancel: { available: true, until: null, reason: null },
			update_recipient: { available: true, until: "2026-11-24T09:30:00.000Z", reason: null },
			update_shipping_method: { available: true, until: "2026-11-24T09:30:00.000Z", reason: null },
			update_items: { available: true, until: "2026-11-24T09:30:00.000Z", reason: null },
			update_metadata: { available: true, until: null, reason: null },
			claim: {
				available: false,
				until: null,
				reason: "Nothing has shipped yet: units are claimed once they ship.",
			},
		},
	});
