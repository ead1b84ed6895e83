/**
 * The `claim` entry of `GET /v1/orders/{id}/actions`: whether some shipped unit may be claimed now,
 * for some reason, by the same rules a claim is refused by (rules.ts: its time, and the units standing
 * claims hold in each kind of box), until when, or why not.
 */
import type { Availability } from "../orders/order-actions.ts";
import type { ShipmentRow } from "../orders/shipments.ts";
import { type ClaimReason, claimsCloseAt, itemClaimable, type StandingUnits, shipmentClaimable } from "./rules.ts";

/** One reason for each time rule: a lost shipment, and everything that arrived. */
const LOST: ClaimReason = "lost_in_transit";
const ARRIVED: ClaimReason = "damaged_in_transit";

/** The shipments that carry a unit of some item a claim for `reason` may name now (rules.ts). */
function shipmentsClaimableFor(
	shipments: ReadonlyArray<ShipmentRow>,
	standing: StandingUnits,
	reason: ClaimReason,
	now: Date,
): ShipmentRow[] {
	const itemIds = new Set(shipments.flatMap((shipment) => shipment.items.map((item) => item.item_id)));
	const open = [...itemIds].filter((itemId) => itemClaimable(shipments, standing, itemId, reason, now).left > 0);
	return shipments.filter(
		(shipment) =>
			shipmentClaimable(shipment, reason, now) === true && shipment.items.some((item) => open.includes(item.item_id)),
	);
}

/** Whether some shipped unit is held by no standing claim. */
function someUnitUnclaimed(shipments: ReadonlyArray<ShipmentRow>, standing: StandingUnits): boolean {
	const shipped = new Map<string, number>();
	for (const shipment of shipments) {
		for (const item of shipment.items) shipped.set(item.item_id, (shipped.get(item.item_id) ?? 0) + item.quantity);
	}
	return [...shipped].some(
		([itemId, units]) => units > (standing.lost.get(itemId) ?? 0) + (standing.arrived.get(itemId) ?? 0),
	);
}

/**
 * Open when a shipment with unclaimed units may be claimed now for some reason. `until` is when the
 * last such shipment's 30 days after delivery end, or null while a shipment may be claimed as lost
 * (that window has no end while it is undelivered).
 */
export function claimAction(shipments: ReadonlyArray<ShipmentRow>, standing: StandingUnits, now: Date): Availability {
	if (shipments.length === 0) {
		return { available: false, until: null, reason: "Nothing has shipped yet: units are claimed once they ship." };
	}
	if (!someUnitUnclaimed(shipments, standing)) {
		return { available: false, until: null, reason: "Every shipped unit is in a claim already." };
	}
	const lost = shipmentsClaimableFor(shipments, standing, LOST, now);
	const arrived = shipmentsClaimableFor(shipments, standing, ARRIVED, now);
	if (lost.length > 0) return { available: true, until: null, reason: null };
	if (arrived.length > 0) {
		const closes = Math.max(...arrived.map((shipment) => claimsCloseAt(shipment.delivered_at ?? "")));
		return { available: true, until: new Date(closes).toISOString(), reason: null };
	}
	const newest = shipments[shipments.length - 1];
	const why = (
		newest === undefined ? [] : [shipmentClaimable(newest, ARRIVED, now), shipmentClaimable(newest, LOST, now)]
	).filter((verdict) => verdict !== true);
	return {
		available: false,
		until: null,
		reason:
			why.length === 0
				? "Every unit that may be claimed now is in a claim already."
				: `No unit may be claimed now: ${why.join("; ")}.`,
	};
}
