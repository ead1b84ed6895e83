/**
 * The cron's retention of print files and claim photos: a file nothing has used for
 * PRINT_FILE_RETENTION_DAYS (no order on its way, no open claim, not a logo; the last order delivered or
 * canceled, the last claim decided that long ago; a file never used, created that long ago) is expired in
 * D1, then its object deleted from R2. Its row, inspection and thumbnail stay. Bounded: at most
 * `batchSize` files looked at and `batchSize` objects deleted a run, each found through a partial index.
 */
import { logoReleaseOfFile } from "../branding/file-release.ts";
import { claimsReleaseOfOrder, photoReleaseOfFile } from "../claims/file-release.ts";
import { configOf } from "../config.ts";
import { everyDatabase } from "../databases.ts";
import { log } from "../log.ts";
import { ordersReleaseOfFile } from "../orders/file-release.ts";
import {
	expireOrPostpone,
	type FileRelease,
	markPurged,
	retentionWork,
	type SweptFile,
} from "../print-files/retention-store.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** Files looked at, and objects deleted, in one run of the cron. */
export const RETENTION_BATCH = 50;

/** Every use that keeps a file, as its owner words it: orders (with their claims), claim photos, logos. */
const RELEASES: ReadonlyArray<FileRelease> = [
	ordersReleaseOfFile(claimsReleaseOfOrder),
	photoReleaseOfFile(),
	logoReleaseOfFile(),
];

/** What one run did: files expired now, files still held (their clock moved on), objects removed from R2. */
export type RetentionRun = { expired: number; postponed: number; purged: number };

/**
 * One run: expires the due files nothing holds, moves the others' clocks to their latest use, and deletes
 * the objects of expired files from R2 (those expired now and any a crashed run left). Rerunning is
 * harmless: an expired file is not looked at again, and deleting an object already gone is no error.
 */
export async function sweepExpiredPrintFiles(
	env: Env,
	now: Date = new Date(),
	batchSize: number = RETENTION_BATCH,
): Promise<RetentionRun> {
	const runs = await Promise.all(everyDatabase(env).map((database) => sweepDatabase(env, database, now, batchSize)));
	return runs.reduce((sum, run) => ({
		expired: sum.expired + run.expired,
		postponed: sum.postponed + run.postponed,
		purged: sum.purged + run.purged,
	}));
}

/** One run over one database's files: each database has its own batch. */
async function sweepDatabase(env: Env, database: D1Database, now: Date, batchSize: number): Promise<RetentionRun> {
	const days = configOf(env).PRINT_FILE_RETENTION_DAYS;
	const at = { now: now.toISOString(), cutoff: new Date(now.getTime() - days * DAY_MS).toISOString() };
	const work = await retentionWork(database, at, batchSize);
	const expired = await expireOrPostpone(database, work.due, RELEASES, at);
	const seen = new Set(work.awaitingPurge.map((file) => file.id));
	const toPurge = [...work.awaitingPurge, ...expired.filter((file) => !seen.has(file.id))].slice(0, batchSize);
	// The rows say expired before the objects go: a crash here leaves expired files whose objects the next
	// run deletes, never an order-ready file without its bytes.
	const purged = await deleteObjects(env.PRINT_FILES, toPurge);
	await markPurged(
		database,
		purged.map((file) => file.id),
		at.now,
	);
	return { expired: expired.length, postponed: work.due.length - expired.length, purged: purged.length };
}

/**
 * Deletes the files' objects from R2: in one call, or, when R2 refuses it, one object at a time, so an
 * object R2 keeps refusing holds back no other. Returns the files whose object is gone; the others read
 * expired already, and their objects are tried again at the next run.
 */
async function deleteObjects(bucket: R2Bucket, files: ReadonlyArray<SweptFile>): Promise<SweptFile[]> {
	if (files.length === 0) return [];
	try {
		await bucket.delete(files.map((file) => file.r2_key));
		return [...files];
	} catch (error) {
		log.warn("retention.purge_failed", { files: files.length, message: String(error) });
	}
	const deleted = await Promise.all(
		files.map(async (file) => {
			try {
				await bucket.delete(file.r2_key);
				return [file];
			} catch (error) {
				log.warn("retention.purge_failed", { print_file_id: file.id, message: String(error) });
				return [];
			}
		}),
	);
	return deleted.flat();
}
