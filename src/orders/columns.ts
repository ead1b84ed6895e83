/**
 * The orders' rows as D1 holds them: one mapper per table each way (a typed row to its named column
 * values, a row as read to the typed row), and the one place their JSON columns are parsed and written.
 * Only the orders' stores use this: everything else sees the typed rows of rows.ts.
 */
import { type ColumnValues, pickColumns } from "../http/sql-rows.ts";
import type { ItemRow, OrderRow } from "./rows.ts";

/** An orders row as read: ship_to, ship_to_warnings, hold_details, costs, metadata and reprints as JSON text. */
export type OrderColumns = Omit<
	OrderRow,
	"ship_to" | "ship_to_warnings" | "hold_details" | "costs" | "metadata" | "reprints"
> & {
	ship_to: string;
	ship_to_warnings: string;
	hold_details: string;
	costs: string | null;
	metadata: string;
	reprints: string;
};

/** An order_items row as read: warnings, priced and declared_value as JSON text. */
export type ItemColumns = Omit<ItemRow, "warnings" | "priced" | "declared_value"> & {
	warnings: string;
	priced: string | null;
	declared_value: string | null;
};

/** The order a row holds, its JSON columns parsed (the service wrote them, so they are trusted). */
export function orderOfColumns(row: OrderColumns): OrderRow {
	return {
		...row,
		ship_to: JSON.parse(row.ship_to) as OrderRow["ship_to"],
		ship_to_warnings: JSON.parse(row.ship_to_warnings) as OrderRow["ship_to_warnings"],
		hold_details: JSON.parse(row.hold_details) as OrderRow["hold_details"],
		costs: row.costs === null ? null : (JSON.parse(row.costs) as OrderRow["costs"]),
		metadata: JSON.parse(row.metadata) as OrderRow["metadata"],
		reprints: JSON.parse(row.reprints) as OrderRow["reprints"],
	};
}

/** The item a row holds, its JSON columns parsed. */
export function itemOfColumns(row: ItemColumns): ItemRow {
	return {
		...row,
		warnings: JSON.parse(row.warnings) as ItemRow["warnings"],
		priced: row.priced === null ? null : (JSON.parse(row.priced) as ItemRow["priced"]),
		declared_value: row.declared_value === null ? null : (JSON.parse(row.declared_value) as ItemRow["declared_value"]),
	};
}

/** A JSON column's text for a value (null stays SQL NULL). */
export function jsonColumn(value: object | null): string | null {
	return value === null ? null : JSON.stringify(value);
}

/** Every column of an orders row, with the value `order` is written with. */
export function orderColumnValues(order: OrderRow): ColumnValues<keyof OrderColumns> {
	return {
		id: order.id,
		account_id: order.account_id,
		mode: order.mode,
		external_id: order.external_id,
		request_hash: order.request_hash,
		status: order.status,
		version: order.version,
		write_token: order.write_token,
		ship_to: JSON.stringify(order.ship_to),
		ship_to_warnings: JSON.stringify(order.ship_to_warnings),
		callback_url: order.callback_url,
		gift_message: order.gift_message,
		hold_reason: order.hold_reason,
		hold_details: JSON.stringify(order.hold_details),
		tracking_carrier: order.tracking_carrier,
		tracking_number: order.tracking_number,
		tracking_url: order.tracking_url,
		created_at: order.created_at,
		updated_at: order.updated_at,
		shipped_at: order.shipped_at,
		delivered_at: order.delivered_at,
		canceled_at: order.canceled_at,
		shipping_method: order.shipping_method,
		quote_id: order.quote_id,
		costs: jsonColumn(order.costs),
		duty_terms: order.duty_terms,
		metadata: JSON.stringify(order.metadata),
		editable_until: order.editable_until,
		sandbox_progress: order.sandbox_progress,
		started_at: order.started_at,
		reprint_of: order.reprint_of,
		claim_id: order.claim_id,
		reprints: JSON.stringify(order.reprints),
	};
}

/**
 * The columns a move or a partner's change writes, each under the order's version. What is fixed at
 * creation stays out, and so does `reprints`, which a claim appends without a new version.
 */
const VERSIONED_COLUMNS = [
	"status",
	"version",
	"write_token",
	"ship_to",
	"ship_to_warnings",
	"hold_reason",
	"hold_details",
	"tracking_carrier",
	"tracking_number",
	"tracking_url",
	"updated_at",
	"shipped_at",
	"delivered_at",
	"canceled_at",
	"started_at",
	"shipping_method",
	"quote_id",
	"costs",
	"duty_terms",
	"metadata",
] as const satisfies ReadonlyArray<keyof OrderColumns>;

/** The values of the columns a new version of `order` writes (VERSIONED_COLUMNS). */
export function versionedColumnValues(order: OrderRow): ColumnValues<(typeof VERSIONED_COLUMNS)[number]> {
	return pickColumns(orderColumnValues(order), VERSIONED_COLUMNS);
}

/** Every column of an order_items row, with the value `item` is written with. */
export function itemColumnValues(item: ItemRow): ColumnValues<keyof ItemColumns> {
	return {
		id: item.id,
		order_id: item.order_id,
		position: item.position,
		print_file_id: item.print_file_id,
		print_file_url: item.print_file_url,
		width_in: item.width_in,
		height_in: item.height_in,
		frame: item.frame,
		mat: item.mat,
		mat_border_in: item.mat_border_in,
		mat_bottom_border_in: item.mat_bottom_border_in,
		inner_mat: item.inner_mat,
		inner_mat_reveal_in: item.inner_mat_reveal_in,
		glazing: item.glazing,
		paper: item.paper,
		fit: item.fit,
		quantity: item.quantity,
		effective_dpi: item.effective_dpi,
		cropped_percent: item.cropped_percent,
		warnings: JSON.stringify(item.warnings),
		priced: jsonColumn(item.priced),
		declared_value: jsonColumn(item.declared_value),
	};
}

/** The columns a change of an item writes: all but its identity and its place in the order. */
const CHANGEABLE_ITEM_COLUMNS = [
	"print_file_id",
	"print_file_url",
	"width_in",
	"height_in",
	"frame",
	"mat",
	"mat_border_in",
	"mat_bottom_border_in",
	"inner_mat",
	"inner_mat_reveal_in",
	"glazing",
	"paper",
	"fit",
	"quantity",
	"effective_dpi",
	"cropped_percent",
	"warnings",
	"priced",
	"declared_value",
] as const satisfies ReadonlyArray<keyof ItemColumns>;

/** The values of the columns a change of `item` writes (CHANGEABLE_ITEM_COLUMNS). */
export function changedItemColumnValues(item: ItemRow): ColumnValues<(typeof CHANGEABLE_ITEM_COLUMNS)[number]> {
	return pickColumns(itemColumnValues(item), CHANGEABLE_ITEM_COLUMNS);
}
