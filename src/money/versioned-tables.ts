/**
 * The service team's versioned tables (exchange-rate sheets, landed-cost tables): published whole,
 * never changed, each from its effective time on. The one in force at an instant is the newest version
 * of the latest effective time not after it. Each isolate keeps the few versions it parsed, answered
 * only when the stored text is exactly the text parsed.
 */
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";

type VersionRow = { version: number; effective_at: string; published_at: string; body: string };

/** A versioned table stored in `table`, its JSON in `column`, each version parsed by `parse`. */
export type VersionedTable<T> = {
	inForceRead: (db: D1Database, at: Date) => BatchedRead<T | null>;
	inForce: (db: D1Database, at: Date) => Promise<T | null>;
	version: (db: D1Database, version: number) => Promise<T | null>;
	publish: (db: D1Database, body: object, effectiveAt: Date, now: Date, as?: number) => Promise<T>;
};

const KEPT = 8;

export function versionedTable<T>(
	table: "exchange_rate_sheets" | "landed_cost_tables",
	column: "sheet" | "body",
	parse: (value: unknown) => T,
): VersionedTable<T> {
	const parsed = new Map<number, { text: string; value: T }>();
	const columns = `version, effective_at, published_at, ${column} AS body`;
	function parsedOf(row: VersionRow): T {
		const text = `${row.effective_at}|${row.published_at}|${row.body}`;
		const kept = parsed.get(row.version);
		if (kept !== undefined && kept.text === text) return kept.value;
		const value = parse({
			...(JSON.parse(row.body) as object),
			version: row.version,
			effective_at: row.effective_at,
			published_at: row.published_at,
		});
		parsed.delete(row.version);
		parsed.set(row.version, { text, value });
		for (const version of parsed.keys()) {
			if (parsed.size <= KEPT) break;
			parsed.delete(version);
		}
		return value;
	}
	const inForceRead = (db: D1Database, at: Date): BatchedRead<T | null> =>
		rowRead(
			db
				.prepare(
					`SELECT ${columns} FROM ${table} WHERE effective_at <= ?1 ORDER BY effective_at DESC, version DESC LIMIT 1`,
				)
				.bind(at.toISOString()),
			(row: VersionRow | null) => (row === null ? null : parsedOf(row)),
		);
	return {
		inForceRead,
		inForce: (db, at) => readOne(db, inForceRead(db, at)),
		async version(db, version) {
			const row = await db
				.prepare(`SELECT ${columns} FROM ${table} WHERE version = ?1`)
				.bind(version)
				.first<VersionRow>();
			return row === null ? null : parsedOf(row);
		},
		async publish(db, body, effectiveAt, now, as) {
			// One statement: two admins publishing at once get two versions. `as` copies a version the
			// directory numbered into another database under the same number.
			const row = await db
				.prepare(
					`INSERT INTO ${table} (version, effective_at, published_at, ${column})
					 SELECT COALESCE(?4, (SELECT COALESCE(MAX(version), 0) + 1 FROM ${table})), ?1, ?2, ?3
					 RETURNING ${columns}`,
				)
				.bind(effectiveAt.toISOString(), now.toISOString(), JSON.stringify(body), as ?? null)
				.first<VersionRow>();
			if (row === null) throw new Error(`publishing into ${table} returned no row`);
			return parsedOf(row);
		},
	};
}
