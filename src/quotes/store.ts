/** The quotes table: a quote as answered, owned by one account and mode. */
import type { KeyMode } from "../accounts/scopes.ts";
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
import { type Quote, QuoteSchema } from "./schema.ts";

/** Stores a quote as answered. */
export async function insertQuote(
	db: D1Database,
	owner: { accountId: string; mode: KeyMode },
	quote: Quote,
): Promise<void> {
	await db
		.prepare(
			`INSERT INTO quotes (id, account_id, mode, price_book_version, created_at, expires_at, body)
			 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)`,
		)
		.bind(
			quote.id,
			owner.accountId,
			owner.mode,
			quote.price_book_version,
			quote.created_at,
			quote.expires_at,
			JSON.stringify(quote),
		)
		.run();
}

/** A quote of this account and mode, or null (another account's or mode's quote is not found). */
export function findOwnedQuote(
	db: D1Database,
	owner: { accountId: string; mode: KeyMode },
	id: string,
): Promise<Quote | null> {
	return readOne(db, ownedQuoteRead(db, owner, id));
}

/** findOwnedQuote as a read that can share a batch. */
export function ownedQuoteRead(
	db: D1Database,
	owner: { accountId: string; mode: KeyMode },
	id: string,
): BatchedRead<Quote | null> {
	return rowRead(
		db
			.prepare("SELECT body FROM quotes WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
			.bind(id, owner.accountId, owner.mode),
		// Quotes stored before they kept their destination read with a null ship_to.
		(row: { body: string } | null) =>
			row === null ? null : QuoteSchema.parse({ ship_to: null, ...(JSON.parse(row.body) as object) }),
	);
}
