/**
 * Signed session cookies and form tokens for the worker's signed-in pages (the operator console and the
 * partner console), as pure functions over a secret and a clock.
 *
 * Cookie value: `<session id>.<expires unix seconds>.<base64url HMAC-SHA256 of "<id>.<exp>">`. The
 * signature stops a forged or edited cookie before any database read; the stored session row is what
 * signing out and revoking take away. Each console names its own cookie and keeps its own rows.
 */

import { base64UrlOf } from "../base64.ts";
import { randomBase62 } from "../ids.ts";

/** A new session id: `ses_` and 32 base62 characters (about 190 bits). */
export function newSessionId(): string {
	return `ses_${randomBase62(32)}`;
}

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

/** The HMAC-SHA256 of `text` under `secret`, in unpadded base64url. */
export async function macOf(secret: string, text: string): Promise<string> {
	const mac = await crypto.subtle.sign("HMAC", await hmacKey(secret, "sign"), encoder.encode(text));
	return base64UrlOf(new Uint8Array(mac));
}

/** Whether `mac` is the HMAC of `text`; `crypto.subtle.verify` compares in constant time. */
export async function macMatches(secret: string, text: string, mac: string): Promise<boolean> {
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

/** Whether a submitted `_csrf` is this session's token (constant-time). */
export function csrfTokenMatches(secret: string, sessionId: string, submitted: string): Promise<boolean> {
	return macMatches(secret, `csrf:${sessionId}`, submitted);
}
