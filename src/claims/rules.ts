/**
 * When units may be claimed and how many, as pure functions over an order's items, shipments and
 * claims: the routes apply what these decide, and the store's guarded insert holds the count again
 * at commit.
 */
import type { ShipmentRow } from "../orders/shipments.ts";
import { type Refusal, refusal } from "../problem.ts";
import { CLAIM_REASONS } from "../webhooks/events.ts";

export { CLAIM_REASONS };
/** One of CLAIM_REASONS. */
export type ClaimReason = (typeof CLAIM_REASONS)[number];

/** The reasons that need 1 to 10 photos of what arrived. */
export const REASONS_NEEDING_PHOTOS: ReadonlySet<ClaimReason> = new Set([
	"damaged_in_transit",
	"print_defect",
	"frame_defect",
]);

/** A lost shipment is claimed only once it has been on its way this long without being delivered. */
export const LOST_AFTER_DAYS = 5;
/** Every other reason is claimed within this many days of the shipment's delivery. */
export const CLAIM_WITHIN_DAYS = 30;

const DAY_MS = 24 * 60 * 60 * 1000;

/** When claims on a shipment delivered at `deliveredAt` close, for every reason but a loss (ms since the epoch). */
export function claimsCloseAt(deliveredAt: string): number {
	return Date.parse(deliveredAt) + CLAIM_WITHIN_DAYS * DAY_MS;
}

/** Units of one item a claim names. */
export type ClaimedUnits = { item_id: string; quantity: number };

/** Whether `shipment` may be claimed against for `reason` at `now`, or why not (a sentence's end). */
export function shipmentClaimable(shipment: ShipmentRow, reason: ClaimReason, now: Date): true | string {
	const at = now.getTime();
	if (reason === "lost_in_transit") {
		if (shipment.status === "delivered") return `shipment ${shipment.id} was delivered, so it is not lost`;
		if (shipment.status === "returned") return `shipment ${shipment.id} came back to the sender, so it is not lost`;
		const claimableAt = Date.parse(shipment.shipped_at) + LOST_AFTER_DAYS * DAY_MS;
		if (at < claimableAt) {
			return `shipment ${shipment.id} shipped ${shipment.shipped_at}; a shipment is lost only when undelivered ${LOST_AFTER_DAYS} days after it shipped (from ${new Date(claimableAt).toISOString()})`;
		}
		return true;
	}
	if (shipment.status !== "delivered" || shipment.delivered_at === null) {
		return `shipment ${shipment.id} is ${shipment.status === "returned" ? "returned" : "not delivered yet"}; this reason is claimed once it is delivered`;
	}
	const closesAt = claimsCloseAt(shipment.delivered_at);
	if (at > closesAt) {
		return `shipment ${shipment.id} was delivered ${shipment.delivered_at}; claims close ${CLAIM_WITHIN_DAYS} days after delivery (${new Date(closesAt).toISOString()})`;
	}
	return true;
}

/**
 * The time rules: every claimed unit must be in a shipment that may be claimed against for this
 * reason now. A refusal (409, `claim_not_allowed`) says why for the first entry at fault.
 */
export function claimWindow(
	shipments: ReadonlyArray<ShipmentRow>,
	reason: ClaimReason,
	claimed: ReadonlyArray<ClaimedUnits>,
	now: Date,
): { ok: true } | Refusal {
	for (const [index, unit] of claimed.entries()) {
		const carrying = shipments.filter((shipment) => shipment.items.some((item) => item.item_id === unit.item_id));
		if (carrying.length === 0) {
			return refusal("claim_not_allowed", `items[${index}].item_id`, `${unit.item_id} has not shipped yet`);
		}
		let claimable = 0;
		let why = "";
		for (const shipment of carrying) {
			const verdict = shipmentClaimable(shipment, reason, now);
			const units = shipment.items.find((item) => item.item_id === unit.item_id)?.quantity ?? 0;
			if (verdict === true) claimable += units;
			else if (why === "") why = verdict;
		}
		if (claimable < unit.quantity) {
			return refusal(
				"claim_not_allowed",
				`items[${index}].quantity`,
				`${unit.item_id}: ${claimable} of its shipped units may be claimed as ${reason} now; ${why}`,
			);
		}
	}
	return { ok: true };
}

/**
 * The count rule: at most the shipped units of each item, less those in open or approved claims. A
 * refusal (422) names `items[i].quantity`; an item not of the order or named twice names the entry too.
 * An item with no unit shipped passes here: the time rule refuses it with a 409.
 */
export function claimableUnits(
	items: ReadonlyArray<{ id: string }>,
	shipments: ReadonlyArray<ShipmentRow>,
	alreadyClaimed: ReadonlyMap<string, number>,
	claimed: ReadonlyArray<ClaimedUnits>,
): { ok: true; shipped: Map<string, number> } | Refusal {
	const shipped = shippedUnits(shipments);
	const itemIds = new Set(items.map((item) => item.id));
	const seen = new Set<string>();
	for (const [index, unit] of claimed.entries()) {
		if (!itemIds.has(unit.item_id)) {
			return refusal("invalid_field", `items[${index}].item_id`, `${unit.item_id} is not an item of this order`);
		}
		if (seen.has(unit.item_id)) {
			return refusal("invalid_field", `items[${index}].item_id`, `${unit.item_id} is named twice: name it once`);
		}
		seen.add(unit.item_id);
		const shippedOfItem = shipped.get(unit.item_id) ?? 0;
		// An item not shipped at all is the time rule's to refuse (409, "has not shipped yet").
		if (shippedOfItem === 0) continue;
		const left = shippedOfItem - (alreadyClaimed.get(unit.item_id) ?? 0);
		if (unit.quantity > left) return unitsRefusal(index, unit, Math.max(0, left));
	}
	return { ok: true, shipped };
}

/** The refusal of an entry claiming more units than are left to claim. */
export function unitsRefusal(index: number, unit: ClaimedUnits, left: number): Refusal {
	return refusal(
		"claim_units_exceeded",
		`items[${index}].quantity`,
		`${unit.item_id} has ${left} shipped ${left === 1 ? "unit" : "units"} not already in an open or approved claim; ${unit.quantity} claimed`,
	);
}

/** The units of each item the shipments carry, whatever became of them since. */
export function shippedUnits(shipments: ReadonlyArray<ShipmentRow>): Map<string, number> {
	const shipped = new Map<string, number>();
	for (const shipment of shipments) {
		for (const unit of shipment.items) shipped.set(unit.item_id, (shipped.get(unit.item_id) ?? 0) + unit.quantity);
	}
	return shipped;
}
