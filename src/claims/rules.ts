/**
 * When units may be claimed and how many, as pure functions over an order's items, shipments and
 * claims: the routes apply what these decide, and the store's guarded insert holds the count again
 * at commit.
 */
import type { ShipmentRow } from "../orders/shipments.ts";
import { type Refusal, refusal } from "../problem.ts";

/** Why a partner claims units. */
export const CLAIM_REASONS = [
	"damaged_in_transit",
	"lost_in_transit",
	"print_defect",
	"frame_defect",
	"wrong_item",
] as const;
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

/** The time rule a reason follows: a loss is of units not delivered, every other reason of units delivered. */
type TimeRule = "lost" | "arrived";

function timeRuleOf(reason: ClaimReason): TimeRule {
	return reason === "lost_in_transit" ? "lost" : "arrived";
}

/** Units of each item held by open or approved claims, apart by the time rule their reasons follow. */
export type StandingUnits = { lost: ReadonlyMap<string, number>; arrived: ReadonlyMap<string, number> };

/** Every standing unit of `itemId`, whatever its reason. */
function standingOf(standing: StandingUnits, itemId: string): number {
	return (standing.lost.get(itemId) ?? 0) + (standing.arrived.get(itemId) ?? 0);
}

/** What one item's shipments hold for a reason now: units it may be claimed for, those left unclaimed, and why not. */
type ItemClaimable = { eligible: number; left: number; why: string };

/**
 * The units of `itemId` a claim for `reason` may name at `now`. A unit is claimed once, in one box: a
 * loss only of units not delivered, any other reason only of units delivered, so the standing claims
 * of each kind hold units of that kind of box (a loss whose box was delivered since holds a delivered
 * unit). Which box a standing claim holds is not recorded; it is taken to hold the boxes a new claim
 * cannot name first (past their time), so a new claim is refused only when no reading of the standing
 * claims leaves it a unit.
 */
export function itemClaimable(
	shipments: ReadonlyArray<ShipmentRow>,
	standing: StandingUnits,
	itemId: string,
	reason: ClaimReason,
	now: Date,
): ItemClaimable {
	const rule = timeRuleOf(reason);
	let eligible = 0;
	let ofRule = 0;
	let ofOther = 0;
	let why = "";
	for (const shipment of shipments) {
		const units = shipment.items.find((item) => item.item_id === itemId)?.quantity ?? 0;
		if (units === 0) continue;
		const delivered = shipment.status === "delivered";
		if ((rule === "arrived") === delivered) ofRule += units;
		else ofOther += units;
		const verdict = shipmentClaimable(shipment, reason, now);
		if (verdict === true) eligible += units;
		else if (why === "") why = verdict;
	}
	const heldOfRule = (rule === "lost" ? standing.lost : standing.arrived).get(itemId) ?? 0;
	const heldOfOther = (rule === "lost" ? standing.arrived : standing.lost).get(itemId) ?? 0;
	// The other kind's claims beyond that kind's units hold units of this kind.
	const spilled = Math.max(0, heldOfOther - ofOther);
	const heldEligible = Math.max(0, heldOfRule + spilled - (ofRule - eligible));
	return { eligible, left: Math.max(0, eligible - heldEligible), why };
}

/**
 * The time rules: every claimed unit must be in a shipment that may be claimed against for this
 * reason now (else a 409, `claim_not_allowed`, saying why for the first entry at fault), and not held
 * by a standing claim (else a 422, `claim_units_exceeded`). When it passes, the most units of each
 * item that open or approved claims may hold once this one is in: the guard of the claim's write.
 */
export function claimWindow(
	shipments: ReadonlyArray<ShipmentRow>,
	standing: StandingUnits,
	reason: ClaimReason,
	claimed: ReadonlyArray<ClaimedUnits>,
	now: Date,
): { ok: true; caps: Map<string, number> } | Refusal {
	const caps = new Map<string, number>();
	for (const [index, unit] of claimed.entries()) {
		if (!shipments.some((shipment) => shipment.items.some((item) => item.item_id === unit.item_id))) {
			return refusal("claim_not_allowed", `items[${index}].item_id`, `${unit.item_id} has not shipped yet`);
		}
		const { eligible, left, why } = itemClaimable(shipments, standing, unit.item_id, reason, now);
		if (eligible < unit.quantity) {
			return refusal(
				"claim_not_allowed",
				`items[${index}].quantity`,
				`${unit.item_id}: ${eligible} of its shipped units may be claimed as ${reason} now; ${why}`,
			);
		}
		if (left < unit.quantity) return unitsRefusal(index, unit, left, reason);
		caps.set(unit.item_id, standingOf(standing, unit.item_id) + left);
	}
	return { ok: true, caps };
}

/**
 * Every rule a new claim must pass, the count rule first, then the time rules; when it passes, the
 * caps its write is guarded by (claimWindow).
 */
export function judgeClaim(
	order: { items: ReadonlyArray<{ id: string }>; shipments: ReadonlyArray<ShipmentRow> },
	standing: StandingUnits,
	reason: ClaimReason,
	claimed: ReadonlyArray<ClaimedUnits>,
	now: Date,
): { ok: true; caps: Map<string, number> } | Refusal {
	const units = claimableUnits(order.items, order.shipments, standing, claimed);
	if (!units.ok) return units;
	return claimWindow(order.shipments, standing, reason, claimed, now);
}

/**
 * The count rule: at most the shipped units of each item, less those in open or approved claims. A
 * refusal (422) names `items[i].quantity`; an item not of the order or named twice names the entry too.
 * An item with no unit shipped passes here: the time rule refuses it with a 409.
 */
export function claimableUnits(
	items: ReadonlyArray<{ id: string }>,
	shipments: ReadonlyArray<ShipmentRow>,
	standing: StandingUnits,
	claimed: ReadonlyArray<ClaimedUnits>,
): { ok: true } | Refusal {
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
		const left = shippedOfItem - standingOf(standing, unit.item_id);
		if (unit.quantity > left) return unitsRefusal(index, unit, Math.max(0, left));
	}
	return { ok: true };
}

/** The refusal of an entry claiming more units than are left to claim (for `reason`, when only its kind of box is short). */
function unitsRefusal(index: number, unit: ClaimedUnits, left: number, reason?: ClaimReason): Refusal {
	const kind = reason === undefined ? "shipped" : reason === "lost_in_transit" ? "undelivered" : "delivered";
	return refusal(
		"claim_units_exceeded",
		`items[${index}].quantity`,
		`${unit.item_id} has ${left} ${kind} ${left === 1 ? "unit" : "units"} not already in an open or approved claim; ${unit.quantity} claimed`,
	);
}

/** The units of each item the shipments carry, whatever became of them since. */
function shippedUnits(shipments: ReadonlyArray<ShipmentRow>): Map<string, number> {
	const shipped = new Map<string, number>();
	for (const shipment of shipments) {
		for (const unit of shipment.items) shipped.set(unit.item_id, (shipped.get(unit.item_id) ?? 0) + unit.quantity);
	}
	return shipped;
}
