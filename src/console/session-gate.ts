/**
 * The console's sessions on a request: who is signed in (from the signed cookie and the stored
 * session), the gate in front of the floor's pages, the form-token check on every post, and the
 * cookie set at sign-in and cleared at sign-out.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { directoryDatabase } from "../databases.ts";
import { consoleSessionSecret, postedTokenMatches, sessionCookieOptions } from "../http/session-forms.ts";
import { csrfTokenOf, newSessionId, signSessionCookie, verifySessionCookie } from "../http/signed-session.ts";
import type { ConsoleEnv, OperatorEnv } from "./console-env.ts";
import { errorPage } from "./responses.tsx";
import { SESSION_COOKIE, SESSION_SECONDS } from "./session.ts";
import { deleteSession, findLiveSession, insertSession } from "./session-store.ts";

export const SIGN_IN_PATH = "/ops/sign-in";

/** Every request: the operator its cookie names, when the cookie is genuine and its session still stored; else null. */
export const findSession = createMiddleware<ConsoleEnv>(async (c, next) => {
	c.set("session", null);
	const secret = consoleSessionSecret(c.env);
	const cookie = getCookie(c, SESSION_COOKIE, "host");
	if (secret !== null && cookie !== undefined) {
		const now = new Date();
		const signed = await verifySessionCookie(secret, cookie, Math.floor(now.getTime() / 1000));
		const stored = signed === null ? null : await findLiveSession(directoryDatabase(c.env), signed.sessionId, now);
		if (stored !== null) {
			c.set("session", { id: stored.id, keyId: stored.keyId, csrfToken: await csrfTokenOf(secret, stored.id) });
		}
	}
	await next();
});

/** Pages behind sign-in: without a live session, to the sign-in page (and a dead cookie is cleared). */
export const requireSession = createMiddleware<OperatorEnv>(async (c, next) => {
	const session = c.get("session");
	if (session === null) {
		if (getCookie(c, SESSION_COOKIE, "host") !== undefined) clearSessionCookie(c);
		return c.redirect(SIGN_IN_PATH, 303);
	}
	c.set("operator", session);
	await next();
});

/** Form posts of a signed-in operator must carry their session's `_csrf`; otherwise 403 and nothing changes. */
export const requireCsrf = createMiddleware<OperatorEnv>(async (c, next) => {
	if (!(await postedTokenMatches(c, c.var.operator.id))) {
		return errorPage(
			c,
			403,
			"This form is out of date or did not come from this console, so nothing was changed. Reload the page and try again.",
			c.var.operator.csrfToken,
		);
	}
	await next();
});

/** Opens a session for an ops key, for one shift, and gives the browser its signed cookie. */
export async function startSession(c: Context<ConsoleEnv>, secret: string, keyId: string): Promise<void> {
	const now = new Date();
	const expiresUnix = Math.floor(now.getTime() / 1000) + SESSION_SECONDS;
	const sessionId = newSessionId();
	await insertSession(
		directoryDatabase(c.env),
		{ id: sessionId, keyId, expiresAt: new Date(expiresUnix * 1000).toISOString() },
		now,
	);
	setSessionCookie(c, await signSessionCookie(secret, sessionId, expiresUnix));
}

/** Signs the operator out: their stored session goes, so the cookie names nothing even if the browser keeps it. */
export async function endSession(c: Context<OperatorEnv>): Promise<void> {
	await deleteSession(directoryDatabase(c.env), c.var.operator.id);
	clearSessionCookie(c);
}

function setSessionCookie(c: Context, value: string): void {
	setCookie(c, SESSION_COOKIE, value, sessionCookieOptions(SESSION_SECONDS));
}

function clearSessionCookie(c: Context): void {
	deleteCookie(c, SESSION_COOKIE, sessionCookieOptions());
}
