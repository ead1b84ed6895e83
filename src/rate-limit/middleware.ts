import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../http/app-env.ts";
import { ApiError } from "../http/errors.ts";

const MINUTE_MS = 60_000;

function limiterFor(env: Env, keyId: string): DurableObjectStub<import("./rate-limiter.do.ts").RateLimiter> {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(keyId));
}

/**
 * The per-key request limit (120 a rolling minute unless overridden): X-RateLimit-* headers on every
 * authenticated response, errors included, and 429 `rate_limited` with `Retry-After` past the limit.
 */
export const limitRequests = createMiddleware<AuthedEnv>(async (c, next) => {
	const { keyId, limits } = c.var.principal;
	const decision = await limiterFor(c.env, keyId).hitRequest(limits.requestsPerMinute, MINUTE_MS);
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
	await next();
});

/** The steadier order-creation bucket (1 order a second, burst 30, unless overridden): 429 naming it when empty. */
export const limitOrderCreation = createMiddleware<AuthedEnv>(async (c, next) => {
	const { keyId, limits } = c.var.principal;
	const decision = await limiterFor(c.env, keyId).takeOrderToken(limits.ordersPerSecond, limits.orderBurst);
	if (!decision.allowed) {
		throw new ApiError(
			"rate_limited",
			`Order creation limit exceeded (${limits.ordersPerSecond} per second, burst of ${limits.orderBurst}); retry after ${decision.retryAfterSeconds} s.`,
			undefined,
			{ "Retry-After": String(decision.retryAfterSeconds) },
		);
	}
	await next();
});
