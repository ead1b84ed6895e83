/** What pricing reads: the catalog and the mouldings' weights (the isolate's copy), the book in force and the account's discount. */
import { isolateCatalog } from "../catalog/cache.ts";
import { discountPercentOf, findPriceBook } from "../pricing/store.ts";
import type { PieceFacts } from "./price-quote.ts";

/** The facts that price `accountId`'s pieces now, read side by side. */
export async function pieceFactsOf(db: D1Database, accountId: string): Promise<PieceFacts> {
	const [snapshot, book, discountPercent] = await Promise.all([
		isolateCatalog.get(db),
		findPriceBook(db),
		discountPercentOf(db, accountId),
	]);
	if (book === null) throw new Error("no price book: have the migrations been applied?");
	return { catalog: snapshot.catalog, mouldingWeights: snapshot.mouldingWeights, book, discountPercent };
}
