/**
 * The retention sweep's statements on print_files. What still holds a file is not print-files' to know:
 * each owner of a use (orders, claims, branding) gives it as an SQL expression, and the guarded expiry
 * here re-decides with them at commit, so a use written meanwhile keeps the file.
 */
import type { PrintFileRow } from "./store.ts";

/**
 * The latest time (ISO 8601) at which a use of the file `print_files.id` releases it, as an SQL scalar
 * expression; `?1` is now, for a use still going on; NULL when there is no such use.
 */
export type FileRelease = string;

/** A file the sweep found due, or expired and still to be removed from R2. */
export type SweptFile = Pick<PrintFileRow, "id" | "r2_key">;

/**
 * Up to `limit` kept files whose retention clock is at or before `cutoff` (oldest first), and up to
 * `limit` expired files whose object is still in R2: one round trip, each read through its partial index.
 */
export async function retentionWork(
	db: D1Database,
	at: { now: string; cutoff: string },
	limit: number,
): Promise<{ due: string[]; awaitingPurge: SweptFile[] }> {
	const { now, cutoff } = at;
	const [due, awaiting] = await db.batch([
		db
			.prepare(
				`SELECT id FROM print_files WHERE expired_at IS NULL AND retention_clock <= ?1
				  ORDER BY retention_clock LIMIT ?2`,
			)
			.bind(cutoff, limit),
		db
			.prepare(
				`SELECT id, r2_key FROM print_files WHERE expired_at IS NOT NULL AND purged_at IS NULL AND expired_at <= ?2
				  ORDER BY expired_at LIMIT ?1`,
			)
			.bind(limit, now),
	]);
	return {
		due: ((due?.results ?? []) as Pick<PrintFileRow, "id">[]).map((row) => row.id),
		awaitingPurge: (awaiting?.results ?? []) as SweptFile[],
	};
}

/**
 * In one batch: expires each of `ids` that nothing holds past `cutoff` (its clock and every release no
 * later), and moves the clock of the others to their latest release, so each is looked at again only
 * when that release is old enough. Returns the files expired.
 */
export async function expireOrPostpone(
	db: D1Database,
	ids: ReadonlyArray<string>,
	releases: ReadonlyArray<FileRelease>,
	at: { now: string; cutoff: string },
): Promise<SweptFile[]> {
	if (ids.length === 0) return [];
	const idList = ids.map((_, index) => `?${index + 3}`).join(", ");
	// '' sorts before every time: a use that does not exist releases nothing.
	const latest = `MAX(retention_clock, ${releases.map((release) => `COALESCE(${release}, '')`).join(", ")})`;
	const [expired] = await db.batch([
		db
			.prepare(
				`UPDATE print_files SET expired_at = ?1
				  WHERE id IN (${idList}) AND expired_at IS NULL AND ${latest} <= ?2
				  RETURNING id, r2_key`,
			)
			.bind(at.now, at.cutoff, ...ids),
		db
			.prepare(`UPDATE print_files SET retention_clock = ${latest} WHERE id IN (${idList}) AND expired_at IS NULL`)
			.bind(at.now, at.cutoff, ...ids),
	]);
	return (expired?.results ?? []) as SweptFile[];
}

/** Records that the objects of `ids` are gone from R2. */
export async function markPurged(db: D1Database, ids: ReadonlyArray<string>, now: string): Promise<void> {
	if (ids.length === 0) return;
	const idList = ids.map((_, index) => `?${index + 2}`).join(", ");
	await db
		.prepare(`UPDATE print_files SET purged_at = ?1 WHERE id IN (${idList}) AND purged_at IS NULL`)
		.bind(now, ...ids)
		.run();
}
