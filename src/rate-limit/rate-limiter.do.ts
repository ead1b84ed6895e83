import { DurableObject } from "cloudflare:workers";
import { keyHasExpired, keyUseIsDue } from "../accounts/key-life.ts";
import { keyScopeProblem } from "../accounts/scopes.ts";
import { findKeyByHash, type Principal } from "../accounts/store.ts";
import { type Bookmarks, primaryBookmarks } from "../database-sessions.ts";
import { directoryDatabase } from "../databases.ts";
import { PRINCIPAL_TTL_MS } from "./principal-hold.ts";
import { decideRequest, type RequestDecision } from "./sliding-window.ts";
import { type BucketDecision, type BucketState, takeToken } from "./token-bucket.ts";

/** The key's standing as its row says: a principal, revoked, or unknown. */
type Standing = Principal | "revoked" | null;

/** What authorizing a request came to: refused for its key, or admitted (or not) by the limits. */
export type Authorization =
	| { kind: "unknown" }
	| { kind: "revoked" }
	/** Past its expiry: refused, not counted. */
	| { kind: "expired" }
	/** A test-mode key holding a live-only scope (a row from before that rule): refused, not counted. */
	| { kind: "scope_refused"; problem: string }
	| {
			kind: "counted";
			principal: Principal;
			request: RequestDecision;
			order: BucketDecision | null;
			/** Whether this request should write the key's last use (at most once per KEY_USE_RECORD_MINUTES). */
			recordUse: boolean;
			/** Where the key's last write left each database: its reads start there, so they show that write. */
			bookmarks: Bookmarks;
	  };

/**
 * One instance per API key (named by the key's hash). It holds the key's principal, loaded from D1
 * once and dropped on a revocation or a limit change (and after PRINCIPAL_TTL_MS), so a request is
 * authenticated and counted in one round trip; and the bookmark of the key's last write to each database,
 * handed out with the principal, so the key's reads through D1 sessions show its writes. The counting methods run their SQLite reads and
 * writes synchronously, with no await in between, so concurrent requests are counted exactly: none
 * is admitted over the limit.
 */
export class RateLimiter extends DurableObject<Env> {
	/** The key's standing and when it was read; a load under way is shared by every request that waits on it. */
	#standing: { value: Standing; loadedAt: number } | null = null;
	#loading: Promise<Standing> | null = null;
	/**
	 * How many requests the log holds, kept beside it: counting the log on every request would read the
	 * whole window (a key allowed 10,000 a minute, using them, would read 10,000 rows per request). Only
	 * this instance writes the log, so the count is read from it once, when the instance starts, and then
	 * follows every insert and prune; an instance reset after a failed commit starts over from storage.
	 */
	#logged: number | null = null;

	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.storage.sql.exec(`
			CREATE TABLE IF NOT EXISTS request_log (at INTEGER NOT NULL);
			CREATE INDEX IF NOT EXISTS request_log_at ON request_log (at);
			CREATE TABLE IF NOT EXISTS order_bucket (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				tokens REAL NOT NULL,
				updated_at INTEGER NOT NULL
			);
			CREATE TABLE IF NOT EXISTS bookmarks (binding TEXT PRIMARY KEY, bookmark TEXT NOT NULL);`);
	}

	/**
	 * Authenticates the request of the key with this hash and counts it: the request limit, and for an
	 * order create by a key that may create orders, the order bucket. An unknown, revoked or refused key
	 * is not counted.
	 */
	async authorize(keyHash: string, windowMs: number, orderCreate: boolean): Promise<Authorization> {
		const standing = await this.#standingOf(keyHash);
		if (standing === null) return { kind: "unknown" };
		if (standing === "revoked") return { kind: "revoked" };
		const now = new Date();
		// Checked on every request, not when the principal is loaded: a held principal outlives its key's expiry.
		if (keyHasExpired(standing.expiresAt, now)) return { kind: "expired" };
		const problem = keyScopeProblem(standing.mode, standing.scopes);
		if (problem !== null) return { kind: "scope_refused", problem };
		const { limits } = standing;
		// The held principal remembers the use it reports, so the next requests of this window write nothing.
		const recordUse = keyUseIsDue(standing.lastUsedAt, now);
		if (recordUse) standing.lastUsedAt = now.toISOString();
		// From here on synchronous: the counts are exact under concurrency.
		if (orderCreate && standing.scopes.includes("orders:write")) {
			const both = this.hitRequestAndTakeOrderToken(
				limits.requestsPerMinute,
				windowMs,
				limits.ordersPerSecond,
				limits.orderBurst,
			);
			return { kind: "counted", principal: standing, ...both, recordUse, bookmarks: this.#bookmarks() };
		}
		return {
			kind: "counted",
			principal: standing,
			request: this.hitRequest(limits.requestsPerMinute, windowMs),
			order: null,
			recordUse,
			bookmarks: this.#bookmarks(),
		};
	}

	/**
	 * After a request of this key that may have written: asks each named database's primary where it is
	 * (past that write, whether the request or a Durable Object it called made it), keeps the later of that
	 * and what is held, and returns every bookmark held. Runs before the answer goes out.
	 */
	async noteWrites(bindings: readonly string[]): Promise<Bookmarks> {
		const reached = await primaryBookmarks(this.env, bindings);
		const sql = this.ctx.storage.sql;
		for (const [binding, bookmark] of Object.entries(reached)) {
			// Bookmarks sort as text from oldest to newest: a slower request's older one never wins.
			sql.exec(
				"INSERT INTO bookmarks (binding, bookmark) VALUES (?1, ?2) ON CONFLICT (binding) DO UPDATE SET bookmark = max(bookmark, excluded.bookmark)",
				binding,
				bookmark,
			);
		}
		return this.#bookmarks();
	}

	#bookmarks(): Bookmarks {
		const rows = this.ctx.storage.sql.exec<{ binding: string; bookmark: string }>(
			"SELECT binding, bookmark FROM bookmarks",
		);
		return Object.fromEntries(rows.toArray().map(({ binding, bookmark }) => [binding, bookmark]));
	}

	/** Drops the principal held here: the next request reads the key's row again. */
	forget(): void {
		this.#standing = null;
		this.#loading = null;
	}

	async #standingOf(keyHash: string): Promise<Standing> {
		const held = this.#standing;
		if (held !== null && Date.now() - held.loadedAt < PRINCIPAL_TTL_MS) return held.value;
		if (this.#loading === null) {
			const loading = findKeyByHash(directoryDatabase(this.env), keyHash);
			this.#loading = loading;
			const loadedAt = Date.now();
			try {
				const value = await loading;
				// A `forget` while this load was under way wins: what it read may be from before the change.
				if (this.#loading === loading) this.#standing = { value, loadedAt };
				return value;
			} finally {
				if (this.#loading === loading) this.#loading = null;
			}
		}
		return this.#loading;
	}

	/** Counts one request against `limit` per rolling `windowMs`, admitting it only if there is room. */
	hitRequest(limit: number, windowMs: number): RequestDecision {
		const sql = this.ctx.storage.sql;
		const now = Date.now();
		// The expired entries, one index range; each entry is deleted once, so this is a request's own cost.
		const pruned = sql.exec("DELETE FROM request_log WHERE at <= ? RETURNING 1", now - windowMs).toArray().length;
		const count =
			this.#logged === null
				? sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n
				: this.#logged - pruned;
		this.#logged = count;
		const oldestAt = count === 0 ? null : sql.exec<{ at: number }>("SELECT min(at) AS at FROM request_log").one().at;
		const freesSlotAt =
			count < limit
				? null
				: sql.exec<{ at: number }>("SELECT at FROM request_log ORDER BY at LIMIT 1 OFFSET ?", count - limit).one().at;
		const decision = decideRequest({ count, oldestAt, freesSlotAt }, limit, windowMs, now);
		if (decision.allowed) {
			sql.exec("INSERT INTO request_log (at) VALUES (?)", now);
			this.#logged = count + 1;
		}
		return decision;
	}

	/**
	 * An order create's two limits in one call (one round trip, one storage commit): the request is
	 * counted first, and a token is taken only for a request that was admitted.
	 */
	hitRequestAndTakeOrderToken(
		limit: number,
		windowMs: number,
		ratePerSecond: number,
		burst: number,
	): { request: RequestDecision; order: BucketDecision | null } {
		const request = this.hitRequest(limit, windowMs);
		return { request, order: request.allowed ? this.takeOrderToken(ratePerSecond, burst) : null };
	}

	/** Takes one token from the order-creation bucket (`ratePerSecond` sustained, `burst` at once). */
	takeOrderToken(ratePerSecond: number, burst: number): BucketDecision {
		const sql = this.ctx.storage.sql;
		const stored = sql
			.exec<{ tokens: number; updated_at: number }>("SELECT tokens, updated_at FROM order_bucket")
			.toArray()[0];
		const previous: BucketState | null =
			stored === undefined ? null : { tokens: stored.tokens, updatedAt: stored.updated_at };
		const decision = takeToken(previous, ratePerSecond, burst, Date.now());
		sql.exec(
			"INSERT INTO order_bucket (id, tokens, updated_at) VALUES (1, ?1, ?2) ON CONFLICT (id) DO UPDATE SET tokens = ?1, updated_at = ?2",
			decision.state.tokens,
			decision.state.updatedAt,
		);
		return decision;
	}
}
