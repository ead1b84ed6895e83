/**
 * The service team's versioned tables (exchange-rate sheets, landed-cost tables): published whole,
 * never changed, each from its effective time on. The one in force at an instant is the newest version
 * of the latest effective time not after it. Each isolate keeps the few versions it parsed, answered
 * only when the stored text is exactly the text parsed.
 */
import { z } from "@hono/zod-openapi";
import { directoryDatabase, everyDatabase } from "../databases.ts";
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";

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

/** How far back and ahead an effective time may be set, from the moment of publishing. */
export const EFFECTIVE_AT_WINDOW = { pastMs: 5 * 60_000, aheadMs: 366 * 86_400_000 } as const;

/** A version's effective time as an admin sends it: ISO 8601 with its offset, read as an instant. */
export const EffectiveAtSchema = z.iso
	.datetime({ offset: true, message: "must be an ISO 8601 time with its offset, such as 2026-11-01T00:00:00Z" })
	.openapi({
		description:
			"From when the version is in force: from now (at most 5 minutes back) to at most 366 days ahead. Amounts already priced keep the version they were priced at.",
		example: "2026-11-01T00:00:00.000Z",
	});

/**
 * Why `effectiveAt` cannot be published at `now`, or null. Back-dating would change what "in force
 * then" meant for what was priced since; further ahead than a year is a typo more often than a plan.
 */
export function effectiveAtRefusal(effectiveAt: Date, now: Date): Refusal | null {
	const earliest = new Date(now.getTime() - EFFECTIVE_AT_WINDOW.pastMs);
	const latest = new Date(now.getTime() + EFFECTIVE_AT_WINDOW.aheadMs);
	if (effectiveAt < earliest)
		return refusal(
			"effective_at_out_of_range",
			"effective_at",
			`effective_at ${effectiveAt.toISOString()} is in the past (the earliest now is ${earliest.toISOString()}): a version cannot change what was in force before it was published.`,
		);
	if (effectiveAt > latest)
		return refusal(
			"effective_at_out_of_range",
			"effective_at",
			`effective_at ${effectiveAt.toISOString()} is more than 366 days ahead (the latest now is ${latest.toISOString()}).`,
		);
	return null;
}

/** Which version a reader asks for: the one in force now, at a time, or a version by number. */
export const VersionedTableQuery = z.object({
	at: z.iso
		.datetime({ offset: true, message: "must be an ISO 8601 time with its offset, such as 2026-11-01T00:00:00Z" })
		.optional()
		.openapi({
			param: { name: "at", in: "query" },
			description: "The version in force at this time; now by default.",
			example: "2026-11-01T00:00:00Z",
		}),
	version: z.coerce
		.number()
		.int()
		.min(1)
		.optional()
		.openapi({
			param: { name: "version", in: "query" },
			description: "A version by its number (not with `at`).",
		}),
});
export type VersionedTableChoice = z.infer<typeof VersionedTableQuery>;

/**
 * The version `choice` asks for, from the directory's copy (every database holds the same versions),
 * or null when there is none; a refusal when it names both a time and a version.
 */
export async function versionChosen<T>(
	env: Env,
	table: VersionedTable<T>,
	choice: VersionedTableChoice,
	now: Date,
): Promise<{ ok: true; value: T | null } | Refusal> {
	const db = directoryDatabase(env);
	if (choice.version !== undefined) {
		if (choice.at !== undefined)
			return refusal("invalid_field", "at", "Ask for a time (`at`) or a version (`version`), not both.");
		return { ok: true, value: await table.version(db, choice.version) };
	}
	return { ok: true, value: await table.inForce(db, choice.at === undefined ? now : new Date(choice.at)) };
}

/** The refusal when `choice` finds no version of a `what`: on the field that asked, if one did. */
export function nothingChosen(
	code: "exchange_rates_not_found" | "landed_cost_table_not_found",
	what: string,
	choice: VersionedTableChoice,
): Refusal {
	if (choice.version !== undefined) return refusal(code, "version", `No ${what} version ${choice.version}.`);
	if (choice.at !== undefined) return refusal(code, "at", `No ${what} was in force at ${choice.at}.`);
	return refusalOf(code, `No ${what} is in force now.`);
}

/**
 * Publishes `body` in the directory, which numbers it, then the same version with the same published
 * time in every other database: quotes and orders read the table in their account's database.
 */
export async function publishToEveryDatabase<T extends { version: number; published_at: string }>(
	env: Env,
	table: VersionedTable<T>,
	body: object,
	effectiveAt: Date,
	now: Date,
): Promise<T> {
	const directory = directoryDatabase(env);
	const published = await table.publish(directory, body, effectiveAt, now);
	const at = new Date(published.published_at);
	await Promise.all(
		everyDatabase(env)
			.filter((database) => database !== directory)
			.map((database) => table.publish(database, body, effectiveAt, at, published.version)),
	);
	return published;
}
