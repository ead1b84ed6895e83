/** What pricing reads: the catalog and the mouldings' weights (the isolate's copy), the book in force and the account's discount. */
import { type CatalogSnapshot, isolateCatalog } from "../catalog/cache.ts";
import { type BatchedRead, combine, readOne } from "../http/batched-read.ts";
import type { PriceBook } from "../pricing/book.ts";
import { discountPercentRead, priceBookInForceRead } from "../pricing/store.ts";
import type { PieceFacts } from "./price-quote.ts";

/** The facts that price `accountId`'s pieces now: the isolate's catalog, and one D1 batch for the rest. */
export async function pieceFactsOf(db: D1Database, accountId: string): Promise<PieceFacts> {
	const [snapshot, facts] = await Promise.all([isolateCatalog.get(db), readOne(db, pricingFactsRead(db, accountId))]);
	return piecesFactsWith(snapshot, facts);
}

/** What pricing reads from D1 (the book in force and the account's discount), as a read that can share a batch. */
export function pricingFactsRead(
	db: D1Database,
	accountId: string,
): BatchedRead<{ book: PriceBook | null; discountPercent: number }> {
	return combine({ book: priceBookInForceRead(db), discountPercent: discountPercentRead(db, accountId) });
}

/** The pieces' facts from the catalog and what pricingFactsRead read. */
export function piecesFactsWith(
	snapshot: CatalogSnapshot,
	{ book, discountPercent }: { book: PriceBook | null; discountPercent: number },
): PieceFacts {
	if (book === null) throw new Error("no price book: have the migrations been applied?");
	return { catalog: snapshot.catalog, mouldingWeights: snapshot.mouldingWeights, book, discountPercent };
}
