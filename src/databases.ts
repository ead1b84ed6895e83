/**
 * The one place that picks a D1 database. Each store is handed its database by the owner of the rows:
 * an account's rows live in the database its range of account ids names (the ACCOUNT_DATABASES
 * setting), the directory (accounts, keys, webhook secrets, console sessions) and the price books'
 * source in DB. Today every range names DB; spreading accounts over several databases is then a
 * change of that setting and of wrangler.toml's bindings, not of the code (docs/architecture.md).
 * A leaf: nothing else reads the DB binding (test/architecture/database-seam.test.ts holds that).
 */
import { z } from "zod";
import { ConfigError, configOf } from "./config.ts";

/** A value that answers D1's calls: a binding, or the cost tracer's wrapper of one. */
const D1Binding = z.custom<D1Database>(
	(value) => typeof value === "object" && value !== null && "prepare" in value && "batch" in value,
);

/** The ranges resolved to their bindings, and every distinct database, the directory first. */
type Placement = { ranges: { from: string; database: D1Database }[]; every: D1Database[] };

const placements = new WeakMap<object, Placement>();

/** The database of the directory: accounts and their keys, webhook secrets, console sessions, price books. */
export function directoryDatabase(env: Env): D1Database {
	return env.DB;
}

/** The database holding `accountId`'s rows (orders, files, events, claims, ledger, ...). */
export function databaseOf(env: Env, accountId: string): D1Database {
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
	return placementOf(env).every;
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
	const bindings = env as unknown as Record<string, unknown>;
	const byBinding = new Map<string, D1Database>([["DB", env.DB]]);
	const ranges = configOf(env).ACCOUNT_DATABASES.map(({ from, binding }) => {
		let database = byBinding.get(binding);
		if (database === undefined) {
			const parsed = D1Binding.safeParse(bindings[binding]);
			if (!parsed.success) {
				throw new ConfigError(`ACCOUNT_DATABASES names ${binding}, which is not a D1 binding of this Worker`);
			}
			database = parsed.data;
			byBinding.set(binding, database);
		}
		return { from, database };
	});
	const placement = { ranges, every: [...byBinding.values()] };
	placements.set(env, placement);
	return placement;
}
