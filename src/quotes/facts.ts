/**
 * What pricing reads: the catalog and the mouldings' weights (the isolate's copy), and in one D1 batch
 * the book in force, the account's discount and billing, the exchange-rate sheet and the landed-cost
 * table in force.
 */
import { type CatalogSnapshot, isolateCatalog } from "../catalog/cache.ts";
import { landedCostTables } from "../customs/store.ts";
import type { LandedCostTable } from "../customs/tables.ts";
import { type BatchedRead, combine, readOne } from "../http/batched-read.ts";
import { type AccountBilling, accountBillingRead } from "../money/account-billing.ts";
import { CURRENCIES, type Currency } from "../money/currencies.ts";
import type { RateSheet } from "../money/exchange.ts";
import { rateSheets } from "../money/store.ts";
import type { PriceBook } from "../pricing/book.ts";
import { discountPercentRead, priceBookInForceRead } from "../pricing/store.ts";
import type { Money, PieceFacts, QuoteFacts } from "./price-quote.ts";

/** Everything pricing a cart or an order reads besides its files. */
export type PricingFacts = Omit<QuoteFacts, "files">;

/** What pricingFactsRead reads. */
export type PricingRows = {
	book: PriceBook | null;
	discountPercent: number;
	billing: AccountBilling;
	sheet: RateSheet | null;
	table: LandedCostTable | null;
};

/**
 * The book's own US cents, for what only needs a piece's parcel (its boxes): converting US dollars to
 * US dollars reads no rate, so the rates here are never used.
 */
export const BOOK_CURRENCY: Money = {
	currency: "USD",
	rates: Object.fromEntries(CURRENCIES.map((currency) => [currency, 1_000_000])) as Record<Currency, number>,
	sheetVersion: 0,
};

/**
 * The facts that price `accountId`'s pieces at `at`: the isolate's catalog, and one D1 batch for the rest.
 * `currency` keeps an order's own currency when it is priced again (the account's otherwise).
 */
export async function pieceFactsOf(
	db: D1Database,
	accountId: string,
	at: Date = new Date(),
	currency?: Currency,
): Promise<PricingFacts> {
	const [snapshot, rows] = await Promise.all([
		isolateCatalog.get(db),
		readOne(db, pricingFactsRead(db, accountId, at)),
	]);
	return piecesFactsWith(snapshot, rows, currency);
}

/** What pricing reads from D1, as a read that can share a batch. */
export function pricingFactsRead(db: D1Database, accountId: string, at: Date): BatchedRead<PricingRows> {
	return combine({
		book: priceBookInForceRead(db),
		discountPercent: discountPercentRead(db, accountId),
		billing: accountBillingRead(db, accountId),
		sheet: rateSheets.inForceRead(db, at),
		table: landedCostTables.inForceRead(db, at),
	});
}

/** The pricing facts from the catalog and what pricingFactsRead read. */
export function piecesFactsWith(snapshot: CatalogSnapshot, rows: PricingRows, currency?: Currency): PricingFacts {
	const { book, discountPercent, billing, sheet, table } = rows;
	if (book === null || sheet === null || table === null) {
		throw new Error("no price book, rate sheet or landed-cost table in force: have the migrations been applied?");
	}
	return {
		catalog: snapshot.catalog,
		mouldingWeights: snapshot.mouldingWeights,
		book,
		discountPercent,
		money: { currency: currency ?? billing.currency, rates: sheet.per_usd_micros, sheetVersion: sheet.version },
		billing,
		table,
	};
}

/** The facts that only box pieces (their parcels under `book`): the book's own cents, no discount. */
export function parcelFactsWith(snapshot: CatalogSnapshot, book: PriceBook): PieceFacts {
	return {
		catalog: snapshot.catalog,
		mouldingWeights: snapshot.mouldingWeights,
		book,
		discountPercent: 0,
		money: BOOK_CURRENCY,
	};
}
