/**
 * The `claim` entry of `GET /v1/orders/{id}/actions`: whether some shipped unit may be claimed now,
 * for some reason, by the same time rules a claim is refused by (rules.ts), until when, or why not.
 */
import type { Availability } from "../orders/order-actions.ts";
import type { ShipmentRow } from "../orders/shipments.ts";
import { type ClaimReason, claimsCloseAt, shipmentClaimable } from "./rules.ts";

/** One reason for each time rule: a lost shipment, and everything that arrived. */
const LOST: ClaimReason = "lost_in_transit";
const ARRIVED: ClaimReason = "damaged_in_transit";

/** Units of each item a shipment carries that no standing claim holds, taken from the oldest shipment first. */
function unclaimedShipments(
	shipments: ReadonlyArray<ShipmentRow>,
	standing: ReadonlyMap<string, number>,
): ShipmentRow[] {
	const held = new Map(standing);
	return shipments.filter((shipment) =>
		shipment.items.some((item) => {
			const taken = Math.min(held.get(item.item_id) ?? 0, item.quantity);
			held.set(item.item_id, (held.get(item.item_id) ?? 0) - taken);
			return item.quantity > taken;
		}),
	);
}

/**
 * Open when a shipment with unclaimed units may be claimed now for some reason. `until` is when the
 * last such shipment's 30 days after delivery end, or null while a shipment may be claimed as lost
 * (that window has no end while it is undelivered).
 */
export function claimAction(
	shipments: ReadonlyArray<ShipmentRow>,
	standing: ReadonlyMap<string, number>,
	now: Date,
): Availability {
	if (shipments.length === 0) {
		return { available: false, until: null, reason: "Nothing has shipped yet: units are claimed once they ship." };
	}
	const open = unclaimedShipments(shipments, standing);
	if (open.length === 0) {
		return { available: false, until: null, reason: "Every shipped unit is in a claim already." };
	}
	const lost = open.filter((shipment) => shipmentClaimable(shipment, LOST, now) === true);
	const arrived = open.filter((shipment) => shipmentClaimable(shipment, ARRIVED, now) === true);
	if (lost.length > 0) return { available: true, until: null, reason: null };
	if (arrived.length > 0) {
		const closes = Math.max(...arrived.map((shipment) => claimsCloseAt(shipment.delivered_at ?? "")));
		return { available: true, until: new Date(closes).toISOString(), reason: null };
	}
	const newest = open[open.length - 1];
	const why =
		newest === undefined ? [] : [shipmentClaimable(newest, ARRIVED, now), shipmentClaimable(newest, LOST, now)];
	return {
		available: false,
		until: null,
		reason: `No unit may be claimed now: ${why.filter((v) => v !== true).join("; ")}.`,
	};
}
