/**
 * What a refund credits, in cents, exactly: the claimed units' share of the order's item charges (each
 * item's unit price times the units claimed) and, for a lost shipment, the claimed units' share of the
 * order's shipping. Pure; the ledger entry that pays it is not the claims' to write.
 */
import type { ClaimedUnits, ClaimReason } from "./rules.ts";

/** What the credit is computed from: the order's shipping charge and its items' unit prices and quantities. */
export type CreditBasis = {
	/** The order's shipping charge in cents; null for an order not priced. */
	shipping: number | null;
	items: ReadonlyArray<{ id: string; quantity: number; unitPrice: number | null }>;
};

/**
 * The credit of a refund for `units` claimed as `reason`. Shipping is shared by units: the order's
 * shipping times the units claimed over the order's units, rounded down to the cent, so the credits of
 * every unit of an order never exceed what it paid. An item without a price adds 0.
 */
export function refundCredit(basis: CreditBasis, reason: ClaimReason, units: ReadonlyArray<ClaimedUnits>): number {
	const byId = new Map(basis.items.map((item) => [item.id, item]));
	let credit = 0;
	let claimedUnits = 0;
	for (const unit of units) {
		credit += (byId.get(unit.item_id)?.unitPrice ?? 0) * unit.quantity;
		claimedUnits += unit.quantity;
	}
	if (reason === "lost_in_transit" && basis.shipping !== null) {
		const orderUnits = basis.items.reduce((sum, item) => sum + item.quantity, 0);
		if (orderUnits > 0) credit += Math.floor((basis.shipping * claimedUnits) / orderUnits);
	}
	if (!Number.isSafeInteger(credit)) throw new Error(`a claim's credit is not an exact integer: ${credit}`);
	return credit;
}
