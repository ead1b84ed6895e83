/**
 * The orders' rows as D1 holds them, and the one place their JSON columns are parsed and written.
 * Only the orders' stores use this: everything else sees the typed rows of rows.ts.
 */
import type { ItemRow, OrderRow } from "./rows.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";

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

/** An order_items row as read: warnings and priced as JSON text. */
export type ItemColumns = Omit<ItemRow, "warnings" | "priced"> & { warnings: string; priced: string | null };

/** The order a row holds, its JSON columns parsed (the service wrote them, so they are trusted). */
export function orderOfColumns(row: OrderColumns): OrderRow {
	return {
		...row,
		ship_to: JSON.parse(row.ship_to) as OrderRow["ship_to"],
		ship_to_warnings: JSON.parse(row.ship_to_warnings) as OrderRow["ship_to_warnings"],
		hold_details: holdDetailsOf(row.hold_details, row.hold_reason),
		costs: row.costs === null ? null : (JSON.parse(row.costs) as OrderRow["costs"]),
		metadata: JSON.parse(row.metadata) as OrderRow["metadata"],
		reprints: JSON.parse(row.reprints) as OrderRow["reprints"],
	};
}

/** A hold's details as stored; entries written before details carried their own code take the order's hold reason. */
function holdDetailsOf(text: string, holdReason: HoldReason | null): HoldDetail[] {
	const stored = JSON.parse(text) as Array<Omit<HoldDetail, "code"> & { code?: HoldReason }>;
	return stored.map((detail) => ({ ...detail, code: detail.code ?? holdReason ?? "operator_hold" }));
}

/** The item a row holds, its JSON columns parsed. */
export function itemOfColumns(row: ItemColumns): ItemRow {
	return {
		...row,
		warnings: JSON.parse(row.warnings) as ItemRow["warnings"],
		priced: row.priced === null ? null : (JSON.parse(row.priced) as ItemRow["priced"]),
	};
}

/** A JSON column's text for a value (null stays SQL NULL). */
export function jsonColumn(value: object | null): string | null {
	return value === null ? null : JSON.stringify(value);
}

/** An item's specification, price and crop columns, in the order both item statements bind them. */
export function itemSpecColumns(item: ItemRow): (string | number | null)[] {
	return [
		item.mat_border_in,
		item.mat_bottom_border_in,
		item.inner_mat,
		item.inner_mat_reveal_in,
		item.glazing,
		item.paper,
		item.fit,
		jsonColumn(item.priced),
		item.cropped_percent,
	];
}
