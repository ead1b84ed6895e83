/**
 * The operator console's session cookie and form tokens, as pure functions over a secret and a clock.
 *
 * Cookie value: `<session id>.<expires unix seconds>.<base64url HMAC-SHA256 of "<id>.<exp>">`. The
 * signature stops a forged or edited cookie before any database read; the `ops_sessions` row is what
 * signing out and revoking the key take away.
 */

import { base64UrlOf } from "../base64.ts";

/** The cookie's name without its `__Host-` prefix (hono/cookie adds it with `prefix: "host"`). */
export const SESSION_COOKIE = "ops_session";

/** The cookie's full name as the browser sends it. */
export const SESSION_COOKIE_HEADER_NAME = `__Host-${SESSION_COOKIE}`;

/** A session lasts one shift. */
export const SESSION_SECONDS = 12 * 60 * 60;

/** Session ids: `ses_` and 32 base62 characters (see `newSessionId`). */
const SESSION_ID = /^ses_[0-9A-Za-z]{32}$/;
/** Unix seconds: digits only, no sign or exponent, so the signed text has one spelling. */
const UNIX_SECONDS = /^[1-9][0-9]{0,11}$/;
/** 32 bytes of HMAC in unpadded base64url. */
const MAC_BASE64URL = /^[A-Za-z0-9_-]{43}$/;

const encoder = new TextEncoder();

function hmacKey(secret: string, usage: "sign" | "verify"): Promise<CryptoKey> {
	return crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [usage]);
}

/** Caller has checked the shape against MAC_BASE64URL, so `atob` accepts it. */
function fromBase64Url(text: string): Uint8Array {
	const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
	return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

async function macOf(secret: string, text: string): Promise<string> {
	const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(text));
	return base64UrlOf(new Uint8Array(mac));
}

/** Whether `mac` is the HMAC of `text`; `crypto.subtle.verify` compares in constant time. */
async function macMatches(secret: string, text: string, mac: string): Promise<boolean> {
	if (!MAC_BASE64URL.test(mac)) return false;
	const bytes = fromBase64Url(mac);
	// atob ignores the last character's unused bits; one spelling per MAC keeps every edit a refusal.
	if (base64UrlOf(bytes) !== mac) return false;
	return crypto.subtle.verify("HMAC", await hmacKey(secret, "verify"), bytes, encoder.encode(text));
}

/** The cookie value naming a session until `expiresUnix`. */
export async function signSessionCookie(secret: string, sessionId: string, expiresUnix: number): Promise<string> {
	const signed = `${sessionId}.${expiresUnix}`;
	return `${signed}.${await macOf(secret, signed)}`;
}

/** What a genuine, unexpired cookie names. */
export type SignedSession = { sessionId: string; expiresUnix: number };

/** The session a cookie names, or null when it is malformed, signed with another secret, edited or expired. */
export async function verifySessionCookie(
	secret: string,
	cookie: string,
	nowUnix: number,
): Promise<SignedSession | null> {
	const [sessionId, expires, mac, ...rest] = cookie.split(".");
	if (sessionId === undefined || expires === undefined || mac === undefined || rest.length > 0) return null;
	if (!SESSION_ID.test(sessionId) || !UNIX_SECONDS.test(expires)) return null;
	if (!(await macMatches(secret, `${sessionId}.${expires}`, mac))) return null;
	const expiresUnix = Number(expires);
	// Written as "not after now" so a NaN clock refuses rather than lets the cookie through.
	if (!(expiresUnix > nowUnix)) return null;
	return { sessionId, expiresUnix };
}

/** The form token of a session: every console form but sign-in carries it in `_csrf`. */
export function csrfTokenOf(secret: string, sessionId: string): Promise<string> {
	// The "csrf:" prefix keeps these MACs apart from cookie MACs, whose text starts with the session id.
	return macOf(secret, `csrf:${sessionId}`);
}

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

/** Whether a submitted `_csrf` is this session's token (constant-time). */
export function csrfTokenMatches(secret: string, sessionId: string, submitted: string): Promise<boolean> {
	return macMatches(secret, `csrf:${sessionId}`, submitted);
}
