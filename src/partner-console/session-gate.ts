/**
 * The partner console's sessions on a request: who is signed in (the signed cookie, then the stored
 * session and its user, in one read), the gate in front of its pages, the form-token check on every
 * post, and the cookie set at sign-in and cleared at sign-out. Signed with the same secret as the
 * operator console's (src/http/session-forms.ts): the cookies have their own names and the sessions
 * their own table, so neither console's cookie opens the other.
 */
import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { createMiddleware } from "hono/factory";
import { directoryDatabase } from "../databases.ts";
import { consoleSessionSecret, postedTokenMatches, sessionCookieOptions } from "../http/session-forms.ts";
import { csrfTokenOf, newSessionId, signSessionCookie, verifySessionCookie } from "../http/signed-session.ts";
import { closeSession, openSession, PARTNER_SESSION_HOURS, userOfSession } from "../partner-users/sessions.ts";
import type { LayoutViewer } from "./layout.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { PartnerConsoleEnv, SignedInPartnerEnv } from "./partner-env.ts";
import { type PartnerAbility, ROLE_WORDS, roleCan } from "./permissions.ts";

/** The cookie's name without its `__Host-` prefix. */
export const PARTNER_SESSION_COOKIE = "partner_session";
export const PARTNER_SIGN_IN_PATH = "/partner/sign-in";

/** Every request: the user its cookie names, when the cookie is genuine and its session still stands; else null. */
export const findPartnerSession = createMiddleware<PartnerConsoleEnv>(async (c, next) => {
	c.set("viewer", null);
	const secret = consoleSessionSecret(c.env);
	const cookie = getCookie(c, PARTNER_SESSION_COOKIE, "host");
	if (secret !== null && cookie !== undefined) {
		const now = new Date();
		const signed = await verifySessionCookie(secret, cookie, Math.floor(now.getTime() / 1000));
		const user = signed === null ? null : await userOfSession(directoryDatabase(c.env), signed.sessionId, now);
		if (signed !== null && user !== null) {
			c.set("viewer", { sessionId: signed.sessionId, user, csrfToken: await csrfTokenOf(secret, signed.sessionId) });
		}
	}
	await next();
});

/** Pages behind sign-in: without a standing session, to the sign-in page (and a dead cookie is cleared). */
export const requirePartner = createMiddleware<SignedInPartnerEnv>(async (c, next) => {
	const viewer = c.get("viewer");
	if (viewer === null) {
		if (getCookie(c, PARTNER_SESSION_COOKIE, "host") !== undefined) clearCookie(c);
		return c.redirect(PARTNER_SIGN_IN_PATH, 303);
	}
	c.set("signedIn", viewer);
	await next();
});

/** Form posts of a signed-in user must carry their session's `_csrf`; otherwise 403 and nothing changes. */
export const requirePartnerCsrf = createMiddleware<SignedInPartnerEnv>(async (c, next) => {
	const { sessionId, csrfToken, user } = c.var.signedIn;
	if (!(await postedTokenMatches(c, sessionId))) {
		const message =
			"This form is out of date or did not come from this console, so nothing was changed. Reload the page and try again.";
		return partnerErrorPage(c, 403, message, { csrfToken, role: user.role });
	}
	await next();
});

/** Pages and forms that need `ability`: a role without it gets a 403 page, and nothing changes. */
export function requireAbility(ability: PartnerAbility) {
	return createMiddleware<SignedInPartnerEnv>(async (c, next) => {
		const { user, csrfToken } = c.var.signedIn;
		if (!roleCan(user.role, ability)) {
			const message = `Your role cannot do this. ${ROLE_WORDS[user.role]}. Ask your account's owner.`;
			return partnerErrorPage(c, 403, message, { csrfToken, role: user.role });
		}
		await next();
	});
}

/** The signed-in user as the page frame needs them (their form token and role), or null. */
export function layoutViewerOf(c: Context<PartnerConsoleEnv>): LayoutViewer | null {
	// Unset when the request was refused before the session was looked up (a form over the size limit).
	const viewer = c.get("viewer") ?? null;
	return viewer === null ? null : { csrfToken: viewer.csrfToken, role: viewer.user.role };
}

/** The signed-in user, behind `requirePartner`, as the page frame needs them. */
export function signedInViewerOf(c: Context<SignedInPartnerEnv>): LayoutViewer {
	return { csrfToken: c.var.signedIn.csrfToken, role: c.var.signedIn.user.role };
}

/** Opens a session for `userId` and gives the browser its signed cookie. */
export async function startPartnerSession(c: Context, secret: string, userId: string): Promise<void> {
	const now = new Date();
	const sessionId = newSessionId();
	const expiresAt = await openSession(directoryDatabase(c.env), sessionId, userId, now);
	const expiresUnix = Math.floor(Date.parse(expiresAt) / 1000);
	const value = await signSessionCookie(secret, sessionId, expiresUnix);
	setCookie(c, PARTNER_SESSION_COOKIE, value, sessionCookieOptions(PARTNER_SESSION_HOURS * 3600));
}

/** Signs the user out of this browser: the stored session goes, so the cookie names nothing any more. */
export async function endPartnerSession(c: Context<SignedInPartnerEnv>): Promise<void> {
	await closeSession(directoryDatabase(c.env), c.var.signedIn.sessionId);
	clearCookie(c);
}

function clearCookie(c: Context): void {
	deleteCookie(c, PARTNER_SESSION_COOKIE, sessionCookieOptions());
}
