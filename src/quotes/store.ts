/**
 * The quotes table: a quote as answered, owned by one account and mode. A quote lists one package
 * per framed unit under every shipping option, so 50 items of 100 units answer 5,000 packages four
 * times over (2.7 MB), past D1's 1 MB a row. It is stored compactly instead: the packages once (every
 * option ships the same ones), each run of identical packages as one entry with its count, and the
 * options without them. Read back, it is the quote exactly as answered.
 */
import { z } from "@hono/zod-openapi";
import type { Owner } from "../accounts/owner.ts";
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
import { PackageSchema, type Quote, QuoteSchema, ShippingOptionSchema } from "./schema.ts";

type Package = z.infer<typeof PackageSchema>;

/** A run of identical packages, one after another in the quote's list. */
const PackageRunSchema = z.object({ ...PackageSchema.shape, count: z.number().int().min(1) });
type PackageRun = z.infer<typeof PackageRunSchema>;

/** A quote as stored: its packages once, as runs, and its options without them. */
const StoredQuoteSchema = z.object({
	...QuoteSchema.shape,
	package_runs: z.array(PackageRunSchema),
	shipping_options: z.array(ShippingOptionSchema.omit({ packages: true })),
});
type StoredQuote = z.infer<typeof StoredQuoteSchema>;

function samePackage(a: Package, b: Package): boolean {
	return (
		a.length_in === b.length_in &&
		a.width_in === b.width_in &&
		a.depth_in === b.depth_in &&
		a.weight_lb === b.weight_lb &&
		a.billable_weight_lb === b.billable_weight_lb &&
		a.oversize === b.oversize &&
		a.length_plus_girth_in === b.length_plus_girth_in
	);
}

/** The packages as runs of identical ones, in their order. */
function runsOf(packages: readonly Package[]): PackageRun[] {
	const runs: PackageRun[] = [];
	for (const parcel of packages) {
		const last = runs.at(-1);
		if (last !== undefined && samePackage(last, parcel)) last.count += 1;
		else runs.push({ ...parcel, count: 1 });
	}
	return runs;
}

function sameRuns(a: readonly PackageRun[], b: readonly PackageRun[]): boolean {
	return (
		a.length === b.length &&
		a.every((run, index) => {
			const other = b[index];
			return other !== undefined && other.count === run.count && samePackage(run, other);
		})
	);
}

/** The quote as stored. Every option ships the same packages (they are the cart's); a quote where they differ is a fault. */
export function storedQuote(quote: Quote): StoredQuote {
	const runs = runsOf(quote.shipping_options[0]?.packages ?? []);
	for (const option of quote.shipping_options) {
		if (!sameRuns(runsOf(option.packages), runs)) {
			throw new Error(`quote ${quote.id}: the ${option.method} option ships other packages than the first`);
		}
	}
	return {
		...quote,
		package_runs: runs,
		shipping_options: quote.shipping_options.map(({ packages: _packages, ...option }) => option),
	};
}

/** The quote a stored body holds: the compact form, or a whole quote as stored before it (ship_to null if older still). */
export function quoteOfStored(body: string): Quote {
	const json = JSON.parse(body) as object;
	if (!Object.hasOwn(json, "package_runs")) return QuoteSchema.parse({ ship_to: null, ...json });
	const { package_runs: runs, ...stored } = StoredQuoteSchema.parse(json);
	const packages = runs.flatMap(({ count, ...parcel }) => Array.from({ length: count }, () => parcel));
	return { ...stored, shipping_options: stored.shipping_options.map((option) => ({ ...option, packages })) };
}

/** Stores a quote as answered. */
export async function insertQuote(db: D1Database, owner: Owner, quote: Quote): Promise<void> {
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
			JSON.stringify(storedQuote(quote)),
		)
		.run();
}

/** A quote of this account and mode, or null (another account's or mode's quote is not found). */
export function findOwnedQuote(db: D1Database, owner: Owner, id: string): Promise<Quote | null> {
	return readOne(db, ownedQuoteRead(db, owner, id));
}

/** findOwnedQuote as a read that can share a batch. */
export function ownedQuoteRead(db: D1Database, owner: Owner, id: string): BatchedRead<Quote | null> {
	return rowRead(
		db
			.prepare("SELECT body FROM quotes WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
			.bind(id, owner.accountId, owner.mode),
		(row: { body: string } | null) => (row === null ? null : quoteOfStored(row.body)),
	);
}
