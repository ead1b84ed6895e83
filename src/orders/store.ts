/**
 * The orders' D1 statements for partners: a new order, an order read, a page of orders. What a
 * move writes is in move-store.ts, the floor's queue in queue-store.ts. Every read comes back as
 * typed rows (columns.ts parses the JSON columns), so no caller handles a column's text.
 */

import type { Owner } from "../accounts/owner.ts";
import type { Cursor } from "../http/cursor.ts";
import { allConditions, condition, noConditions } from "../http/sql-conditions.ts";
import { insertRow } from "../http/sql-rows.ts";
import type { WriteCondition } from "../webhooks/store.ts";
import { readOrderRecord } from "./archive-record.ts";
import {
	type ItemColumns,
	itemColumnValues,
	itemOfColumns,
	type OrderColumns,
	orderColumnValues,
	orderOfColumns,
} from "./columns.ts";
import { eventStatements } from "./event-statements.ts";
import { insertMove } from "./history.ts";
import { eventSubject, type ItemRow, type OrderRow, type StoredOrder } from "./rows.ts";
import { shipmentsByOrder, shipmentsOfOrdersRead } from "./shipment-store.ts";
import type { ShipmentRow } from "./shipments.ts";
import type { OrderStatus } from "./state-machine.ts";

/** Thrown when the unique (account, mode, external_id) index refuses a second order. */
export class DuplicateExternalId extends Error {
	override readonly name = "DuplicateExternalId";
}

/**
 * Writes a new order, its items and its `order.received` event in one batch (all or nothing); an
 * order with an edit window is marked as awaiting the charge its window's end brings. The
 * unique index decides between concurrent creates with one external id: the loser gets
 * DuplicateExternalId and nothing of it is written.
 */
export async function insertOrder(db: D1Database, order: OrderRow, items: ItemRow[], now: Date): Promise<void> {
	try {
		await db.batch(orderInsertStatements(db, order, items, now, null));
	} catch (error) {
		if (String(error).includes("UNIQUE constraint failed: orders.account_id, orders.mode, orders.external_id")) {
			throw new DuplicateExternalId(order.external_id);
		}
		throw error;
	}
}

/**
 * The statements that write a new order, its items, its history and its `order.received` event, for the
 * caller's batch. Under `guard` the order row is written only when the guard holds at commit, and the rest
 * only where the order row was written (a claim's reprint, written in its decision's batch).
 */
export function orderInsertStatements(
	db: D1Database,
	order: OrderRow,
	items: ItemRow[],
	now: Date,
	guard: WriteCondition | null,
): D1PreparedStatement[] {
	const written = guard === null ? null : { sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1)", params: [order.id] };
	return [
		insertRow(
			db,
			"orders",
			// An order with an edit window awaits the charge its window's end brings.
			{ ...orderColumnValues(order), awaiting_charge: order.editable_until === null ? null : 1 },
			guard,
		),
		...items.map((item) => insertItem(db, item, written !== null)),
		...(order.reprint_of === null ? [] : [appendReprint(db, order.reprint_of, order.id)]),
		// Recorded and listed, never sent: partners get no webhook for an order being received.
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
			written,
		).statements,
		// Written only where the order row (with its token) was.
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
}

/**
 * Lists a new reprint on its original order, in the batch that inserts it, only where the reprint's row
 * was written (its decision won), and never twice. The original's version, write token and updated_at
 * stay: a reprint is not a move of it, so its machine's guarded writes are not disturbed.
 */
function appendReprint(db: D1Database, originalId: string, reprintId: string): D1PreparedStatement {
	return db
		.prepare(
			`UPDATE orders SET reprints = json_insert(reprints, '$[#]', ?2)
			 WHERE id = ?1 AND NOT EXISTS (SELECT 1 FROM json_each(orders.reprints) WHERE value = ?2)
			   AND EXISTS (SELECT 1 FROM orders WHERE id = ?2)`,
		)
		.bind(originalId, reprintId);
}

/** An item's insert; `guarded`, only where its order's row was written in the same batch. */
function insertItem(db: D1Database, item: ItemRow, guarded: boolean): D1PreparedStatement {
	const written = { sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1)", params: [item.order_id] };
	return insertRow(db, "order_items", itemColumnValues(item), guarded ? written : null);
}

/** The items and the shipments of each of `orderIds`, in their order, in one round trip. */
async function partsOf(
	db: D1Database,
	orderIds: string[],
): Promise<{ items: Map<string, ItemRow[]>; shipments: Map<string, ShipmentRow[]> }> {
	const items = new Map<string, ItemRow[]>(orderIds.map((id) => [id, []]));
	if (orderIds.length === 0) return { items, shipments: new Map() };
	const placeholders = orderIds.map((_, index) => `?${index + 1}`).join(", ");
	const [itemRows, shipmentRows] = await db.batch([
		db
			.prepare(`SELECT * FROM order_items WHERE order_id IN (${placeholders}) ORDER BY order_id, position`)
			.bind(...orderIds),
		shipmentsOfOrdersRead(db, orderIds),
	]);
	for (const item of (itemRows?.results ?? []) as ItemColumns[]) items.get(item.order_id)?.push(itemOfColumns(item));
	return { items, shipments: shipmentsByOrder(orderIds, shipmentRows?.results ?? []) };
}

/** An orders row as read, with when it was archived (null while it is hot). */
type OrderRowColumns = OrderColumns & { archived_at: string | null };

/**
 * The stored order of `row` with the parts read from D1, or, when the row is archived, the order as its
 * record in `records` (R2) holds it: an archived order reads exactly as it did before it left D1.
 */
async function storedOrderOf(
	records: R2Bucket,
	row: OrderRowColumns,
	parts: { items: Map<string, ItemRow[]>; shipments: Map<string, ShipmentRow[]> },
): Promise<StoredOrder> {
	if (row.archived_at !== null) {
		const record = await readOrderRecord(records, row);
		return { order: record.order, items: record.items, shipments: record.shipments, archivedAt: row.archived_at };
	}
	return {
		order: orderOfColumns(row),
		items: parts.items.get(row.id) ?? [],
		shipments: parts.shipments.get(row.id) ?? [],
	};
}

/**
 * An order, its items and its shipments by id alone (the order's Durable Object and operators); an
 * archived order from its record in `records`.
 */
export async function findOrder(db: D1Database, id: string, records: R2Bucket): Promise<StoredOrder | null> {
	const [orders, items, shipments] = await db.batch([
		db.prepare("SELECT * FROM orders WHERE id = ?1").bind(id),
		db.prepare("SELECT * FROM order_items WHERE order_id = ?1 ORDER BY position").bind(id),
		shipmentsOfOrdersRead(db, [id]),
	]);
	const order = orders?.results[0] as OrderRowColumns | undefined;
	if (order === undefined) return null;
	return storedOrderOf(records, order, {
		items: new Map([[id, ((items?.results ?? []) as ItemColumns[]).map(itemOfColumns)]]),
		shipments: shipmentsByOrder([id], shipments?.results ?? []),
	});
}

/** An order of this account and mode, or null: another account's or mode's order is not found. */
export async function findOwnedOrder(
	db: D1Database,
	owner: Owner,
	id: string,
	records: R2Bucket,
): Promise<StoredOrder | null> {
	const found = await findOrder(db, id, records);
	if (found === null || found.order.account_id !== owner.accountId || found.order.mode !== owner.mode) return null;
	return found;
}

/** An order of this account and mode by the partner's external id. */
export async function findOrderByExternalId(
	db: D1Database,
	owner: Owner,
	externalId: string,
	records: R2Bucket,
): Promise<StoredOrder | null> {
	const row = await db
		// A partner's own order: a claim's reprint has a name of its own making, never the partner's key.
		.prepare("SELECT * FROM orders WHERE account_id = ?1 AND mode = ?2 AND external_id = ?3 AND claim_id IS NULL")
		.bind(owner.accountId, owner.mode, externalId)
		.first<OrderRowColumns>();
	if (row === null) return null;
	return storedOrderOf(records, row, await partsOf(db, row.archived_at === null ? [row.id] : []));
}

/** What a partner's listing is narrowed to, and where its page starts. */
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
	records: R2Bucket,
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
		.all<OrderColumns>();
	return pageWithItems(db, results, filter.limit, records);
}

/**
 * The first `limit` of `rows` with their items, and whether there were more. The hot orders' parts come
 * in one D1 round trip; the archived orders' records are read from `records` side by side.
 */
export async function pageWithItems(
	db: D1Database,
	rows: OrderColumns[],
	limit: number,
	records: R2Bucket,
): Promise<{ page: StoredOrder[]; more: boolean }> {
	const pageRows = (rows as OrderRowColumns[]).slice(0, limit);
	const parts = await partsOf(
		db,
		pageRows.filter((row) => row.archived_at === null).map((row) => row.id),
	);
	return {
		page: await Promise.all(pageRows.map((row) => storedOrderOf(records, row, parts))),
		more: rows.length > limit,
	};
}
