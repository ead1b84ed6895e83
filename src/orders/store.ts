/** The orders' D1 statements: creation, moves (with their history and event rows), reads and listings. */

import type { KeyMode } from "../accounts/scopes.ts";
import { accountsNamed } from "../accounts/store.ts";
import type { Cursor } from "../http/cursor.ts";
import { allConditions, type Conditions, condition, noConditions } from "../http/sql-conditions.ts";
import type { OrderEventType } from "../webhooks/events.ts";
import { eventStatements, type PendingDelivery, type RecordedEvent } from "../webhooks/store.ts";
import { insertMove, moveNote, type OrderMoveRow } from "./history.ts";
import { eventSubject, type ItemRow, type OrderRow, type StoredOrder } from "./rows.ts";
import { type Actor, type Move, ORDER_STATUSES, type OrderStatus } from "./state-machine.ts";

/** Thrown when the unique (account, mode, external_id) index refuses a second order. */
export class DuplicateExternalId extends Error {
	override readonly name = "DuplicateExternalId";
}

/**
 * Writes a new order, its items and its `order.received` event in one batch (all or nothing). The
 * unique index decides between concurrent creates with one external id: the loser gets
 * DuplicateExternalId and nothing of it is written.
 */
export async function insertOrder(db: D1Database, order: OrderRow, items: ItemRow[], now: Date): Promise<void> {
	const statements = [
		db
			.prepare(
				`INSERT INTO orders (id, account_id, mode, external_id, request_hash, status, version, ship_to, callback_url,
				   hold_reason, hold_details, created_at, updated_at, write_token, gift_message, shipping_method, quote_id, costs)
				 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18)`,
			)
			.bind(
				order.id,
				order.account_id,
				order.mode,
				order.external_id,
				order.request_hash,
				order.status,
				order.version,
				order.ship_to,
				order.callback_url,
				order.hold_reason,
				order.hold_details,
				order.created_at,
				order.updated_at,
				order.write_token,
				order.gift_message,
				order.shipping_method,
				order.quote_id,
				order.costs,
			),
		...items.map((item) => insertItem(db, item)),
		// Recorded and listed, never sent: order.received is not among the contract's webhooks.
		...eventStatements(
			db,
			{
				type: "order.received",
				accountId: order.account_id,
				mode: order.mode,
				order: eventSubject(order),
				delivery: null,
				createdAt: now,
			},
			null,
		).statements,
		insertMove(
			db,
			{
				order_id: order.id,
				version: order.version,
				move: "create",
				actor: "partner",
				from_status: null,
				to_status: order.status,
				note: null,
				created_at: order.created_at,
			},
			order.write_token,
		),
	];
	try {
		await db.batch(statements);
	} catch (error) {
		if (String(error).includes("UNIQUE constraint failed: orders.account_id, orders.mode, orders.external_id")) {
			throw new DuplicateExternalId(order.external_id);
		}
		throw error;
	}
}

function insertItem(db: D1Database, item: ItemRow): D1PreparedStatement {
	return db
		.prepare(
			`INSERT INTO order_items (id, order_id, position, print_file_id, print_file_url, width_in, height_in, frame, mat,
			   quantity, effective_dpi, warnings, mat_border_in, mat_bottom_border_in, inner_mat, inner_mat_reveal_in, glazing,
			   paper, fit, priced, cropped_percent)
			 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)`,
		)
		.bind(
			item.id,
			item.order_id,
			item.position,
			item.print_file_id,
			item.print_file_url,
			item.width_in,
			item.height_in,
			item.frame,
			item.mat,
			item.quantity,
			item.effective_dpi,
			item.warnings,
			...specColumns(item),
		);
}

/** The item's specification, price and crop columns, in the order both item statements bind them. */
function specColumns(item: ItemRow): (string | number | null)[] {
	return [
		item.mat_border_in,
		item.mat_bottom_border_in,
		item.inner_mat,
		item.inner_mat_reveal_in,
		item.glazing,
		item.paper,
		item.fit,
		item.priced,
		item.cropped_percent,
	];
}

/** Thrown when a move's write finds the order changed since it was read. */
export class StaleOrder extends Error {
	override readonly name = "StaleOrder";
}

/** One move of a write: the order row after it, its event, its item changes, and what it was. */
export type MoveStep = {
	after: OrderRow;
	event: OrderEventType | null;
	itemUpdates: ItemRow[];
	made: { move: Move; actor: Actor };
};

/**
 * Writes one move, or several in a row (validation started and decided at once): each step's order
 * row, only if the version is still the one before it, and the step's history row, event and webhook
 * delivery rows, only if that update happened, in one batch. Throws StaleOrder when the version had
 * moved on (then nothing at all is written); returns the last event's id and the deliveries to start.
 */
export async function writeMove(
	db: D1Database,
	before: OrderRow,
	steps: MoveStep[],
	now: Date,
): Promise<{ eventId: string | null; deliveries: PendingDelivery[] }> {
	const statements: D1PreparedStatement[] = [];
	const recordedAt: Array<{ recorded: RecordedEvent; at: number }> = [];
	let previous = before;
	for (const step of steps) {
		// A later step moves on only from the row its earlier step wrote (its token), not from whatever
		// write happened to reach the same version.
		const guard = previous === before ? null : previous.write_token;
		const { statements: stepStatements, recorded } = moveStatements(db, previous, guard, step, now);
		statements.push(...stepStatements);
		// The event's statements end the step's.
		if (recorded !== null) recordedAt.push({ recorded, at: statements.length - recorded.statements.length });
		previous = step.after;
	}
	const results = await db.batch(statements);
	// A later step's update cannot miss once the first applied: the same batch set the version it expects.
	if ((results[0]?.meta.changes ?? 0) === 0) throw new StaleOrder(before.id);
	return {
		eventId: recordedAt.at(-1)?.recorded.eventId ?? null,
		deliveries: recordedAt.flatMap(({ recorded, at }) =>
			recorded.pendingDeliveries(results.slice(at, at + recorded.statements.length)),
		),
	};
}

/**
 * One step's statements: the guarded update, its item rows, its history row, and its event (last).
 * The update applies only at `before`'s version and, when `previousToken` is given, only over the row
 * that carries it.
 */
function moveStatements(
	db: D1Database,
	before: OrderRow,
	previousToken: string | null,
	{ after, event, itemUpdates, made }: MoveStep,
	now: Date,
): { statements: D1PreparedStatement[]; recorded: RecordedEvent | null } {
	const update = db
		.prepare(
			`UPDATE orders SET status = ?3, version = ?4, hold_reason = ?5, hold_details = ?6, tracking_carrier = ?7,
			   tracking_number = ?8, tracking_url = ?9, updated_at = ?10, shipped_at = ?11, delivered_at = ?12, canceled_at = ?13,
			   write_token = ?14, shipping_method = ?15, quote_id = ?16, costs = ?17
			 WHERE id = ?1 AND version = ?2 AND (?18 IS NULL OR write_token = ?18)`,
		)
		.bind(
			after.id,
			before.version,
			after.status,
			after.version,
			after.hold_reason,
			after.hold_details,
			after.tracking_carrier,
			after.tracking_number,
			after.tracking_url,
			after.updated_at,
			after.shipped_at,
			after.delivered_at,
			after.canceled_at,
			after.write_token,
			after.shipping_method,
			after.quote_id,
			after.costs,
			previousToken,
		);
	// The event and item rows go in only when the order row carries this step's token, i.e. the update
	// above applied; a stale writer's batch changes nothing at all.
	const statements: D1PreparedStatement[] = [update];
	for (const item of itemUpdates) statements.push(guardedItemUpdate(db, item, after));
	const history: OrderMoveRow = {
		order_id: after.id,
		version: after.version,
		move: made.move.kind,
		actor: made.actor,
		from_status: before.status,
		to_status: after.status,
		note: moveNote(made.move),
		created_at: now.toISOString(),
	};
	statements.push(insertMove(db, history, after.write_token));
	if (event === null) return { statements, recorded: null };
	// Written only when the order row carries this step's token, like the history row.
	const recorded = eventStatements(
		db,
		{
			type: event,
			accountId: after.account_id,
			mode: after.mode,
			order: eventSubject(after),
			delivery: { url: after.callback_url },
			createdAt: now,
		},
		{
			sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2)",
			params: [after.id, after.write_token],
		},
	);
	statements.push(...recorded.statements);
	return { statements, recorded };
}

function guardedItemUpdate(db: D1Database, item: ItemRow, after: OrderRow): D1PreparedStatement {
	return db
		.prepare(
			`UPDATE order_items SET print_file_id = ?3, print_file_url = ?4, width_in = ?5, height_in = ?6, frame = ?7, mat = ?8,
			   quantity = ?9, effective_dpi = ?10, warnings = ?11, mat_border_in = ?13, mat_bottom_border_in = ?14,
			   inner_mat = ?15, inner_mat_reveal_in = ?16, glazing = ?17, paper = ?18, fit = ?19, priced = ?20,
			   cropped_percent = ?21
			 WHERE id = ?1 AND order_id = ?2 AND EXISTS (SELECT 1 FROM orders WHERE id = ?2 AND write_token = ?12)`,
		)
		.bind(
			item.id,
			item.order_id,
			item.print_file_id,
			item.print_file_url,
			item.width_in,
			item.height_in,
			item.frame,
			item.mat,
			item.quantity,
			item.effective_dpi,
			item.warnings,
			after.write_token,
			...specColumns(item),
		);
}

async function itemsOf(db: D1Database, orderIds: string[]): Promise<Map<string, ItemRow[]>> {
	const byOrder = new Map<string, ItemRow[]>(orderIds.map((id) => [id, []]));
	if (orderIds.length === 0) return byOrder;
	const placeholders = orderIds.map((_, index) => `?${index + 1}`).join(", ");
	const { results } = await db
		.prepare(`SELECT * FROM order_items WHERE order_id IN (${placeholders}) ORDER BY order_id, position`)
		.bind(...orderIds)
		.all<ItemRow>();
	for (const item of results) byOrder.get(item.order_id)?.push(item);
	return byOrder;
}

/** An order and its items by id alone (the order's Durable Object and operators). */
export async function findOrder(db: D1Database, id: string): Promise<StoredOrder | null> {
	const [orders, items] = await db.batch([
		db.prepare("SELECT * FROM orders WHERE id = ?1").bind(id),
		db.prepare("SELECT * FROM order_items WHERE order_id = ?1 ORDER BY position").bind(id),
	]);
	const order = orders?.results[0] as OrderRow | undefined;
	if (order === undefined) return null;
	return { order, items: (items?.results ?? []) as ItemRow[] };
}

/** The owner of a partner-visible resource: an account in one mode. */
export type Owner = { accountId: string; mode: KeyMode };

/** An order of this account and mode, or null: another account's or mode's order is not found. */
export async function findOwnedOrder(db: D1Database, owner: Owner, id: string): Promise<StoredOrder | null> {
	const found = await findOrder(db, id);
	if (found === null || found.order.account_id !== owner.accountId || found.order.mode !== owner.mode) return null;
	return found;
}

/** An order of this account and mode by the partner's external id. */
export async function findOrderByExternalId(
	db: D1Database,
	owner: Owner,
	externalId: string,
): Promise<StoredOrder | null> {
	const order = await db
		.prepare("SELECT * FROM orders WHERE account_id = ?1 AND mode = ?2 AND external_id = ?3")
		.bind(owner.accountId, owner.mode, externalId)
		.first<OrderRow>();
	if (order === null) return null;
	return { order, items: (await itemsOf(db, [order.id])).get(order.id) ?? [] };
}

/** Keyset position in a listing: the last row's creation time and id. */

export type ListFilter = {
	status?: OrderStatus;
	createdAfter?: string;
	createdBefore?: string;
	limit: number;
	cursor?: Cursor;
};

/**
 * A page of an owner's orders, newest first. Keyset pagination on (created_at, id): rows inserted
 * while a client pages are newer than its cursor, so nothing is skipped or repeated. Only the filters
 * asked for are in the SQL, so an index (orders_by_owner, or orders_by_owner_status with a status)
 * serves the whole WHERE and the order, and the rows read are the page's.
 */
export async function listOrders(
	db: D1Database,
	owner: Owner,
	filter: ListFilter,
): Promise<{ page: StoredOrder[]; more: boolean }> {
	const where = noConditions();
	condition(where, "account_id = ?", owner.accountId);
	condition(where, "mode = ?", owner.mode);
	if (filter.status !== undefined) condition(where, "status = ?", filter.status);
	if (filter.createdAfter !== undefined) condition(where, "created_at > ?", filter.createdAfter);
	if (filter.createdBefore !== undefined) condition(where, "created_at < ?", filter.createdBefore);
	if (filter.cursor !== undefined)
		condition(where, "(created_at, id) < (?, ?)", filter.cursor.createdAt, filter.cursor.id);
	const { results } = await db
		.prepare(`SELECT * FROM orders WHERE ${allConditions(where)} ORDER BY created_at DESC, id DESC LIMIT ?`)
		.bind(...where.params, filter.limit + 1)
		.all<OrderRow>();
	return pageWithItems(db, results, filter.limit);
}

/** What the floor's queue is narrowed to: a search, a partner, a status and a mode. */
export type QueueFilter = {
	/** An order id, a partner's external_id (exactly), or part of a partner's name. */
	q?: string;
	accountId?: string;
	status?: OrderStatus;
	mode: KeyMode;
	limit: number;
	cursor?: Cursor;
};

/** What a search by partner name covered: how many partners, and whether more names matched (null without a search). */
export type PartnerSearch = { partners: number; more: boolean } | null;

/**
 * The production queue across accounts, oldest first (operators), narrowed by `filter`.
 *
 * A search is a union: the order with that id, the orders with that external id, and each named
 * partner's orders. Each part is its own statement, whose equality and filters one index serves in
 * the queue's order, reading at most a page; all go in one batch, and the pages are merged here. So
 * the rows read are a page per part, never the whole table (an OR in one statement would scan it).
 * A page per named partner is why the name search covers at most NAME_SEARCH_PARTNERS of them, the
 * first by name; `partnerSearch` says how many it covered and whether more matched, for the caller
 * to show.
 */
export async function listProductionQueue(
	db: D1Database,
	filter: QueueFilter,
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
		const named = await accountsNamed(db, q, filter.accountId);
		for (const accountId of named.ids) part(false, "account_id = ?", accountId);
		partnerSearch = { partners: named.ids.length, more: named.more };
	}
	const statements = parts.map((where) => {
		// A key's few rows are filtered, not searched: unary + keeps the planner off the indexes on these
		// columns (orders_by_mode would serve the ORDER BY, walking every live order to find one).
		const filtered = where.key ? "+" : "";
		condition(where, `${filtered}mode = ?`, filter.mode);
		if (filter.status !== undefined) condition(where, `${filtered}status = ?`, filter.status);
		if (filter.cursor !== undefined) {
			condition(where, "(created_at, id) > (?, ?)", filter.cursor.createdAt, filter.cursor.id);
		}
		return db
			.prepare(`SELECT * FROM orders WHERE ${allConditions(where)} ORDER BY created_at, id LIMIT ?`)
			.bind(...where.params, filter.limit + 1);
	});
	const pages = statements.length === 1 ? [await statements[0]?.all<OrderRow>()] : await db.batch<OrderRow>(statements);
	const byId = new Map<string, OrderRow>();
	for (const page of pages) for (const row of page?.results ?? []) byId.set(row.id, row);
	const rows = [...byId.values()]
		.sort((a, b) => (a.created_at === b.created_at ? compare(a.id, b.id) : compare(a.created_at, b.created_at)))
		.slice(0, filter.limit + 1);
	return { ...(await pageWithItems(db, rows, filter.limit)), partnerSearch };
}

function compare(a: string, b: string): number {
	return a < b ? -1 : a > b ? 1 : 0;
}

async function pageWithItems(
	db: D1Database,
	rows: OrderRow[],
	limit: number,
): Promise<{ page: StoredOrder[]; more: boolean }> {
	const pageRows = rows.slice(0, limit);
	const items = await itemsOf(
		db,
		pageRows.map((row) => row.id),
	);
	return { page: pageRows.map((order) => ({ order, items: items.get(order.id) ?? [] })), more: rows.length > limit };
}

/**
 * How many orders are in each status, across every account, in one mode (zero for a status with none).
 * Read from `order_counts`, which triggers on `orders` keep (migration 0014): seven rows, whatever the
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
	"id" | "external_id" | "status" | "tracking_carrier" | "tracking_number" | "tracking_url"
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
				`SELECT id, external_id, status, tracking_carrier, tracking_number, tracking_url FROM orders WHERE ${where}`,
			)
			.bind(...chunk)
			.all<ShippingFacts>();
		found.push(...results);
	}
	return found;
}
