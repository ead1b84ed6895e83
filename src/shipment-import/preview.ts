/**
 * The bulk shipments import's dry run: what each row of a file would do if it were imported now,
 * changing nothing (import-rows.ts makes the moves).
 */

import { floorRefusal } from "../orders/edit-window.ts";
import type { ShippingFacts } from "../orders/queue-store.ts";
import type { OrderUnits } from "../orders/shipment-store.ts";
import { labelOnOrder, type ShipmentItem } from "../orders/shipments.ts";
import { applyMove, initialState, sameTracking, type Tracking } from "../orders/state-machine.ts";
import type { ImportRow } from "./csv-file.ts";
import { afterShipping, allRemaining, readRows, resultOf, unitsOfRows } from "./import-rows.ts";
import { inFileShipment, judgeUnits, type UnitsVerdict } from "./partial-rows.ts";

/** What a row would do if the file were imported now: ship its order with this tracking, nothing, or nothing and why. */
export type PreviewRow = {
	line: number;
	order_id: string | null;
	external_id: string | null;
	action: "ship" | "already_shipped" | "refused";
	tracking: Tracking | null;
	/** The units the row would ship (every unit that remains, without `item_ids`); null when it ships none. */
	units: ShipmentItem[] | null;
	message: string;
};

/** The dry run of a file: each row's action, and how many would ship, are done already, or are refused. */
export type ImportPreview = { rows: PreviewRow[]; ship: number; already_shipped: number; refused: number };

/**
 * The dry run: what each row would do if the file were imported now, changing nothing. Rows run in
 * file order against the orders as the earlier rows would leave them, so a second row for an order
 * the file already ships is told apart, as the import does.
 */
export async function previewShipments(env: Env, rows: readonly ImportRow[]): Promise<ImportPreview> {
	const read = await readRows(env, rows);
	const unitsByOrder = await unitsOfRows(env, read);
	const shippedInFile = new Map<string, { line: number; tracking: Tracking }>();
	const preview = read.map((entry): PreviewRow => {
		const base = resultOf(entry, "refused", "");
		const row = { line: base.line, order_id: base.order_id, external_id: base.external_id };
		if (!entry.ok) return { ...row, action: "refused", tracking: null, units: null, message: entry.message };
		const { order, tracking } = entry;
		const units = unitsByOrder.get(order.id);
		if (entry.entries !== null) {
			const whole = shippedInFile.get(order.id);
			if (whole !== undefined || units === undefined) {
				const message = `Line ${whole?.line ?? "?"} ships every unit of this order.`;
				return { ...row, action: "refused", tracking, units: null, message };
			}
			const inWindow = floorRefusal(order, new Date());
			if (inWindow !== null) return { ...row, action: "refused", tracking, units: null, message: inWindow };
			const verdict = judgeUnits(units, entry.entries, tracking, order.status);
			if (verdict.kind === "ship") {
				units.shipments.push(inFileShipment(order.id, row.line, tracking, verdict.units));
				if (verdict.completes) order.status = "shipped";
			}
			return { ...row, ...previewOfVerdict(verdict), tracking };
		}
		const earlier = shippedInFile.get(order.id);
		if (earlier !== undefined) {
			return sameTracking(earlier.tracking, tracking)
				? {
						...row,
						action: "already_shipped",
						tracking,
						units: null,
						message: `Line ${earlier.line} ships it with this tracking.`,
					}
				: {
						...row,
						action: "refused",
						tracking,
						units: null,
						message: `Line ${earlier.line} ships this order with ${earlier.tracking.carrier} ${earlier.tracking.number}; this row's tracking differs.`,
					};
		}
		const refusal = shipRefusal(order, tracking, units);
		if (refusal !== null) return { ...row, action: refusal.outcome, tracking, units: null, message: refusal.message };
		shippedInFile.set(order.id, { line: row.line, tracking });
		return {
			...row,
			action: "ship",
			tracking,
			units: allRemaining(units),
			message: `Ship with ${tracking.carrier} ${tracking.number}.`,
		};
	});
	return {
		rows: preview,
		ship: preview.filter((row) => row.action === "ship").length,
		already_shipped: preview.filter((row) => row.action === "already_shipped").length,
		refused: preview.filter((row) => row.action === "refused").length,
	};
}

/** A partial row's preview: the units it would ship, or nothing and why. */
function previewOfVerdict(verdict: UnitsVerdict): Pick<PreviewRow, "action" | "units" | "message"> {
	switch (verdict.kind) {
		case "ship":
			return { action: "ship", units: verdict.units, message: verdict.message };
		case "repeat":
			return { action: "already_shipped", units: null, message: verdict.message };
		case "refused":
			return { action: "refused", units: null, message: verdict.message };
	}
}

/**
 * Why a ship of `order` with `tracking` would not be made, judged from what was read of the order:
 * already shipped (with this tracking or another), or a status the ship move is not made from.
 */
function shipRefusal(
	order: ShippingFacts,
	tracking: Tracking,
	units: OrderUnits | undefined,
): { outcome: "already_shipped" | "refused"; message: string } | null {
	if (order.status === "shipped" || order.status === "delivered") return afterShipping(order, tracking, units);
	const inWindow = floorRefusal(order, new Date());
	if (inWindow !== null) return { outcome: "refused", message: inWindow };
	// A label one of its shipments carries (or an earlier row of the file) ships no other units.
	const seen = units === undefined ? null : labelOnOrder(units.items, units.shipments, tracking, undefined);
	if (seen?.kind === "reused" && order.status === "in_production") return { outcome: "refused", message: seen.message };
	// Only the status decides whether a ship may be made: the rest of the state is left as a new order's.
	const state = { ...initialState(), status: order.status };
	const move = applyMove(state, { kind: "ship", tracking }, "operator", new Date());
	return move.ok ? null : { outcome: "refused", message: move.message };
}
