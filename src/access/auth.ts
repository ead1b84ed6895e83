import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { recordKeyUse } from "../accounts/key-life.ts";
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import type { Scope } from "../accounts/scopes.ts";
import {
	type Bookmarks,
	bookmarksOfToken,
	bookmarkToken,
	laterBookmarks,
	openReadSessions,
} from "../database-sessions.ts";
import { databaseOf, directoryDatabase, placementBookmarks } from "../databases.ts";
import { ApiError } from "../http/errors.ts";
import { log } from "../log.ts";
import { applyDecisions, authorizeKey, noteKeyWrites } from "../rate-limit/middleware.ts";

/**
 * The request and response header carrying where the caller's writes left each database (an opaque
 * token): every answer to a key has it, and a request may send back one it got (from another key, or
 * the console) so its reads show those writes too; one it did not send is set aside.
 */
export const BOOKMARK_HEADER = "Bookmark";
/** Far longer than every token this service sends (a bookmark is 62 characters). */
const MAX_BOOKMARK_HEADER = 4096;
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
 * Then the request reads through D1 sessions (src/database-sessions.ts) that start where the key's last
 * write (or a `Bookmark` header sent back) left each database, so a replica may answer but never one
 * that misses those writes; after a request that wrote (or called a Durable Object, which may have), the
 * limiter notes where those databases' primaries got to before the answer goes out.
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
		const keyHash = await hashApiKey(token);
		const authorization = await authorizeKey(c.env, keyHash, options.orderCreate);
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
		const env = c.env;
		const { accountId } = authorization.principal;
		// From the key's last write, a bookmark sent back, and where a move's copy left the account's database.
		const from = laterBookmarks(
			laterBookmarks(authorization.bookmarks, carriedBookmarks(c.env, c.req.header(BOOKMARK_HEADER))),
			placementBookmarks(accountId),
		);
		const sessions = openReadSessions(env, from);
		c.env = sessions.env;
		await next();
		let bookmarks = sessions.bookmarks();
		const written = sessions.writtenTo([directoryDatabase(sessions.env), databaseOf(sessions.env, accountId)]);
		if (written.length > 0) bookmarks = laterBookmarks(bookmarks, await noteKeyWrites(env, keyHash, written));
		if (Object.keys(bookmarks).length > 0) c.header(BOOKMARK_HEADER, bookmarkToken(bookmarks));
	});
}

/**
 * The bookmarks a request sent back in the Bookmark header. One this service did not send is set aside,
 * not refused: the request then reads from the key's own last write, which is all a key is promised.
 */
function carriedBookmarks(env: Env, header: string | undefined): Bookmarks {
	if (header === undefined || header.length > MAX_BOOKMARK_HEADER) return {};
	return bookmarksOfToken(env, header) ?? {};
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
