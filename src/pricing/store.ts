import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
/** The pricing's tables: the versioned price books and the accounts' discounts. */
import { type PriceBook, type PriceBookInput, PriceBookSchema } from "./book.ts";

type BookRow = { version: number; published_at: string; book: string };

/** How many parsed books an isolate keeps: the one in force and the few older ones orders still name. */
const PARSED_BOOKS_KEPT = 8;

/**
 * The books this isolate parsed, by version, with the stored text they were parsed from. Every order
 * create reads the book in force; parsing its JSON through the schema was most of the create's own
 * CPU. A book never changes once published, and the row is still read on every request: only a row
 * whose text is exactly the one parsed before is answered from here, so nothing stale is served.
 */
const parsedBooks = new Map<number, { row: BookRow; book: PriceBook }>();

function bookOf(row: BookRow): PriceBook {
	const parsed = parsedBooks.get(row.version);
	if (parsed !== undefined && parsed.row.book === row.book && parsed.row.published_at === row.published_at) {
		return parsed.book;
	}
	// Stored books were validated when published (and the seed by its test); parsing again guards the row.
	const book = deepFreeze(
		PriceBookSchema.parse({
			...(JSON.parse(row.book) as object),
			version: row.version,
			published_at: row.published_at,
		}),
	);
	parsedBooks.delete(row.version);
	parsedBooks.set(row.version, { row, book });
	// Maps keep insertion order: the first key is the book parsed longest ago.
	for (const version of parsedBooks.keys()) {
		if (parsedBooks.size <= PARSED_BOOKS_KEPT) break;
		parsedBooks.delete(version);
	}
	return book;
}

/** `value` frozen all the way down: a book shared by the isolate's requests cannot be changed by one of them. */
function deepFreeze<T>(value: T): T {
	if (typeof value === "object" && value !== null && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}

/** The book in force (the newest), or a given version; null when there is no such version. */
export async function findPriceBook(db: D1Database, version?: number): Promise<PriceBook | null> {
	if (version === undefined) return readOne(db, priceBookInForceRead(db));
	const row = await db
		.prepare("SELECT version, published_at, book FROM price_books WHERE version = ?1")
		.bind(version)
		.first<BookRow>();
	return row === null ? null : bookOf(row);
}

/** The book in force (the newest) as a read that can share a batch. */
export function priceBookInForceRead(db: D1Database): BatchedRead<PriceBook | null> {
	return rowRead(
		db.prepare("SELECT version, published_at, book FROM price_books ORDER BY version DESC LIMIT 1"),
		(row: BookRow | null) => (row === null ? null : bookOf(row)),
	);
}

/**
 * Publishes `book` as the next version, in one statement (two admins publishing at once get two
 * versions, never one overwritten). Earlier versions are kept unchanged. With `over`, only while
 * that version is still the newest (the book was edited from it): null when another came first.
 */
export async function publishPriceBook(
	db: D1Database,
	book: PriceBookInput,
	now: Date,
	over: number | null = null,
): Promise<PriceBook | null> {
	const row = await db
		.prepare(
			`INSERT INTO price_books (version, published_at, book)
			 SELECT newest + 1, ?1, ?2 FROM (SELECT COALESCE(MAX(version), 0) AS newest FROM price_books)
			  WHERE ?3 IS NULL OR newest = ?3
			 RETURNING version, published_at, book`,
		)
		.bind(now.toISOString(), JSON.stringify(book), over)
		.first<BookRow>();
	if (row === null && over === null) throw new Error("publishing a price book returned no row");
	return row === null ? null : bookOf(row);
}

/** An account's discount in percent (0 without one). */
export function discountPercentOf(db: D1Database, accountId: string): Promise<number> {
	return readOne(db, discountPercentRead(db, accountId));
}

/** discountPercentOf as a read that can share a batch. */
export function discountPercentRead(db: D1Database, accountId: string): BatchedRead<number> {
	return rowRead(
		db.prepare("SELECT discount_percent FROM account_discounts WHERE account_id = ?1").bind(accountId),
		(row: { discount_percent: number } | null) => row?.discount_percent ?? 0,
	);
}

/** Sets an account's discount (0 removes it in effect). */
export async function setDiscountPercent(db: D1Database, accountId: string, percent: number, now: Date): Promise<void> {
	await db
		.prepare(
			`INSERT INTO account_discounts (account_id, discount_percent, updated_at) VALUES (?1, ?2, ?3)
			 ON CONFLICT (account_id) DO UPDATE SET discount_percent = excluded.discount_percent, updated_at = excluded.updated_at`,
		)
		.bind(accountId, percent, now.toISOString())
		.run();
}
