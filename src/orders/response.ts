import { z } from "@hono/zod-openapi";
import type { ShipTo } from "../addresses/schema.ts";
import { encodeCursor } from "../http/cursor.ts";
import { type ItemRow, type OrderRow, type StoredOrder, stateOf } from "./rows.ts";
import { HOLD_REASONS, ORDER_STATUSES } from "./state-machine.ts";

/** The `{id}` path parameter of order routes. */
export const OrderIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "ord_3kq9" }),
});

export const TrackingSchema = z
	.object({ carrier: z.string(), number: z.string(), url: z.string() })
	.openapi("Tracking");

export const HoldDetailSchema = z
	.object({ item_id: z.string().nullable(), field: z.string(), message: z.string() })
	.openapi("HoldDetail");

export const OrderItemSchema = z
	.object({
		id: z.string(),
		print_file_id: z.string().nullable(),
		print_file_url: z.string().nullable(),
		width_in: z.number(),
		height_in: z.number(),
		frame: z.string().nullable(),
		mat: z.string().nullable(),
		quantity: z.number().int(),
		effective_dpi: z
			.number()
			.nullable()
			.openapi({ description: "min(long px / long in, short px / short in), once the file is known." }),
		warnings: z.array(z.string()).openapi({ description: "e.g. low_resolution: 150 to 299 DPI." }),
	})
	.openapi("OrderItem");

export const OrderSchema = z
	.object({
		id: z.string(),
		external_id: z.string(),
		status: z.enum(ORDER_STATUSES),
		mode: z.enum(["live", "test"]),
		ship_to: z.record(z.string(), z.string()),
		callback_url: z.string().nullable(),
		gift_message: z.string().nullable().openapi({ description: "Extension of spec 2.1: printed on the packing slip." }),
		items: z.array(OrderItemSchema),
		tracking: TrackingSchema.nullable(),
		hold_reason: z.enum(HOLD_REASONS).nullable(),
		hold_details: z.array(HoldDetailSchema),
		created_at: z.string(),
		updated_at: z.string(),
		shipped_at: z.string().nullable(),
		delivered_at: z.string().nullable(),
		canceled_at: z.string().nullable(),
	})
	.openapi("Order");

export type Order = z.infer<typeof OrderSchema>;

function toItem(item: ItemRow): z.infer<typeof OrderItemSchema> {
	return {
		id: item.id,
		print_file_id: item.print_file_id,
		print_file_url: item.print_file_url,
		width_in: item.width_in,
		height_in: item.height_in,
		frame: item.frame,
		mat: item.mat,
		quantity: item.quantity,
		effective_dpi: item.effective_dpi === null ? null : Math.round(item.effective_dpi * 10) / 10,
		warnings: JSON.parse(item.warnings) as string[],
	};
}

/** The API shape of a stored order (spec 2.3 plus the contract's fields). */
export function toOrder({ order, items }: StoredOrder): Order {
	const state = stateOf(order as OrderRow);
	return {
		id: order.id,
		external_id: order.external_id,
		status: order.status,
		mode: order.mode,
		ship_to: JSON.parse(order.ship_to) as ShipTo,
		callback_url: order.callback_url,
		gift_message: order.gift_message,
		items: items.map(toItem),
		tracking: state.tracking,
		hold_reason: state.holdReason,
		hold_details: state.holdDetails,
		created_at: order.created_at,
		updated_at: order.updated_at,
		shipped_at: order.shipped_at,
		delivered_at: order.delivered_at,
		canceled_at: order.canceled_at,
	};
}

/** A page of orders as listed: the orders and the cursor of the next page, if there is one. */
export const OrderPageSchema = z
	.object({ data: z.array(OrderSchema), next_cursor: z.string().nullable() })
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
