import { z } from "@hono/zod-openapi";
import { ShipToWarningSchema } from "../addresses/check-schema.ts";
import { ShipToSchema } from "../addresses/schema.ts";
import { DutyTermsSchema, ItemCustomsSchema } from "../customs/schema.ts";
import { FITS, specOf } from "../framing/spec.ts";
import { CURSOR_EXAMPLE, encodeCursor } from "../http/cursor.ts";
import { dateTime } from "../http/date-time.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import { CentsSchema, DimensionsSchema, UnitPriceSchema } from "../quotes/schema.ts";
import { itemCustoms, type OrderCosts, shownCosts } from "./costs.ts";
import { ItemDeclaredValueSchema, OrderCostsSchema } from "./costs-schema.ts";
import { HoldDetailBody, ShipmentBody, TrackingBody } from "./events.ts";
import { ITEM_WARNINGS } from "./item-checks.ts";
import { MetadataBody } from "./metadata.ts";
import { type ItemRow, type StoredOrder, shownDpi, stateOf } from "./rows.ts";
import { fulfillmentOf, type ShipmentRow, shipmentView } from "./shipments.ts";
import { HOLD_REASONS, ORDER_STATUSES } from "./state-machine.ts";

/** The `{id}` path parameter of order routes. */
export const OrderIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "ord_3kq9" }),
});

export const TrackingSchema = TrackingBody.openapi("Tracking");

export const HoldDetailSchema = HoldDetailBody.openapi("HoldDetail");

export const ShipmentSchema = ShipmentBody.openapi("Shipment");

export const FulfillmentSchema = z
	.object({
		units: z.number().int().openapi({ description: "Every unit of the order: the items' quantities.", example: 3 }),
		shipped_units: z
			.number()
			.int()
			.openapi({ description: "Units that left in a shipment, whatever became of it since.", example: 2 }),
		delivered_units: z.number().int().openapi({ description: "Units whose shipment was delivered.", example: 1 }),
	})
	.openapi("Fulfillment");

/** The API shape of a shipment. */
export const toShipment: (shipment: ShipmentRow) => z.infer<typeof ShipmentSchema> = shipmentView;

export const OrderItemSchema = z
	.object({
		id: z.string().openapi({ example: "itm_5Tg8" }),
		print_file_id: z.string().nullable().openapi({ example: "pf_7cQm2x" }),
		print_file_url: z.string().nullable().openapi({ example: null }),
		width_in: z.number().openapi({ example: 16 }),
		height_in: z.number().openapi({ example: 20 }),
		frame: z.string().nullable().openapi({ example: "walnut-flat-125" }),
		mat: z.string().nullable().openapi({ example: "museum-rag-white-4ply" }),
		mat_border_in: z
			.number()
			.nullable()
			.openapi({ description: "The mat's side and top border; null without a mat.", example: 2.5 }),
		mat_bottom_border_in: z
			.number()
			.nullable()
			.openapi({ description: "The mat's bottom border; null without a mat.", example: 3 }),
		inner_mat: z.string().nullable().openapi({ description: "A double mat's inner mat.", example: "black-core-black" }),
		inner_mat_reveal_in: z
			.number()
			.nullable()
			.openapi({ description: "How much of the inner mat shows.", example: 0.25 }),
		glazing: z.string().openapi({ description: "The glazing; none for an unframed print.", example: "museum-acrylic" }),
		paper: z.string().openapi({ example: "cotton-rag" }),
		fit: z.enum(FITS),
		quantity: z.number().int().openapi({ example: 1 }),
		effective_dpi: z.number().nullable().openapi({
			description:
				"Pixels per inch at this size once the file is known: the smaller of the two scale factors with fill, the larger with fit.",
			example: 300,
		}),
		image_cropped_percent: z.number().nullable().openapi({
			description:
				"How much of the image fill cuts off along its cropped side, in percent (0 with fit), once the file is known.",
			example: 0,
		}),
		warnings: z.array(z.enum(ITEM_WARNINGS)).openapi({
			description: "low_resolution: 150 to 299 DPI; image_cropped: fill cuts off more than 2% of the image.",
			example: ["low_resolution"],
		}),
		dimensions: DimensionsSchema.nullable().openapi({
			description: "The piece's dimensions; null until the item can be built (an unknown part or size holds it).",
		}),
		united_inches: z.number().nullable().openapi({ example: 46.5 }),
		unit_price: UnitPriceSchema.nullable().openapi({
			description:
				"One unit's price by component; null until the item can be priced, and for orders placed before pricing.",
		}),
		line_total: CentsSchema.nullable().openapi({ description: "unit_price.total × quantity.", example: 14889 }),
		declared_value: ItemDeclaredValueSchema.nullable().openapi({
			description:
				"One unit's value for customs: the partner's (`source: partner`) or, when none was sent, the unit's price to the partner (`source: price`). Null on orders made before declared values.",
		}),
		customs: ItemCustomsSchema,
	})
	.openapi("OrderItem");

export const OrderSchema = z
	.object({
		id: z.string().openapi({ example: "ord_3kq9" }),
		external_id: z.string().openapi({ example: "PO-1001" }),
		status: z.enum(ORDER_STATUSES),
		version: z.number().int().openapi({
			description:
				"Grows by one with every move. Each webhook body carries the version its move left, so a receiver can drop an event older than the state it has.",
			example: 1,
		}),
		mode: z.enum(["live", "test"]),
		ship_to: ShipToSchema,
		ship_to_warnings: z.array(ShipToWarningSchema).openapi({
			description:
				"What a carrier's label would trip on in ship_to, found at creation (as POST /v1/addresses/check finds it, for the order's shipping_method). Never holds or refuses the order; empty for orders placed before warnings were kept.",
			example: [],
		}),
		callback_url: z.string().nullable().openapi({ example: "https://example.com/hooks" }),
		gift_message: z.string().nullable().openapi({
			description: "The buyer's message, printed on the packing slip.",
			example: "Happy birthday, Grace!",
		}),
		shipping_method: z.enum(SHIPPING_METHODS).openapi({ description: "How the order ships." }),
		duty_terms: DutyTermsSchema.nullable().openapi({
			description: "Who pays the border's charges of a delivery abroad; null on orders made before duty terms.",
		}),
		// The description is the component's: a description beside its $ref (an allOf) is more than Scalar's reader takes.
		costs: OrderCostsSchema.nullable(),
		items: z.array(OrderItemSchema),
		tracking: TrackingSchema.nullable().openapi({
			description: "The first shipment's tracking, once the order is shipped; every label is in `shipments`.",
		}),
		shipments: z.array(ShipmentSchema).openapi({ description: "The order's shipments, oldest first." }),
		fulfillment: FulfillmentSchema,
		hold_reason: z.enum(HOLD_REASONS).nullable(),
		hold_details: z.array(HoldDetailSchema),
		created_at: dateTime(),
		updated_at: dateTime(),
		shipped_at: dateTime().nullable(),
		delivered_at: dateTime().nullable(),
		canceled_at: dateTime().nullable(),
		metadata: MetadataBody,
		editable_until: dateTime().nullable().openapi({
			description:
				"The end of the account's edit window (created_at plus its minutes, fixed at creation): the floor does not start the order before, so the recipient, shipping method and items can change at least until then, and on until `production_started_at`. Null when the account has no edit window: the floor may start the order as soon as it is in production.",
			example: "2026-11-24T09:30:00.000Z",
		}),
		production_started_at: dateTime().nullable().openapi({
			description:
				"When the floor started making the order (from its console, the ops API or a scan of its work ticket), or shipped it unstarted, which starts it. Until then the recipient, shipping method and items can change and the order can be canceled; null while it is not started, and again after a hold takes it off the floor.",
			example: "2026-11-24T10:05:00.000Z",
		}),
		reprint_of: z.string().nullable().openapi({
			description: "The order this one reprints, when an approved claim made it; null otherwise.",
			example: "ord_2Wd8",
		}),
		claim_id: z.string().nullable().openapi({
			description: "The claim whose approval made this reprint; null otherwise.",
			example: "clm_4Rt8",
		}),
		reprints: z.array(z.string()).openapi({
			description:
				"The orders approved claims made as this order's reprints, oldest first; empty for most orders. Each reprint names this order in its `reprint_of`.",
			example: ["ord_7Kp2", "ord_9Qx4"],
		}),
	})
	.openapi("Order");

export type Order = z.infer<typeof OrderSchema>;

function toItem(item: ItemRow, costs: OrderCosts | null): z.infer<typeof OrderItemSchema> {
	const price = item.priced;
	return {
		id: item.id,
		print_file_id: item.print_file_id,
		print_file_url: item.print_file_url,
		width_in: item.width_in,
		height_in: item.height_in,
		...specOf(item),
		quantity: item.quantity,
		effective_dpi: shownDpi(item),
		image_cropped_percent: item.cropped_percent,
		warnings: item.warnings,
		dimensions: price?.dimensions ?? null,
		united_inches: price?.united_inches ?? null,
		unit_price: price?.unit_price ?? null,
		line_total: price?.line_total ?? null,
		declared_value: item.declared_value,
		customs: itemCustoms(item, costs),
	};
}

/** The API shape of a stored order. */
export function toOrder({ order, items, shipments }: StoredOrder): Order {
	const state = stateOf(order);
	return {
		id: order.id,
		external_id: order.external_id,
		status: order.status,
		version: order.version,
		mode: order.mode,
		ship_to: order.ship_to,
		ship_to_warnings: order.ship_to_warnings,
		callback_url: order.callback_url,
		gift_message: order.gift_message,
		shipping_method: order.shipping_method,
		costs: shownCosts(order.costs),
		duty_terms: order.duty_terms,
		items: items.map((item) => toItem(item, order.costs)),
		tracking: state.tracking,
		shipments: shipments.map(toShipment),
		fulfillment: fulfillmentOf(items, shipments),
		hold_reason: state.holdReason,
		hold_details: state.holdDetails,
		created_at: order.created_at,
		updated_at: order.updated_at,
		shipped_at: order.shipped_at,
		delivered_at: order.delivered_at,
		canceled_at: order.canceled_at,
		metadata: order.metadata,
		editable_until: order.editable_until,
		production_started_at: order.started_at,
		reprint_of: order.reprint_of,
		claim_id: order.claim_id,
		reprints: order.reprints,
	};
}

/** A page of orders as listed: the orders and the cursor of the next page, if there is one. */
export const OrderPageSchema = z
	.object({ data: z.array(OrderSchema), next_cursor: z.string().nullable().openapi({ example: CURSOR_EXAMPLE }) })
	.openapi("OrderPage");

/** The API shape of a page of orders. */
export function toOrderPage({ page, more }: { page: StoredOrder[]; more: boolean }): z.infer<typeof OrderPageSchema> {
	const last = page.at(-1);
	return {
		data: page.map(toOrder),
		next_cursor:
			more && last !== undefined ? encodeCursor({ createdAt: last.order.created_at, id: last.order.id }) : null,
	};
}
