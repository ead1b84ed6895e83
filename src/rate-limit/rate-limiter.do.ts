import { DurableObject } from "cloudflare:workers";
import { decideRequest, type RequestDecision } from "./sliding-window.ts";
import { type BucketDecision, type BucketState, takeToken } from "./token-bucket.ts";

/**
 * One instance per API key. Each method runs its SQLite reads and writes synchronously, with no
 * await in between, so concurrent requests are counted exactly: none is admitted over the limit.
 */
export class RateLimiter extends DurableObject<Env> {
	constructor(ctx: DurableObjectState, env: Env) {
		super(ctx, env);
		ctx.storage.sql.exec(`
			CREATE TABLE IF NOT EXISTS request_log (at INTEGER NOT NULL);
			CREATE INDEX IF NOT EXISTS request_log_at ON request_log (at);
			CREATE TABLE IF NOT EXISTS order_bucket (
				id INTEGER PRIMARY KEY CHECK (id = 1),
				tokens REAL NOT NULL,
				updated_at INTEGER NOT NULL
			);`);
	}

	/** Counts one request against `limit` per rolling `windowMs`, admitting it only if there is room. */
	hitRequest(limit: number, windowMs: number): RequestDecision {
		const sql = this.ctx.storage.sql;
		const now = Date.now();
		sql.exec("DELETE FROM request_log WHERE at <= ?", now - windowMs);
		const count = sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		const oldestAt = count === 0 ? null : sql.exec<{ at: number }>("SELECT min(at) AS at FROM request_log").one().at;
		const freesSlotAt =
			count < limit
				? null
				: sql.exec<{ at: number }>("SELECT at FROM request_log ORDER BY at LIMIT 1 OFFSET ?", count - limit).one().at;
		const decision = decideRequest({ count, oldestAt, freesSlotAt }, limit, windowMs, now);
		if (decision.allowed) sql.exec("INSERT INTO request_log (at) VALUES (?)", now);
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
