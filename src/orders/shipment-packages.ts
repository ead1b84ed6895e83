/** The packages of a shipment: the product model's boxes for the units it carries. */

import { isolateCatalog } from "../catalog/cache.ts";
import { sentFraming, specOf } from "../framing/spec.ts";
import { readOne } from "../http/batched-read.ts";
import { shippingTablesOf } from "../pricing/book.ts";
import { type FlatParcelItem, type FramedParcelItem, shipmentPackages } from "../pricing/shipping.ts";
import { priceBookInForceRead } from "../pricing/store.ts";
import { parcelFactsWith } from "../quotes/facts.ts";
import { type PieceFacts, pricePiece } from "../quotes/price-quote.ts";
import type { ItemRow } from "./rows.ts";
import type { ShipmentItem, ShipmentPackage } from "./shipments.ts";

/** Boxes the units of one shipment: see `packagerFor`. */
export type Packager = (units: readonly ShipmentItem[]) => ShipmentPackage[];

/**
 * What boxes `items`' units: one box per framed unit, one flat box for the unframed prints, weighed
 * with the catalog's mouldings and billed at the price book's dimensional divisor. It reads the
 * pricing facts once, however many shipments it then boxes. A piece the catalog no longer prices ships
 * with no packages listed.
 */
export async function packagerFor(db: D1Database, items: readonly ItemRow[]): Promise<Packager> {
	// Boxes turn on the catalog and the book alone, not the account's discount, currency or billing.
	return packagerWith(await boxingFacts(db), items);
}

/** The packager of `items` with pricing facts already read (a batch of orders reads them once). */
export function packagerWith(facts: PieceFacts, items: readonly ItemRow[]): Packager {
	const divisor = shippingTablesOf(facts.book).dimensionalDivisor;
	return (units) => {
		const parcels: Array<FramedParcelItem | FlatParcelItem> = [];
		for (const unit of units) {
			const item = items.find((candidate) => candidate.id === unit.item_id);
			if (item === undefined) continue;
			const piece = pricePiece(
				{ ...sentFraming(specOf(item)), width_in: item.width_in, height_in: item.height_in, quantity: unit.quantity },
				facts,
			);
			if (!piece.ok) return [];
			parcels.push(piece.parcel);
		}
		return shipmentPackages(parcels, divisor);
	};
}

/** The pricing facts that box any account's units: read once for a batch of orders (a box does not depend on a discount). */
export async function boxingFacts(db: D1Database): Promise<PieceFacts> {
	const [snapshot, book] = await Promise.all([isolateCatalog.get(db), readOne(db, priceBookInForceRead(db))]);
	if (book === null) throw new Error("no price book: have the migrations been applied?");
	return parcelFactsWith(snapshot, book);
}
