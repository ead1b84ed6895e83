/**
 * The operator console's session cookie (its name and length; the signing is src/http/signed-session.ts)
 * and the marks a shipments preview puts on the file it showed.
 */

import { macMatches, macOf } from "../http/signed-session.ts";

/** The cookie's name without its `__Host-` prefix (hono/cookie adds it with `prefix: "host"`). */
export const SESSION_COOKIE = "ops_session";

/** The cookie's full name as the browser sends it. */
export const SESSION_COOKIE_HEADER_NAME = `__Host-${SESSION_COOKIE}`;

/** A session lasts one shift. */
export const SESSION_SECONDS = 12 * 60 * 60;

/**
 * The mark a shipments preview puts on the file it showed (by the SHA-256 of its text): only a confirm
 * of that very text, in the same session, carries a mark that matches. Keyed with the server's secret,
 * so no page, script or operator can make one for another file.
 */
export function importMarkOf(secret: string, sessionId: string, textDigest: string): Promise<string> {
	// "import:" keeps these MACs apart from the form tokens' ("csrf:") and the cookies' (session id first).
	return macOf(secret, `import:${sessionId}:${textDigest}`);
}

/** Whether a submitted mark is the one this session's preview gave the text with this digest (constant-time). */
export function importMarkMatches(
	secret: string,
	sessionId: string,
	textDigest: string,
	mark: string,
): Promise<boolean> {
	return macMatches(secret, `import:${sessionId}:${textDigest}`, mark);
}
