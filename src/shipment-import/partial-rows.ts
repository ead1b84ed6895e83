/**
 * What an import row with `item_ids` would ship, judged on the order's units as read and the file's
 * earlier rows: the same rules as `POST /v1/ops/orders/{id}/shipments` (a unit ships once, a label
 * ships its units once), said in the words of the file's columns. Pure.
 */
import type { OrderUnits } from "../orders/shipment-store.ts";
import {
	labelOnOrder,
	type ShipmentItem,
	type ShipmentRow,
	sameLabel,
	unitsRemaining,
	unitsToShip,
} from "../orders/shipments.ts";
import type { Tracking } from "../orders/state-machine.ts";
import type { ItemEntry } from "./csv-file.ts";

/** What a row would do: ship these units (and whether they are the order's last), nothing again, or nothing and why. */
export type UnitsVerdict =
	| { kind: "ship"; units: ShipmentItem[]; completes: boolean; message: string }
	| { kind: "repeat"; message: string }
	| { kind: "refused"; message: string };

/** The prefix of the id a shipment planned by an earlier row of the same file goes by until it is made. */
const IN_FILE = "line ";

/** A shipment an earlier row of the file plans, so later rows count its units and its label. */
export function inFileShipment(orderId: string, line: number, tracking: Tracking, units: ShipmentItem[]): ShipmentRow {
	return {
		id: `${IN_FILE}${line}`,
		order_id: orderId,
		position: 0,
		items: units,
		tracking,
		packages: [],
		status: "in_transit",
		shipped_at: "",
		delivered_at: null,
		returned_at: null,
	};
}

/** `2 × item 1 (itm_…)`, for each unit of a shipment. */
function unitsInWords(units: readonly ShipmentItem[], items: OrderUnits["items"]): string {
	return units
		.map((unit) => {
			// Positions count from 0; the floor counts items from 1, as the work tickets do.
			const position = items.find((item) => item.id === unit.item_id)?.position;
			return `${unit.quantity} × item ${position === undefined ? "?" : position + 1} (${unit.item_id})`;
		})
		.join(", ");
}

/**
 * A row's verdict. `entries` null ships every unit that remains; an entry without a count every unit
 * of its item that remains. `tracking` null judges the units alone (what a row without a label would take).
 */
export function judgeUnits(
	units: OrderUnits,
	entries: readonly ItemEntry[] | null,
	tracking: Tracking | null,
	status: string,
): UnitsVerdict {
	const { items, shipments } = units;
	const existing = tracking === null ? undefined : shipments.find((shipment) => sameLabel(shipment.tracking, tracking));
	if (tracking !== null && existing !== undefined) {
		// An entry without a count stands for what the label's shipment carries of that item.
		const carried = (itemId: string) => existing.items.find((unit) => unit.item_id === itemId)?.quantity ?? 0;
		const requested = entries?.map((entry) => ({
			item_id: entry.item_id,
			quantity: entry.quantity ?? carried(entry.item_id),
		}));
		const seen = labelOnOrder(items, shipments, tracking, requested);
		if (seen?.kind === "repeat") {
			const where = existing.id.startsWith(IN_FILE) ? `on ${existing.id}` : `as ${existing.id}`;
			return {
				kind: "repeat",
				message: `Already shipped with ${tracking.carrier} ${tracking.number} ${where}: nothing changed.`,
			};
		}
		if (seen?.kind === "reused") return { kind: "refused", message: seen.message };
	}
	if (status !== "in_production")
		return { kind: "refused", message: `Cannot ship units of an order that is ${status}.` };
	const left = unitsRemaining(items, shipments);
	const requested: ShipmentItem[] = [];
	for (const entry of entries ?? []) {
		const remaining = left.get(entry.item_id);
		if (remaining === undefined)
			return { kind: "refused", message: `item_ids: ${entry.item_id} is not an item of this order.` };
		if (entry.quantity === null && remaining <= 0) {
			return { kind: "refused", message: `item_ids: ${entry.item_id} has no units left to ship.` };
		}
		requested.push({ item_id: entry.item_id, quantity: entry.quantity ?? remaining });
	}
	const judged = unitsToShip(items, shipments, entries === null ? undefined : requested);
	if (!judged.ok) return { kind: "refused", message: `item_ids: ${judged.message}.` };
	const label = tracking === null ? "" : ` with ${tracking.carrier} ${tracking.number}`;
	return {
		kind: "ship",
		units: judged.units,
		completes: judged.completes,
		message: `Ship ${unitsInWords(judged.units, items)}${label}.`,
	};
}
