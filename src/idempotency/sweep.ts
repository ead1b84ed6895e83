/**
 * The cron's expiry of idempotency keys: a key's answer is kept 24 hours, then its row is deleted, a
 * bounded batch per database a run, found through the expiry index. A key that expired but is not
 * deleted yet is already free: a new request takes it over.
 */
import { everyDatabase } from "../databases.ts";
import { deleteExpiredKeys } from "./store.ts";

/** Keys deleted per database in one run of the cron: far more than a minute's new keys. */
export const EXPIRY_BATCH = 500;

/** Deletes the keys expired by `now` in every database (the directory's too: ops and admin keys); answers how many. */
export async function sweepExpiredIdempotencyKeys(
	env: Env,
	now: Date = new Date(),
	batchSize: number = EXPIRY_BATCH,
): Promise<number> {
	const counts = await Promise.all(everyDatabase(env).map((database) => deleteExpiredKeys(database, now, batchSize)));
	return counts.reduce((sum, count) => sum + count, 0);
}
