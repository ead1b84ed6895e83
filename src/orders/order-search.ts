/**
 * A partner's search of their own orders (the partner console's list): by order id, external id,
 * a label's tracking number, or the recipient's name from its start, each narrowed by the listing's
 * filters, newest first, a page at a time. Without words it is the API's listing (listOrders).
 */
import type { Owner } from "../accounts/owner.ts";
import { allConditions, type Conditions, condition, noConditions } from "../http/sql-conditions.ts";
import type { OrderColumns } from "./columns.ts";
import type { StoredOrder } from "./rows.ts";
import { type ListFilter, listOrders, pageWithItems } from "./store.ts";

/** The listing's filters and the words searched for (an id, an external id, a tracking number or a name). */
export type OrderSearch = ListFilter & { q?: string };

/** The recipient's name as the owner's recipient index keeps it. */
const RECIPIENT_NAME = "lower(json_extract(ship_to, '$.name'))";
/** Above every text a prefix starts: the largest code point. */
const AFTER_EVERY_SUFFIX = "\u{10FFFF}";

/** `text` with its ASCII capitals lowered, as SQLite's lower() does (and no other letters). */
function asciiLower(text: string): string {
	return text.replace(/[A-Z]/g, (letter) => letter.toLowerCase());
}

/**
 * A page of `owner`'s orders matching `search`, newest first. A search is a union of parts, each its
 * own statement that an index serves (the primary key, the external ids, the shipments' tracking
 * numbers, the owner's recipients by name); a key's few rows are sorted after, the names starting
 * with the words are the only ones read. The parts go in one batch and their pages are merged here,
 * so no part walks the owner's orders (an OR in one statement would).
 */
export async function searchOrders(
	db: D1Database,
	owner: Owner,
	search: OrderSearch,
	records: R2Bucket,
): Promise<{ page: StoredOrder[]; more: boolean }> {
	const asTyped = search.q ?? "";
	const q = asTyped.trim();
	if (q === "") return listOrders(db, owner, search, records);
	const parts: (Conditions & { index: string | null })[] = [];
	/** A part found by a key naming a few rows: the owner and the filters only filter them (unary + keeps the planner on the key). */
	const keyed = (sql: string, ...params: unknown[]) => {
		const where = { ...noConditions(), index: null };
		condition(where, sql, ...params);
		condition(where, "+account_id = ?", owner.accountId);
		condition(where, "+mode = ?", owner.mode);
		parts.push(where);
	};
	keyed("id = ?", q);
	keyed("id IN (SELECT order_id FROM shipments WHERE tracking_number = ?)", q);
	// An external_id is kept as the partner sent it, spaces at its ends included: looked up as typed too.
	for (const externalId of new Set([q, asTyped])) keyed("external_id = ?", externalId);
	const name = asciiLower(q);
	// Named, because the owner's index by creation time serves the order and would look cheaper to the
	// planner, walking every one of the owner's orders to find a name.
	const byName = { ...noConditions(), index: "orders_by_owner_recipient" };
	condition(byName, "account_id = ?", owner.accountId);
	condition(byName, "mode = ?", owner.mode);
	condition(byName, `${RECIPIENT_NAME} >= ?`, name);
	condition(byName, `${RECIPIENT_NAME} < ?`, `${name}${AFTER_EVERY_SUFFIX}`);
	parts.push(byName);
	const statements = parts.map((where) => {
		if (search.status !== undefined) condition(where, "+status = ?", search.status);
		if (search.createdAfter !== undefined) condition(where, "+created_at > ?", search.createdAfter);
		if (search.createdBefore !== undefined) condition(where, "+created_at < ?", search.createdBefore);
		if (search.cursor !== undefined) {
			condition(where, "(created_at, id) < (?, ?)", search.cursor.createdAt, search.cursor.id);
		}
		return db
			.prepare(
				`SELECT * FROM orders${where.index === null ? "" : ` INDEXED BY ${where.index}`} WHERE ${allConditions(where)} ORDER BY created_at DESC, id DESC LIMIT ?`,
			)
			.bind(...where.params, search.limit + 1);
	});
	const pages = await db.batch<OrderColumns>(statements);
	const byId = new Map<string, OrderColumns>();
	for (const page of pages) for (const row of page.results) byId.set(row.id, row);
	const rows = [...byId.values()].sort((a, b) => newerFirst(a, b)).slice(0, search.limit + 1);
	return pageWithItems(db, rows, search.limit, records);
}

/** Newest first: by creation time, then by id, both descending (the listing's keyset order). */
function newerFirst(a: OrderColumns, b: OrderColumns): number {
	if (a.created_at !== b.created_at) return a.created_at < b.created_at ? 1 : -1;
	return a.id < b.id ? 1 : a.id > b.id ? -1 : 0;
}
