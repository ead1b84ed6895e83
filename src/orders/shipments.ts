/**
 * An order's shipments as pure data: which units remain to ship, what a new shipment carries, and what
 * a shipment's move does to the order's status. The order's Durable Object applies what these decide;
 * nothing else decides which units a shipment carries.
 */
import { type Refusal, refusal } from "../problem.ts";
import { SHIPMENT_STATUSES } from "./events.ts";
import type { Tracking } from "./state-machine.ts";

export { SHIPMENT_STATUSES };
export type ShipmentStatus = (typeof SHIPMENT_STATUSES)[number];

/** Units of one item in a shipment. */
export type ShipmentItem = { item_id: string; quantity: number };

/** One package of a shipment, as the product model boxes it. */
export type ShipmentPackage = { length_in: number; width_in: number; depth_in: number; billable_weight_lb: number };

/** A shipments row, its JSON columns parsed. */
export type ShipmentRow = {
	id: string;
	order_id: string;
	/** 1 for the order's first shipment, then 2, 3…: the order they were made in. */
	position: number;
	items: ShipmentItem[];
	tracking: Tracking;
	packages: ShipmentPackage[];
	status: ShipmentStatus;
	shipped_at: string;
	delivered_at: string | null;
	returned_at: string | null;
};

/** How many units of each item are still to ship: the item's quantity less what shipments carry. */
export function unitsRemaining(
	items: ReadonlyArray<{ id: string; quantity: number }>,
	shipments: ReadonlyArray<ShipmentRow>,
): Map<string, number> {
	const remaining = new Map(items.map((item) => [item.id, item.quantity]));
	for (const shipment of shipments) {
		for (const unit of shipment.items) {
			remaining.set(unit.item_id, (remaining.get(unit.item_id) ?? 0) - unit.quantity);
		}
	}
	return remaining;
}

/** The order's unit counts: all of them, those shipped (whatever became of them since) and those delivered. */
export function fulfillmentOf(
	items: ReadonlyArray<{ quantity: number }>,
	shipments: ReadonlyArray<ShipmentRow>,
): { units: number; shipped_units: number; delivered_units: number } {
	const count = (rows: ReadonlyArray<ShipmentRow>) =>
		rows.reduce((sum, shipment) => sum + shipment.items.reduce((units, unit) => units + unit.quantity, 0), 0);
	return {
		units: items.reduce((sum, item) => sum + item.quantity, 0),
		shipped_units: count(shipments),
		delivered_units: count(shipments.filter((shipment) => shipment.status === "delivered")),
	};
}

/**
 * The units a new shipment carries: those named (each no more than remain of its item), or every unit
 * still to ship when `requested` is undefined. A problem names the entry at fault (`items[i].…`).
 */
export function unitsToShip(
	items: ReadonlyArray<{ id: string; quantity: number }>,
	shipments: ReadonlyArray<ShipmentRow>,
	requested: ReadonlyArray<ShipmentItem> | undefined,
): { ok: true; units: ShipmentItem[]; completes: boolean } | Refusal {
	const remaining = unitsRemaining(items, shipments);
	if (requested === undefined) {
		const units = items.flatMap((item) => {
			const quantity = remaining.get(item.id) ?? 0;
			return quantity > 0 ? [{ item_id: item.id, quantity }] : [];
		});
		if (units.length === 0)
			return refusal("units_already_shipped", "items", "every unit of this order has shipped already");
		return { ok: true, units, completes: true };
	}
	const taken = new Map<string, number>();
	for (const [index, unit] of requested.entries()) {
		const left = remaining.get(unit.item_id);
		if (left === undefined) {
			return refusal("invalid_field", `items[${index}].item_id`, `${unit.item_id} is not an item of this order`);
		}
		const already = taken.get(unit.item_id) ?? 0;
		if (already + unit.quantity > left) {
			const word = left - already === 1 ? "unit" : "units";
			return refusal(
				"units_already_shipped",
				`items[${index}].quantity`,
				`${unit.item_id} has ${Math.max(0, left - already)} ${word} left to ship; ${unit.quantity} asked`,
			);
		}
		taken.set(unit.item_id, already + unit.quantity);
	}
	const units = items.flatMap((item) => {
		const quantity = taken.get(item.id) ?? 0;
		return quantity > 0 ? [{ item_id: item.id, quantity }] : [];
	});
	const completes = items.every((item) => (remaining.get(item.id) ?? 0) === (taken.get(item.id) ?? 0));
	return { ok: true, units, completes };
}

/** Whether two labels are the same: carrier and number alike, ignoring case and spaces (a label scanned again). */
export function sameLabel(a: Tracking, b: Tracking): boolean {
	const key = (value: string) => value.replace(/\s+/g, "").toLowerCase();
	return key(a.carrier) === key(b.carrier) && key(a.number) === key(b.number);
}

/** Units by item, merged and in the order's item order, so two lists of the same units compare equal. */
function unitKey(units: ReadonlyArray<ShipmentItem>): string {
	const merged = new Map<string, number>();
	for (const unit of units) merged.set(unit.item_id, (merged.get(unit.item_id) ?? 0) + unit.quantity);
	return JSON.stringify([...merged.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

/**
 * A new shipment's label against the order's shipments: `null` when no shipment has it; `repeat` when
 * one has and the request names the same units (or names none and none remain), so the floor's second
 * scan of a label ships nothing more; `reused` when the label would carry other units.
 */
export function labelOnOrder(
	items: ReadonlyArray<{ id: string; quantity: number }>,
	shipments: ReadonlyArray<ShipmentRow>,
	tracking: Tracking,
	requested: ReadonlyArray<ShipmentItem> | undefined,
): { kind: "repeat"; shipment: ShipmentRow } | { kind: "reused"; message: string } | null {
	const existing = shipments.find((shipment) => sameLabel(shipment.tracking, tracking));
	if (existing === undefined) return null;
	const noneLeft = [...unitsRemaining(items, shipments).values()].every((left) => left <= 0);
	const same = requested === undefined ? noneLeft : unitKey(requested) === unitKey(existing.items);
	if (same) return { kind: "repeat", shipment: existing };
	const carried = existing.items.map((unit) => `${unit.quantity} × ${unit.item_id}`).join(", ");
	return {
		kind: "reused",
		message: `Label ${tracking.carrier} ${tracking.number} is shipment ${existing.id} of this order, which carries ${carried}; a label ships its units once: use a new label for other units.`,
	};
}

/** Whether delivering `shipmentId` leaves none of the order's other shipments in transit and every unit shipped. */
export function deliveryCompletes(
	items: ReadonlyArray<{ id: string; quantity: number }>,
	shipments: ReadonlyArray<ShipmentRow>,
	shipmentId: string,
): boolean {
	const allShipped = [...unitsRemaining(items, shipments).values()].every((left) => left <= 0);
	return allShipped && shipments.every((shipment) => shipment.id === shipmentId || shipment.status === "delivered");
}

/**
 * The sandbox's boxes as separate shipments: each framed unit alone, the unframed prints together, so
 * a test order shows the case of many labels that live orders meet.
 */
export function oneShipmentPerBox(
	items: ReadonlyArray<{ id: string; frame: string | null }>,
	units: ReadonlyArray<ShipmentItem>,
): ShipmentItem[][] {
	const framed = new Set(items.filter((item) => item.frame !== null).map((item) => item.id));
	const groups: ShipmentItem[][] = [];
	const prints: ShipmentItem[] = [];
	for (const unit of units) {
		if (!framed.has(unit.item_id)) {
			prints.push(unit);
			continue;
		}
		for (let count = 0; count < unit.quantity; count++) groups.push([{ item_id: unit.item_id, quantity: 1 }]);
	}
	return prints.length > 0 ? [...groups, prints] : groups;
}

/** A shipment as the order's `shipments` and the shipment events show it. */
export function shipmentView(shipment: ShipmentRow) {
	return {
		id: shipment.id,
		order_id: shipment.order_id,
		items: shipment.items,
		carrier: shipment.tracking.carrier,
		tracking: shipment.tracking,
		packages: shipment.packages,
		status: shipment.status,
		shipped_at: shipment.shipped_at,
		delivered_at: shipment.delivered_at,
		returned_at: shipment.returned_at,
	};
}
