/**
 * The production floor's reads of the orders: the queue across accounts, the count in each status,
 * the item a download is named after, and what a bulk shipment needs of each order.
 */
import type { KeyMode } from "../accounts/scopes.ts";
import { accountsNamed } from "../accounts/store.ts";
import type { Cursor } from "../http/cursor.ts";
import { allConditions, type Conditions, condition, noConditions } from "../http/sql-conditions.ts";
import type { OrderColumns } from "./columns.ts";
import type { OrderRow, StoredOrder } from "./rows.ts";
import { ORDER_STATUSES, type OrderStatus } from "./state-machine.ts";
import { pageWithItems } from "./store.ts";

/** What the floor's queue is narrowed to: a search, a partner, a status and a mode. */
export type QueueFilter = {
	/** An order id, a partner's external_id (exactly), or part of a partner's name. */
	q?: string;
	accountId?: string;
	status?: OrderStatus;
	/** Any of these statuses (the console's "to do": the statuses before shipped); with `status`, both apply. */
	statuses?: readonly OrderStatus[];
	mode: KeyMode;
	limit: number;
	cursor?: Cursor;
	/** The time the floor looks at: orders still in their edit window are left out. Now unless given. */
	now?: Date;
};

/** What a search by partner name covered: how many partners, and whether more names matched (null without a search). */
export type PartnerSearch = { partners: number; more: boolean } | null;

/**
 * The production queue across accounts, oldest first (operators), narrowed by `filter`. Orders still
 * in their edit window are not the floor's yet and are left out.
 *
 * A search is a union: the order with that id, the orders with that external id, and each named
 * partner's orders. Each part is its own statement, whose equality and filters one index serves in
 * the queue's order, reading at most a page; all go in one batch, and the pages are merged here. So
 * the rows read are a page per part, never the whole table (an OR in one statement would scan it).
 * A page per named partner is why the name search covers at most NAME_SEARCH_PARTNERS of them, the
 * first by name; `partnerSearch` says how many it covered and whether more matched, for the caller
 * to show. Partners are named in `directory` (the accounts' database), orders read in `db` (an archived
 * order's record in `records`).
 */
export async function listProductionQueue(
	db: D1Database,
	filter: QueueFilter,
	records: R2Bucket,
	directory: D1Database = db,
): Promise<{ page: StoredOrder[]; more: boolean; partnerSearch: PartnerSearch }> {
	const asTyped = filter.q ?? "";
	const q = asTyped.trim();
	/** The parts of the union: each its own condition, `key` when it is an id or external id finding a few rows. */
	const parts: (Conditions & { key: boolean })[] = [];
	const part = (key: boolean, sql: string | null, ...params: unknown[]) => {
		const where = { ...noConditions(), key };
		if (sql !== null) condition(where, sql, ...params);
		parts.push(where);
		return where;
	};
	let partnerSearch: PartnerSearch = null;
	if (q === "") {
		if (filter.accountId === undefined) part(false, null);
		else part(false, "account_id = ?", filter.accountId);
	} else {
		const keys = [part(true, "id = ?", q), part(true, "external_id = ?", q)];
		// An external_id is kept as the partner sent it, spaces at its ends included: looked up as typed too.
		if (asTyped !== q) keys.push(part(true, "external_id = ?", asTyped));
		if (filter.accountId !== undefined) {
			for (const key of keys) condition(key, "+account_id = ?", filter.accountId);
		}
		const named = await accountsNamed(directory, q, filter.accountId);
		for (const accountId of named.ids) part(false, "account_id = ?", accountId);
		partnerSearch = { partners: named.ids.length, more: named.more };
	}
	const now = (filter.now ?? new Date()).toISOString();
	const statements = parts.map((where) => {
		// A key's few rows are filtered, not searched: unary + keeps the planner off the indexes on these
		// columns (orders_by_mode would serve the ORDER BY, walking every live order to find one).
		const filtered = where.key ? "+" : "";
		condition(where, `${filtered}mode = ?`, filter.mode);
		if (filter.status !== undefined) condition(where, `${filtered}status = ?`, filter.status);
		if (filter.statuses !== undefined) {
			const placeholders = filter.statuses.map(() => "?").join(", ");
			condition(where, `${filtered}status IN (${placeholders === "" ? "NULL" : placeholders})`, ...filter.statuses);
		}
		// An order the partner may still change is not the floor's yet: filtered from the index's rows.
		condition(where, "(editable_until IS NULL OR editable_until <= ?)", now);
		if (filter.cursor !== undefined) {
			condition(where, "(created_at, id) > (?, ?)", filter.cursor.createdAt, filter.cursor.id);
		}
		return db
			.prepare(`SELECT * FROM orders WHERE ${allConditions(where)} ORDER BY created_at, id LIMIT ?`)
			.bind(...where.params, filter.limit + 1);
	});
	const pages =
		statements.length === 1 ? [await statements[0]?.all<OrderColumns>()] : await db.batch<OrderColumns>(statements);
	const byId = new Map<string, OrderColumns>();
	for (const page of pages) for (const row of page?.results ?? []) byId.set(row.id, row);
	const rows = [...byId.values()]
		.sort((a, b) => (a.created_at === b.created_at ? compare(a.id, b.id) : compare(a.created_at, b.created_at)))
		.slice(0, filter.limit + 1);
	return { ...(await pageWithItems(db, rows, filter.limit, records)), partnerSearch };
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * How many orders are in each status, across every account, in one mode (zero for a status with none).
 * Read from `order_counts`, which triggers on `orders` keep up to date: seven rows, whatever the
 * number of orders.
 */
export async function countOrdersByStatus(db: D1Database, mode: KeyMode): Promise<Record<OrderStatus, number>> {
	const { results } = await db
		.prepare("SELECT status, count FROM order_counts WHERE mode = ?1")
		.bind(mode)
		.all<{ status: OrderStatus; count: number }>();
	const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>;
	for (const row of results) if (row.status in counts) counts[row.status] = row.count;
	return counts;
}

/** The item a download is named after: its order's external id and its place. */
export type ItemNaming = { external_id: string; position: number; order_id: string; item_id: string };

/** The item that prints `fileId` (`itemId` when given, else the oldest order's), or null. */
export async function findItemPrinting(
	db: D1Database,
	fileId: string,
	itemId: string | null,
): Promise<ItemNaming | null> {
	return db
		.prepare(
			`SELECT orders.external_id, order_items.position, orders.id AS order_id, order_items.id AS item_id
			   FROM order_items JOIN orders ON orders.id = order_items.order_id
			  WHERE order_items.print_file_id = ?1 AND (?2 IS NULL OR order_items.id = ?2)
			  ORDER BY orders.created_at, order_items.position
			  LIMIT 1`,
		)
		.bind(fileId, itemId)
		.first<ItemNaming>();
}

/** What shipping an order in bulk needs to know of it. */
export type ShippingFacts = Pick<
	OrderRow,
	"id" | "external_id" | "status" | "tracking_carrier" | "tracking_number" | "tracking_url" | "editable_until"
>;

/** D1 binds at most 100 parameters a statement. */
const LOOKUP_CHUNK = 90;

/**
 * Orders by id, or live orders by external_id (unique per account and mode, so one external_id may
 * name orders of several partners), in chunks of 90.
 */
export async function findShippingFacts(
	db: D1Database,
	by: "id" | "external_id",
	values: readonly string[],
): Promise<ShippingFacts[]> {
	const unique = [...new Set(values)];
	const found: ShippingFacts[] = [];
	for (let start = 0; start < unique.length; start += LOOKUP_CHUNK) {
		const chunk = unique.slice(start, start + LOOKUP_CHUNK);
		const placeholders = chunk.map((_, index) => `?${index + 1}`).join(", ");
		const where = by === "id" ? `id IN (${placeholders})` : `external_id IN (${placeholders}) AND mode = 'live'`;
		const { results } = await db
			.prepare(
				`SELECT id, external_id, status, tracking_carrier, tracking_number, tracking_url, editable_until FROM orders WHERE ${where}`,
			)
			.bind(...chunk)
			.all<ShippingFacts>();
		found.push(...results);
	}
	return found;
}
