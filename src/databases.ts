/**
 * The one place that picks a D1 database. Each store is handed its database by the owner of the rows:
 * an account's rows live in the database its range of account ids names (the ACCOUNT_DATABASES
 * setting), the directory (accounts, keys, webhook secrets, console sessions) and the price books'
 * source in DB. Today every range names DB; spreading accounts over several databases is then a
 * change of that setting and of wrangler.toml's bindings, not of the code (docs/architecture.md).
 * An account moved away from its range (src/account-moves/) has a row in the directory's
 * `account_placements`, naming its binding: each isolate keeps them all, read again by `refreshPlacements`
 * (awaited at every entry: a request, a queue batch, the cron, an order's Durable Object) once they are
 * PLACEMENT_TTL_SECONDS old, so that `databaseOf` stays a synchronous choice.
 * A leaf: nothing else reads the DB binding (test/architecture/database-seam.test.ts holds that).
 */
import { z } from "zod";
import { ConfigError, configOf } from "./config.ts";

/** A value that answers D1's calls: a binding, or the cost tracer's wrapper of one. */
const D1Binding = z.custom<D1Database>(
	(value) => typeof value === "object" && value !== null && "prepare" in value && "batch" in value,
);

/** The ranges resolved to their bindings, and every distinct database, the directory first. */
type Placement = {
	ranges: { from: string; database: D1Database }[];
	every: D1Database[];
	byBinding: Map<string, D1Database>;
};

const placements = new WeakMap<object, Placement>();

/**
 * The accounts placed away from their range (account id → binding name), where their copy left that
 * database (account id → D1 bookmark), and when they were read (ms).
 */
type MovedAccounts = { bindings: ReadonlyMap<string, string>; bookmarks: ReadonlyMap<string, string>; readAt: number };

/** This isolate's copy of the directory's placements: bindings by name, so that every env resolves them. */
let moved: MovedAccounts = { bindings: new Map(), bookmarks: new Map(), readAt: Number.NEGATIVE_INFINITY };

/**
 * Reads the moved accounts' placements from the directory when this isolate's copy is older than
 * PLACEMENT_TTL_SECONDS (or was forgotten): awaited at every entry before anything calls databaseOf.
 */
export async function refreshPlacements(env: Env, now = Date.now()): Promise<void> {
	// The OpenAPI document's build runs the app in Node without bindings: no directory, nothing placed.
	if (env?.DB === undefined) return;
	if (now - moved.readAt < configOf(env).PLACEMENT_TTL_SECONDS * 1000) return;
	const { results } = await directoryDatabase(env)
		.prepare("SELECT account_id, binding, bookmark FROM account_placements")
		.all<{ account_id: string; binding: string; bookmark: string | null }>();
	moved = {
		bindings: new Map(results.map((row) => [row.account_id, row.binding])),
		bookmarks: new Map(
			results.flatMap((row) => (row.bookmark === null ? [] : [[row.account_id, row.bookmark] as const])),
		),
		readAt: now,
	};
}

/**
 * Makes the next refreshPlacements read the directory again: after a database refused a write because
 * the account is moving (its placement here may be the old one), and after a move's switch in this isolate.
 */
export function forgetPlacements(): void {
	moved = { ...moved, readAt: Number.NEGATIVE_INFINITY };
}

/**
 * The statement placing `accountId` in `binding` in the directory: a move's switch, in the batch that
 * records it, with where the copy left that database (`bookmark`, null when D1 gave none).
 */
export function placementStatement(
	env: Env,
	accountId: string,
	binding: string,
	bookmark: string | null,
	now: Date,
): D1PreparedStatement {
	return directoryDatabase(env)
		.prepare(
			`INSERT INTO account_placements (account_id, binding, moved_at, bookmark) VALUES (?1, ?2, ?3, ?4)
			 ON CONFLICT (account_id) DO UPDATE SET binding = excluded.binding, moved_at = excluded.moved_at,
			   bookmark = excluded.bookmark`,
		)
		.bind(accountId, binding, now.toISOString(), bookmark);
}

/**
 * Where the copy of a moved account's rows left its database ({binding: bookmark}; empty for an account
 * never moved): its reads' sessions start no earlier, so no replica behind the copy answers them.
 */
export function placementBookmarks(accountId: string): Readonly<Record<string, string>> {
	const binding = moved.bindings.get(accountId);
	const bookmark = moved.bookmarks.get(accountId);
	return binding === undefined || bookmark === undefined ? {} : { [binding]: bookmark };
}

/** Whether `error` is a database's fence refusing a write of an account that is moving (migration 0044's triggers). */
export function isAccountMoving(error: unknown): boolean {
	return error instanceof Error && /\baccount_moving\b/.test(error.message);
}

/** The binding (by name) whose database holds `accountId`'s rows: its placement's, else its range's. */
export function bindingOf(env: Env, accountId: string): string {
	const placed = moved.bindings.get(accountId);
	if (placed !== undefined) return placed;
	let chosen = "DB";
	for (const { from, binding } of configOf(env).ACCOUNT_DATABASES) {
		if (from > accountId) break;
		chosen = binding;
	}
	return chosen;
}

/** The bindings ACCOUNT_DATABASES names, each once, DB first: where accounts' rows may live. */
export function accountBindings(env: Env): string[] {
	return [...new Set(["DB", ...configOf(env).ACCOUNT_DATABASES.map(({ binding }) => binding)])];
}

/** The D1 database of `binding` in this environment (one ACCOUNT_DATABASES names, or another D1 binding of the Worker). */
export function databaseNamed(env: Env, binding: string): D1Database {
	const known = placementOf(env).byBinding.get(binding);
	if (known !== undefined) return known;
	return d1Binding(env, binding, "a placement");
}

/** The database of the directory: accounts and their keys, webhook secrets, console sessions, price books. */
export function directoryDatabase(env: Env): D1Database {
	return env.DB;
}

/** The database holding `accountId`'s rows (orders, files, events, claims, ledger, ...). */
export function databaseOf(env: Env, accountId: string): D1Database {
	const placed = moved.bindings.get(accountId);
	if (placed !== undefined) return databaseNamed(env, placed);
	const { ranges } = placementOf(env);
	let chosen = ranges[0]?.database ?? env.DB;
	for (const range of ranges) {
		if (range.from > accountId) break;
		chosen = range.database;
	}
	return chosen;
}

/**
 * Every database that holds accounts' rows, each once, the directory's first: what the readers across
 * accounts (the floor's queue, the claims to decide, the cron's sweeps) fan out over.
 */
export function everyDatabase(env: Env): readonly D1Database[] {
	const { every, byBinding } = placementOf(env);
	const placedElsewhere = [...new Set(moved.bindings.values())].filter((binding) => !byBinding.has(binding));
	if (placedElsewhere.length === 0) return every;
	return [...every, ...new Set(placedElsewhere.map((binding) => databaseNamed(env, binding)))];
}

/**
 * What `find` finds in the first database that has it (by the order of everyDatabase), or null: for
 * an id that arrives without its owner (an order's, a claim's, a file's, a delivery's). With one
 * database this is that database's one read; with several, one read each, side by side.
 */
export async function findInEveryDatabase<T>(
	env: Env,
	find: (database: D1Database) => Promise<T | null>,
): Promise<T | null> {
	const databases = everyDatabase(env);
	if (databases.length === 1 && databases[0] !== undefined) return find(databases[0]);
	const found = await Promise.all(databases.map(find));
	return found.find((each) => each !== null) ?? null;
}

/**
 * A page read from every database and merged in the page's order (`inOrder`): each database gives its
 * first `limit` after the cursor, so the first `limit` of them all are the page. Its other fields are
 * the first database's (the directory's). With one database, that database's page as it read it.
 */
export async function pageFromEveryDatabase<T, R extends { page: T[]; more: boolean }>(
	env: Env,
	limit: number,
	read: (database: D1Database) => Promise<R>,
	inOrder: (a: T, b: T) => number,
): Promise<R> {
	const [first, ...others] = await Promise.all(everyDatabase(env).map(read));
	if (first === undefined) throw new Error("no database to read");
	if (others.length === 0) return first;
	const merged = [first, ...others].flatMap((each) => each.page).sort(inOrder);
	const more = merged.length > limit || first.more || others.some((each) => each.more);
	return { ...first, page: merged.slice(0, limit), more };
}

/**
 * What `read` answers for each of `accountIds`, in their order, each account asked of its own database
 * (all of one database's accounts in one call).
 */
export async function readByAccountDatabase<T>(
	env: Env,
	accountIds: readonly string[],
	read: (database: D1Database, accountIds: string[]) => Promise<T[]>,
): Promise<T[]> {
	const groups = new Map<D1Database, string[]>();
	for (const accountId of accountIds) {
		const database = databaseOf(env, accountId);
		groups.set(database, [...(groups.get(database) ?? []), accountId]);
	}
	const answered = new Map<string, T>();
	await Promise.all(
		[...groups].map(async ([database, ids]) => {
			const values = await read(database, ids);
			ids.forEach((id, index) => {
				const value = values[index];
				if (value !== undefined) answered.set(id, value);
			});
		}),
	);
	return accountIds.flatMap((id) => {
		const value = answered.get(id);
		return value === undefined ? [] : [value];
	});
}

/** (created_at, id) ascending: the order of the floor's queue and the claims to decide. */
export function byCreatedAtThenId(
	a: { created_at: string; id: string },
	b: { created_at: string; id: string },
): number {
	if (a.created_at !== b.created_at) return a.created_at < b.created_at ? -1 : 1;
	return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/** The placement of this environment's accounts, resolved once per environment object. */
function placementOf(env: Env): Placement {
	const known = placements.get(env);
	if (known !== undefined) return known;
	const byBinding = new Map<string, D1Database>([["DB", env.DB]]);
	const ranges = configOf(env).ACCOUNT_DATABASES.map(({ from, binding }) => {
		let database = byBinding.get(binding);
		if (database === undefined) {
			database = d1Binding(env, binding, "ACCOUNT_DATABASES");
			byBinding.set(binding, database);
		}
		return { from, database };
	});
	const placement = { ranges, every: [...byBinding.values()], byBinding };
	placements.set(env, placement);
	return placement;
}

/** The D1 binding named `binding` in `env`, or a ConfigError naming `namedBy` (who asked for it). */
function d1Binding(env: Env, binding: string, namedBy: string): D1Database {
	const parsed = D1Binding.safeParse((env as unknown as Record<string, unknown>)[binding]);
	if (!parsed.success) throw new ConfigError(`${namedBy} names ${binding}, which is not a D1 binding of this Worker`);
	return parsed.data;
}
