/**
 * The console's reads through D1 sessions (src/database-sessions.ts): a browser reads what it wrote. After
 * a request that wrote, a cookie keeps where the primaries got to, and every later page of this
 * browser reads from a copy of the database at least that recent; a replica may answer the rest.
 */
import { getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import {
	bookmarksOfToken,
	bookmarkToken,
	laterBookmarks,
	openReadSessions,
	primaryBookmarks,
} from "../database-sessions.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { sessionCookieOptions } from "../http/session-forms.ts";
import { PARTNER_SESSION_HOURS } from "../partner-users/sessions.ts";
import type { PartnerConsoleEnv } from "./partner-env.ts";

/** The cookie's name without its `__Host-` prefix. */
export const PARTNER_BOOKMARK_COOKIE = "partner_bookmark";

/** Every console request reads through sessions that start at this browser's last write. */
export const readOwnWrites = createMiddleware<PartnerConsoleEnv>(async (c, next) => {
	const env = c.env;
	const cookie = getCookie(c, PARTNER_BOOKMARK_COOKIE, "host");
	// A cookie this service did not write is set aside, not refused: the page still answers, from anywhere.
	const carried = cookie === undefined ? {} : (bookmarksOfToken(env, cookie) ?? {});
	const sessions = openReadSessions(env, carried);
	c.env = sessions.env;
	await next();
	const accountId = c.get("viewer")?.user.account_id;
	const owners = [directoryDatabase(sessions.env)];
	if (accountId !== undefined) owners.push(databaseOf(sessions.env, accountId));
	const written = sessions.writtenTo(owners);
	if (written.length === 0) return;
	const reached = await primaryBookmarks(env, written);
	const bookmarks = laterBookmarks(sessions.bookmarks(), reached);
	setCookie(c, PARTNER_BOOKMARK_COOKIE, bookmarkToken(bookmarks), sessionCookieOptions(PARTNER_SESSION_HOURS * 3600));
});
