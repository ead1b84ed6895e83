import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { ApiError } from "../http/errors.ts";
import type { RequestDecision } from "./sliding-window.ts";
import type { BucketDecision } from "./token-bucket.ts";

const MINUTE_MS = 60_000;

function limiterFor(env: Env, keyId: string): DurableObjectStub<import("./rate-limiter.do.ts").RateLimiter> {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyId));
}

/** Sets the X-RateLimit-* headers and throws the 429 when the request was refused. */
function applyRequestDecision(c: Context<AuthedEnv>, decision: RequestDecision): void {
	c.header("X-RateLimit-Limit", String(decision.limit));
	c.header("X-RateLimit-Remaining", String(decision.remaining));
	c.header("X-RateLimit-Reset", String(decision.resetAt));
	if (!decision.allowed) {
		throw new ApiError(
			"rate_limited",
			`Request limit of ${decision.limit} per minute for this API key exceeded; retry after ${decision.retryAfterSeconds} s.`,
			undefined,
			{ "Retry-After": String(decision.retryAfterSeconds) },
		);
	}
}

/** Throws the order-creation 429 when the bucket was empty. */
function applyOrderDecision(c: Context<AuthedEnv>, decision: BucketDecision): void {
	if (decision.allowed) return;
	const { limits } = c.var.principal;
	throw new ApiError(
		"rate_limited",
		`Order creation limit exceeded (${limits.ordersPerSecond} per second, burst of ${limits.orderBurst}); retry after ${decision.retryAfterSeconds} s.`,
		undefined,
		{ "Retry-After": String(decision.retryAfterSeconds) },
	);
}

/**
 * The per-key request limit (120 a rolling minute unless overridden): X-RateLimit-* headers on every
 * authenticated response, errors included, and 429 `rate_limited` with `Retry-After` past the limit.
 */
export const limitRequests = createMiddleware<AuthedEnv>(async (c, next) => {
	const { keyId, limits } = c.var.principal;
	applyRequestDecision(c, await limiterFor(c.env, keyId).hitRequest(limits.requestsPerMinute, MINUTE_MS));
	await next();
});

/**
 * For order creates, in place of `limitRequests`: the request limit and the steadier order-creation
 * bucket (1 order a second, burst 30, unless overridden; its 429 names it) in one call to the key's
 * limiter. A key without `orders:write` takes no order token (its 403 follows).
 */
export const limitRequestsAndOrderCreation = createMiddleware<AuthedEnv>(async (c, next) => {
	const { keyId, limits, scopes } = c.var.principal;
	const limiter = limiterFor(c.env, keyId);
	if (!scopes.includes("orders:write")) {
		applyRequestDecision(c, await limiter.hitRequest(limits.requestsPerMinute, MINUTE_MS));
		await next();
		return;
	}
	const decision = await limiter.hitRequestAndTakeOrderToken(
		limits.requestsPerMinute,
		MINUTE_MS,
		limits.ordersPerSecond,
		limits.orderBurst,
	);
	applyRequestDecision(c, decision.request);
	if (decision.order !== null) applyOrderDecision(c, decision.order);
	await next();
});
