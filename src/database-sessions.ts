/**
 * Reads near the caller through D1's sessions. A session's reads may be answered by a read replica, but
 * never one older than the bookmark the session starts from, and a write through it goes to the primary.
 * A caller's requests start from the last bookmark of their own writes (the key's limiter or the console's
 * cookie carries it), so a caller always reads what they wrote; with no bookmark the first read may go
 * anywhere. The stores are unchanged: a request hands them an environment whose D1 bindings answer
 * through its sessions, and the database seam (databases.ts) resolves bindings by name from it.
 * A leaf like databases.ts: it imports only the settings.
 */
import { envWithBindings } from "./config.ts";

/** A bookmark of each database, by the name of its binding. */
export type Bookmarks = Readonly<Record<string, string>>;

/** D1's bookmark: four hex groups. They sort as text from oldest to newest. */
const BOOKMARK = /^[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{8}-[0-9a-f]{32}$/;
const BINDING = /^[A-Z][A-Z0-9_]{0,63}$/;
/** More databases than a Worker binds: a longer token is not one this service wrote. */
const MOST_CARRIED = 32;

/** A value that can open a session: a D1 binding, or the cost tracer's wrapper of one. */
function isD1(value: unknown): value is D1Database {
	return (
		typeof value === "object" &&
		value !== null &&
		"prepare" in value &&
		"batch" in value &&
		"withSession" in value &&
		typeof value.withSession === "function"
	);
}

/** The Worker's D1 bindings by name. */
function d1BindingsOf(env: Env): Map<string, D1Database> {
	return new Map(
		Object.entries(env as unknown as Record<string, unknown>).flatMap(([name, value]) =>
			isD1(value) ? [[name, value] as const] : [],
		),
	);
}

/** The later bookmark of each database that either names. */
export function laterBookmarks(first: Bookmarks, second: Bookmarks): Bookmarks {
	const later: Record<string, string> = { ...first };
	for (const [binding, bookmark] of Object.entries(second)) {
		const known = later[binding];
		if (known === undefined || bookmark > known) later[binding] = bookmark;
	}
	return later;
}

/** Bookmarks as the one opaque token a caller carries: `DB:<bookmark>,DB_2:<bookmark>`. */
export function bookmarkToken(bookmarks: Bookmarks): string {
	return Object.entries(bookmarks)
		.sort(([a], [b]) => (a < b ? -1 : 1))
		.map(([binding, bookmark]) => `${binding}:${bookmark}`)
		.join(",");
}

/**
 * The bookmarks a carried token names, or null when it is not a token this service writes. A database
 * this Worker does not bind is left out (a token from before a database was removed still reads).
 */
export function bookmarksOfToken(env: Env, token: string): Bookmarks | null {
	const parts = token.split(",").map((part) => part.trim());
	if (parts.length > MOST_CARRIED) return null;
	const bindings = d1BindingsOf(env);
	const bookmarks: Record<string, string> = {};
	for (const part of parts) {
		const [binding, bookmark, extra] = part.split(":");
		if (binding === undefined || bookmark === undefined || extra !== undefined) return null;
		if (!BINDING.test(binding) || !BOOKMARK.test(bookmark)) return null;
		if (bindings.has(binding)) bookmarks[binding] = bookmark;
	}
	return bookmarks;
}

/**
 * Statements that may write: a conservative reading of the SQL (a read naming one of these words as a word,
 * not inside a name like `updated_at`, only costs the note of a write that did not happen).
 */
const WRITING_SQL = /\b(INSERT|UPDATE|DELETE|REPLACE|UPSERT|CREATE|DROP|ALTER)\b/i;

/** A Durable Object namespace binding: its objects may write to D1 on the request's behalf. */
function isDurableObjectNamespace(value: unknown): value is DurableObjectNamespace {
	return typeof value === "object" && value !== null && "idFromName" in value && "get" in value;
}

/** A request's sessions: the environment whose D1 bindings answer through them, and where they got to. */
export type ReadSessions = {
	env: Env;
	/** Each database's latest bookmark: where its session got to, or where it was to start. */
	bookmarks(): Bookmarks;
	/**
	 * The databases the request may have written to, or none: those it prepared a writing statement for,
	 * and, when it called a Durable Object (which writes through its own binding, outside these sessions),
	 * those it queried and those of `owners` (a session's database or the original).
	 */
	writtenTo(owners: readonly D1Database[]): string[];
};

/**
 * `env` with each D1 binding answering through a session that starts at `from`'s bookmark for it (or
 * anywhere, without one), and its Durable Object namespaces noting that they were called. A session
 * opens on the binding's first query: a request that reads nothing from a database opens none.
 */
export function openReadSessions(env: Env, from: Bookmarks): ReadSessions {
	const sessions = new Map<string, D1DatabaseSession>();
	const names = new Map<D1Database, string>();
	const replaced: Record<string, unknown> = {};
	const written = new Set<string>();
	let calledDurableObject = false;
	for (const [binding, database] of d1BindingsOf(env)) {
		const start = from[binding];
		const session = (): D1DatabaseSession => {
			let open = sessions.get(binding);
			if (open === undefined) {
				open = database.withSession(start ?? "first-unconstrained");
				sessions.set(binding, open);
			}
			return open;
		};
		const wrapped = {
			prepare: (query: string) => {
				if (WRITING_SQL.test(query)) written.add(binding);
				return session().prepare(query);
			},
			batch: <T>(statements: D1PreparedStatement[]) => session().batch<T>(statements),
			// Whole scripts (migrations) are no request's business: they go to the binding itself.
			exec: (query: string) => database.exec(query),
			withSession: (constraintOrBookmark?: string) => database.withSession(constraintOrBookmark),
			dump: () => database.dump(),
		} as unknown as D1Database;
		replaced[binding] = wrapped;
		names.set(database, binding);
		names.set(wrapped, binding);
	}
	for (const [name, value] of Object.entries(env as unknown as Record<string, unknown>)) {
		if (!isDurableObjectNamespace(value)) continue;
		replaced[name] = new Proxy(value, {
			get(target, property) {
				if (property === "get" || property === "getByName") calledDurableObject = true;
				const member: unknown = Reflect.get(target, property);
				return typeof member === "function" ? member.bind(target) : member;
			},
		});
	}
	return {
		env: envWithBindings(env, replaced),
		bookmarks: () => {
			const reached: Record<string, string> = {};
			for (const [binding, session] of sessions) {
				const bookmark = session.getBookmark();
				if (bookmark !== null) reached[binding] = bookmark;
			}
			return laterBookmarks(from, reached);
		},
		writtenTo: (owners) => {
			if (!calledDurableObject) return [...written];
			const ownerBindings = owners.flatMap((database) => names.get(database) ?? []);
			return [...new Set([...written, ...sessions.keys(), ...ownerBindings])];
		},
	};
}

/**
 * The primary's current bookmark of each named database (one small read each, side by side, on the
 * primary): past every write committed there so far, by this request or by a Durable Object it called.
 * Names that are not D1 bindings of `env` are left out.
 */
export async function primaryBookmarks(env: Env, bindings: readonly string[]): Promise<Bookmarks> {
	const databases = d1BindingsOf(env);
	const read = await Promise.all(
		[...new Set(bindings)].map(async (binding) => {
			const database = databases.get(binding);
			if (database === undefined) return [];
			const session = database.withSession("first-primary");
			await session.prepare("SELECT 1").first();
			const bookmark = session.getBookmark();
			return bookmark === null ? [] : [[binding, bookmark] as const];
		}),
	);
	return Object.fromEntries(read.flat());
}
