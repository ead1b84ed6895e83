import type { Context } from "hono";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import type { Principal } from "../accounts/store.ts";
import type { Bookmarks } from "../database-sessions.ts";
import { ApiError } from "../http/errors.ts";
import type { Authorization, RateLimiter } from "./rate-limiter.do.ts";
import type { RequestDecision } from "./sliding-window.ts";
import type { BucketDecision } from "./token-bucket.ts";

const MINUTE_MS = 60_000;

/** The limiter of the key with this hash (a SHA-256 hex digest; the raw key never leaves the request). */
function limiterFor(env: Env, keyHash: string): DurableObjectStub<RateLimiter> {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyHash));
}

/**
 * One round trip to the key's limiter: its principal (held there, read from D1 only when it is not)
 * and the request counted against the key's limits, and for an order create the order bucket too.
 */
export function authorizeKey(env: Env, keyHash: string, orderCreate: boolean): Promise<Authorization> {
	return limiterFor(env, keyHash).authorize(keyHash, MINUTE_MS, orderCreate);
}

/**
 * After a request of the key that may have written to `bindings`' databases: its limiter notes where their
 * primaries got to (one more round trip, writes only) and returns every bookmark it holds for the key.
 */
export function noteKeyWrites(env: Env, keyHash: string, bindings: readonly string[]): Promise<Bookmarks> {
	return limiterFor(env, keyHash).noteWrites(bindings);
}

/**
 * Makes the keys' limiters read their rows again on their next request: after a revocation, a limit
 * change or anything else that changes what a key may do. Waits for every limiter, so the change is
 * in force when this returns.
 */
export async function forgetKeys(env: Env, keyHashes: readonly string[]): Promise<void> {
	await Promise.all(keyHashes.map((keyHash) => limiterFor(env, keyHash).forget()));
}

/**
 * Applies what the limiter counted: the X-RateLimit-* headers (on every counted request, errors
 * included), the request limit's 429 with `Retry-After`, and the order bucket's 429 naming it.
 */
export function applyDecisions(
	c: Context<AuthedEnv>,
	principal: Principal,
	request: RequestDecision,
	order: BucketDecision | null,
): void {
	c.header("X-RateLimit-Limit", String(request.limit));
	c.header("X-RateLimit-Remaining", String(request.remaining));
	c.header("X-RateLimit-Reset", String(request.resetAt));
	if (!request.allowed) {
		throw new ApiError(
			"rate_limit_exceeded",
			`Request limit of ${request.limit} per minute for this API key exceeded; retry after ${request.retryAfterSeconds} s.`,
			undefined,
			{ "Retry-After": String(request.retryAfterSeconds) },
		);
	}
	if (order === null || order.allowed) return;
	const { limits } = principal;
	throw new ApiError(
		"order_rate_limit_exceeded",
		`Order creation limit exceeded (${limits.ordersPerSecond} per second, burst of ${limits.orderBurst}); retry after ${order.retryAfterSeconds} s.`,
		undefined,
		{ "Retry-After": String(order.retryAfterSeconds) },
	);
}
