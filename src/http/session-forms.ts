/**
 * What both consoles' session gates share on a request: the secret their cookies and form tokens are
 * signed with, the cookie's attributes, and the check of a posted form's token.
 */
import type { Context } from "hono";
import { configOf } from "../config.ts";
import { readForm } from "./html-pages.ts";
import { csrfTokenMatches } from "./signed-session.ts";

/** The consoles' secret, or null when they are not configured (an empty value counts as none). */
export function consoleSessionSecret(env: Env): string | null {
	return configOf(env).CONSOLE_SESSION_SECRET ?? null;
}

/** A session cookie's attributes: `__Host-`, HttpOnly, Secure, SameSite=Strict, the whole site. */
export function sessionCookieOptions(maxAgeSeconds?: number) {
	return {
		prefix: "host",
		httpOnly: true,
		secure: true,
		sameSite: "Strict",
		path: "/",
		...(maxAgeSeconds === undefined ? {} : { maxAge: maxAgeSeconds }),
	} as const;
}

/** Whether the posted form carries session `sessionId`'s token in `_csrf` (constant-time); false without a secret. */
export async function postedTokenMatches(c: Context, sessionId: string): Promise<boolean> {
	const secret = consoleSessionSecret(c.env);
	const submitted = (await readForm(c))._csrf;
	return secret !== null && typeof submitted === "string" && csrfTokenMatches(secret, sessionId, submitted);
}
