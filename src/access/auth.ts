import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import { keyScopeProblem, type Scope } from "../accounts/scopes.ts";
import { findKeyByHash } from "../accounts/store.ts";
import { ApiError } from "../http/errors.ts";

const BEARER = /^Bearer +(\S+)$/i;

/**
 * Bearer-key authentication: 401 for a missing header, another scheme, a malformed, unknown or
 * revoked key; 403 for a test-mode key holding a live-only scope (ops, admin). Compares SHA-256 hashes through the unique index, never the raw key, and never logs it.
 */
export const authenticate = createMiddleware<AuthedEnv>(async (c, next) => {
	const header = c.req.header("Authorization");
	if (header === undefined || header.trim() === "") {
		throw new ApiError("unauthorized", "Missing API key: send the header Authorization: Bearer <API key>.");
	}
	const token = BEARER.exec(header.trim())?.[1];
	if (token === undefined) {
		throw new ApiError(
			"unauthorized",
			"The Authorization header must use the Bearer scheme: Authorization: Bearer <API key>.",
		);
	}
	if (modeOfApiKey(token) === null) {
		throw new ApiError("unauthorized", "The API key is malformed: keys look like fps_live_... or fps_test_....");
	}
	const found = await findKeyByHash(c.env.DB, await hashApiKey(token));
	if (found === null) throw new ApiError("unauthorized", "The API key is not valid.");
	if (found === "revoked") throw new ApiError("unauthorized", "The API key has been revoked.");
	// Issuing one is refused, but a row from before that rule would still reach live orders.
	const problem = keyScopeProblem(found.mode, found.scopes);
	if (problem !== null) throw new ApiError("forbidden", `This API key is refused: ${problem}. Ask for a live key.`);
	c.set("principal", found);
	await next();
});

/** 403 `forbidden` unless the caller's key holds `scope`. */
export function requireScope(scope: Scope) {
	return createMiddleware<AuthedEnv>(async (c, next) => {
		if (!c.var.principal.scopes.includes(scope)) {
			throw new ApiError("forbidden", `This API key does not have the "${scope}" scope needed for this operation.`);
		}
		await next();
	});
}
