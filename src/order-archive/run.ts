/**
 * The archive run: finished orders older than ORDER_ARCHIVE_DAYS leave D1 for their records in R2, a
 * bounded batch per database per run (the cron's, an operator's through the admin route, a benchmark's).
 *
 * Each order goes in two steps, each safe to repeat: its record is written to R2 (same key, same text),
 * then one guarded D1 batch slims its row and deletes its items, shipments and moves. A run killed
 * between them leaves the order hot (its record unused until the next run writes it again); an order
 * that moved meanwhile, or got a claim, is left as it is. Orders with a claim, a charge to come, a
 * reprint, or a webhook delivery still being sent stay in D1.
 */
import { ORDER_HAS_CLAIM } from "../claims/store.ts";
import { configOf } from "../config.ts";
import { everyDatabase, isAccountMoving } from "../databases.ts";
import { log } from "../log.ts";
import {
	type ArchiveExclusion,
	ordersToArchive,
	recordOfHotOrder,
	slimArchivedOrder,
	writeOrderRecord,
} from "../orders/archive-store.ts";
import { ORDER_HAS_PENDING_DELIVERY } from "../webhooks/store.ts";

/** The most orders one run archives in one database: its reads, writes and time stay bounded. */
export const ORDER_ARCHIVE_BATCH = 100;

/** Orders archived side by side in a run (each is an R2 put and a D1 batch). */
const ORDERS_AT_ONCE = 6;

const DAY_MS = 24 * 60 * 60 * 1000;

/** What other capabilities keep in D1: an order with a claim, or a webhook delivery still being sent. */
export const ARCHIVE_EXCLUSIONS: ReadonlyArray<ArchiveExclusion> = [ORDER_HAS_CLAIM, ORDER_HAS_PENDING_DELIVERY];

/** How a run is bounded: the age in days (ORDER_ARCHIVE_DAYS unless told) and the batch per database. */
export type ArchiveRunOptions = { days?: number; limit?: number };

/** What a run did: orders archived, and candidates left as they were (changed meanwhile, or a claim came). */
export type ArchiveRunCounts = { archived: number; skipped: number };

/** One bounded run over every database. */
export async function archiveFinishedOrders(
	env: Env,
	now: Date,
	options: ArchiveRunOptions = {},
): Promise<ArchiveRunCounts> {
	const counts = await Promise.all(
		everyDatabase(env).map((db) => archiveFinishedOrdersIn(db, env.PRINT_FILES, now, daysOf(env, options), options)),
	);
	return counts.reduce(
		(sum, count) => ({ archived: sum.archived + count.archived, skipped: sum.skipped + count.skipped }),
		{
			archived: 0,
			skipped: 0,
		},
	);
}

/** One bounded run over one database (what the benchmark drives on a local D1). */
export async function archiveFinishedOrdersIn(
	db: D1Database,
	records: R2Bucket,
	now: Date,
	days: number,
	options: { limit?: number } = {},
): Promise<ArchiveRunCounts> {
	const finishedBefore = new Date(now.getTime() - days * DAY_MS);
	const ids = await ordersToArchive(db, finishedBefore, options.limit ?? ORDER_ARCHIVE_BATCH, ARCHIVE_EXCLUSIONS);
	const counts: ArchiveRunCounts = { archived: 0, skipped: 0 };
	for (let start = 0; start < ids.length; start += ORDERS_AT_ONCE) {
		const done = await Promise.all(
			ids.slice(start, start + ORDERS_AT_ONCE).map((id) => archiveOrder(db, records, id, now)),
		);
		for (const archived of done) counts[archived ? "archived" : "skipped"] += 1;
	}
	if (counts.skipped > 0) log.info("order_archive.skipped", { job: "archive-orders", ...counts });
	return counts;
}

/**
 * Archives one order: its record first, then the guarded D1 batch. True when it left D1 now. An order
 * of an account moving between databases is left for a later run (its database's fence refuses the
 * batch), so one moving account does not stop the run for the others.
 */
export async function archiveOrder(db: D1Database, records: R2Bucket, orderId: string, now: Date): Promise<boolean> {
	const record = await recordOfHotOrder(db, records, orderId);
	if (record === null) return false;
	await writeOrderRecord(records, record);
	try {
		return await slimArchivedOrder(db, record, ARCHIVE_EXCLUSIONS, now);
	} catch (error) {
		if (isAccountMoving(error)) return false;
		throw error;
	}
}

/** The age a run archives at: the operator's, else ORDER_ARCHIVE_DAYS. */
function daysOf(env: Env, options: ArchiveRunOptions): number {
	return options.days ?? configOf(env).ORDER_ARCHIVE_DAYS;
}
