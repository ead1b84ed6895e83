/**
 * What moving a finished order out of D1 and back writes. The record goes to R2 first (archive-record.ts);
 * then one guarded batch slims the orders row and deletes its items, shipments and moves, only if the
 * order is as it was read. A restore writes the record's rows back in one batch guarded the same way. So
 * an order is always readable exactly once: hot (its rows in D1) or archived (the slim row names its record).
 */
import type { KeyMode } from "../accounts/scopes.ts";
import { insertRow, updateRow } from "../http/sql-rows.ts";
import { randomBase62 } from "../ids.ts";
import { type OrderRecord, orderRecordOf, putOrderRecord, readOrderRecord } from "./archive-record.ts";
import { itemColumnValues, orderColumnValues } from "./columns.ts";
import { insertMove, listOrderMoves, type OrderMoveRow } from "./history.ts";
import type { StoredOrder } from "./rows.ts";
import { shipmentWrite } from "./shipment-store.ts";
import { findOrder } from "./store.ts";

/**
 * A condition on the order a statement archives, over its id column: what another capability knows of
 * it (an open claim, a delivery still being sent). Its SQL holds the column's name in `{order_id}`.
 */
export type ArchiveExclusion = string;

/** The heavy columns an archived row empties (the record holds their values); ship_to stays for the search by name. */
const SLIMMED_COLUMNS = "costs = NULL, hold_details = '[]', metadata = '{}', ship_to_warnings = '[]'";

/**
 * The ids of up to `limit` orders that may be archived: delivered or canceled before `finishedBefore`,
 * not archived, not awaiting a charge, not a claim's reprint, none of its own reprints, and none of the
 * `exclusions` (other capabilities' conditions) holding. Oldest finish first (orders_to_archive).
 */
export async function ordersToArchive(
	db: D1Database,
	finishedBefore: Date,
	limit: number,
	exclusions: ReadonlyArray<ArchiveExclusion>,
): Promise<string[]> {
	const excluded = exclusions.map((sql) => ` AND NOT (${sql.replaceAll("{order_id}", "orders.id")})`).join("");
	const { results } = await db
		.prepare(
			// The partial index holds only the candidates, oldest finish first; orders_by_status would walk every
			// delivered order ever made.
			`SELECT id FROM orders INDEXED BY orders_to_archive
			 WHERE archived_at IS NULL AND status IN ('delivered', 'canceled') AND coalesce(delivered_at, canceled_at) < ?1
			   AND awaiting_charge IS NULL AND claim_id IS NULL AND reprints = '[]'${excluded}
			 ORDER BY coalesce(delivered_at, canceled_at) LIMIT ?2`,
		)
		.bind(finishedBefore.toISOString(), limit)
		.all<{ id: string }>();
	return results.map((row) => row.id);
}

/** The record of a hot order as D1 holds it now (null when it is gone or already archived). */
export async function recordOfHotOrder(
	db: D1Database,
	records: R2Bucket,
	orderId: string,
): Promise<OrderRecord | null> {
	const [stored, moves] = await Promise.all([findOrder(db, orderId, records), listOrderMoves(db, orderId)]);
	if (stored === null || stored.archivedAt !== undefined) return null;
	return orderRecordOf(stored, moves);
}

/** Step one of archiving: the record in R2 (the same key and text for the same order, so a retry is harmless). */
export function writeOrderRecord(records: R2Bucket, record: OrderRecord): Promise<void> {
	return putOrderRecord(records, record);
}

/**
 * Step two: slims the order's row and deletes its items, shipments and moves in one batch, only if the row
 * is still the one `record` was read from (version and write token), not archived, and none of the
 * `exclusions` holds. The row gets a new write token, so a move read before it can no longer write. True
 * when it applied.
 */
export async function slimArchivedOrder(
	db: D1Database,
	record: OrderRecord,
	exclusions: ReadonlyArray<ArchiveExclusion>,
	now: Date,
): Promise<boolean> {
	const { order } = record;
	const token = randomBase62(16);
	const excluded = exclusions.map((sql) => ` AND NOT (${sql.replaceAll("{order_id}", "?3")})`).join("");
	const slimmed = `EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2 AND archived_at IS NOT NULL)`;
	const results = await db.batch([
		db
			.prepare(
				`UPDATE orders SET archived_at = ?1, write_token = ?2, ${SLIMMED_COLUMNS}
				 WHERE id = ?3 AND version = ?4 AND write_token = ?5 AND archived_at IS NULL AND awaiting_charge IS NULL${excluded}`,
			)
			.bind(now.toISOString(), token, order.id, order.version, order.write_token),
		db.prepare(`DELETE FROM order_items WHERE order_id = ?1 AND ${slimmed}`).bind(order.id, token),
		db.prepare(`DELETE FROM shipments WHERE order_id = ?1 AND ${slimmed}`).bind(order.id, token),
		db.prepare(`DELETE FROM order_moves WHERE order_id = ?1 AND ${slimmed}`).bind(order.id, token),
	]);
	return (results[0]?.meta.changes ?? 0) > 0;
}

/**
 * Brings an archived order back into D1 from its record: the row as it was (with a new write token, so a
 * move read before is refused), its items, shipments and moves, in one batch that applies only over the
 * slim row it read. True when this call restored it; false when it was hot already (or another restore won).
 */
export async function restoreArchivedOrder(db: D1Database, records: R2Bucket, orderId: string): Promise<boolean> {
	const row = await db
		.prepare("SELECT id, account_id, mode, archived_at, write_token FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ id: string; account_id: string; mode: KeyMode; archived_at: string | null; write_token: string }>();
	if (row === null || row.archived_at === null) return false;
	const record = await readOrderRecord(records, row);
	const token = randomBase62(16);
	const written = { sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2)", params: [orderId, token] };
	const results = await db.batch([
		updateRow(
			db,
			"orders",
			{ ...orderColumnValues({ ...record.order, write_token: token }), archived_at: null },
			{ sql: "id = ?1 AND archived_at = ?2 AND write_token = ?3", params: [orderId, row.archived_at, row.write_token] },
		),
		...record.items.map((item) => insertRow(db, "order_items", itemColumnValues(item), written)),
		...record.shipments.map((shipment) => shipmentWrite(db, shipment, token)),
		...record.moves.map((move) => insertMove(db, move, token)),
	]);
	return (results[0]?.meta.changes ?? 0) > 0;
}

/** The order's history of moves, oldest first: from D1 while it is hot, from its record once archived. */
export async function movesOfOrder(db: D1Database, records: R2Bucket, stored: StoredOrder): Promise<OrderMoveRow[]> {
	if (stored.archivedAt === undefined) return listOrderMoves(db, stored.order.id);
	return (await readOrderRecord(records, stored.order)).moves;
}
