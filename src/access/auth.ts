import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { recordKeyUse } from "../accounts/key-life.ts";
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import type { Scope } from "../accounts/scopes.ts";
import { directoryDatabase } from "../databases.ts";
import { ApiError } from "../http/errors.ts";
import { log } from "../log.ts";
import { applyDecisions, authorizeKey } from "../rate-limit/middleware.ts";

const BEARER = /^Bearer +(\S+)$/i;
const BEARER_WITHOUT_KEY = /^Bearer$/i;

/**
 * Bearer-key authentication and the per-key limits, in one round trip to the key's limiter (which
 * holds the key's principal): 401 for a missing header, another scheme, a malformed, unknown,
 * revoked or expired key; 403 for a test-mode key holding a live-only scope (ops, admin); then the request
 * limit (120 a rolling minute unless overridden: X-RateLimit-* on every counted response, 429 with
 * `Retry-After` past it) and, with `orderCreate`, the order-creation bucket (1 a second, burst 30,
 * its 429 naming it; a key without `orders:write` takes no token, and its 403 follows). Keys are
 * known by their SHA-256 hash, never the raw key, which is never logged. The key's last use is written
 * at most once per KEY_USE_RECORD_MINUTES (src/accounts/key-life.ts).
 */
export function authenticate(options: { orderCreate: boolean } = { orderCreate: false }) {
	return createMiddleware<AuthedEnv>(async (c, next) => {
		const header = c.req.header("Authorization")?.trim();
		if (header === undefined || header === "") {
			throw new ApiError(
				"api_key_missing",
				"No API key: the Authorization header is missing or empty; send Authorization: Bearer <API key>.",
			);
		}
		// HTTP drops the trailing space of "Bearer ", so an empty key arrives as the bare scheme.
		if (BEARER_WITHOUT_KEY.test(header)) {
			throw new ApiError(
				"api_key_missing",
				"The Authorization header has no API key after 'Bearer ': send Authorization: Bearer <API key>.",
			);
		}
		const token = BEARER.exec(header)?.[1];
		if (token === undefined) {
			throw new ApiError(
				"authorization_not_bearer",
				"The Authorization header must use the Bearer scheme: Authorization: Bearer <API key>.",
			);
		}
		if (modeOfApiKey(token) === null) {
			throw new ApiError("api_key_malformed", "The API key is malformed: keys look like fps_live_... or fps_test_....");
		}
		const authorization = await authorizeKey(c.env, await hashApiKey(token), options.orderCreate);
		switch (authorization.kind) {
			case "unknown":
				throw new ApiError("api_key_invalid", "The API key is not valid.");
			case "revoked":
				throw new ApiError("api_key_revoked", "The API key has been revoked.");
			case "expired":
				throw new ApiError("api_key_expired", "The API key has expired.");
			case "scope_refused":
				// Issuing one is refused, but a row from before that rule would still reach live orders.
				throw new ApiError("api_key_refused", `This API key is refused: ${authorization.problem}. Ask for a live key.`);
		}
		if (authorization.recordUse) await recordLastUse(c.env, authorization.principal.keyId);
		c.set("principal", authorization.principal);
		applyDecisions(c, authorization.principal, authorization.request, authorization.order);
		await next();
	});
}

/** Writes the key's last use; a failed write is logged, never the request's failure (the time is a hint). */
async function recordLastUse(env: Env, keyId: string): Promise<void> {
	try {
		await recordKeyUse(directoryDatabase(env), keyId, new Date());
	} catch (error) {
		log.warn("api_key.last_use_not_recorded", {
			key_id: keyId,
			error: error instanceof Error ? error.message : "unknown",
		});
	}
}

/** 403 `forbidden` unless the caller's key holds `scope`. */
export function requireScope(scope: Scope) {
	return createMiddleware<AuthedEnv>(async (c, next) => {
		if (!c.var.principal.scopes.includes(scope)) {
			throw new ApiError("scope_missing", `This API key does not have the "${scope}" scope needed for this operation.`);
		}
		await next();
	});
}
