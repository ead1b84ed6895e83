/**
 * Partner users' passwords: what a password must be, and its hash. PBKDF2 with HMAC-SHA-256 through Web
 * Crypto, 100,000 iterations (the most the Workers runtime allows in one derivation), a random 16-byte
 * salt per password and a 32-byte key. The stored text names the scheme and the count
 * (`pbkdf2-sha256$100000$<salt base64>$<key base64>`), so a later count can be introduced without
 * invalidating stored hashes. Pure: no storage, no clock.
 */
import { base64Of, bytesOfBase64 } from "../base64.ts";

/** The most iterations a PBKDF2 derivation may run in workerd (it refuses more). */
export const PBKDF2_ITERATIONS = 100_000;
const SCHEME = "pbkdf2-sha256";
const SALT_BYTES = 16;
const KEY_BITS = 256;

/** The shortest and longest password accepted, in characters (code points). */
export const PASSWORD_MIN = 12;
export const PASSWORD_MAX = 200;

const encoder = new TextEncoder();

/** Why `password` cannot be used, in words for the form; null when it can. */
export function passwordProblem(password: string): string | null {
	const length = [...password].length;
	if (length < PASSWORD_MIN) return `Use at least ${PASSWORD_MIN} characters.`;
	if (length > PASSWORD_MAX) return `Use at most ${PASSWORD_MAX} characters.`;
	if (password.trim().length === 0) return "Use characters other than spaces.";
	return null;
}

async function derive(password: string, salt: Uint8Array, iterations: number): Promise<Uint8Array> {
	const material = await crypto.subtle.importKey("raw", encoder.encode(password.normalize("NFC")), "PBKDF2", false, [
		"deriveBits",
	]);
	const bits = await crypto.subtle.deriveBits(
		{ name: "PBKDF2", hash: "SHA-256", salt, iterations },
		material,
		KEY_BITS,
	);
	return new Uint8Array(bits);
}

/** The stored hash of `password`, with a fresh salt. */
export async function hashPassword(password: string): Promise<string> {
	const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
	const key = await derive(password, salt, PBKDF2_ITERATIONS);
	return `${SCHEME}$${PBKDF2_ITERATIONS}$${base64Of(salt)}$${base64Of(key)}`;
}

/**
 * Whether `password` is the one `stored` was made from. A stored text this code did not write (another
 * scheme, a count over the runtime's limit, broken base64) matches nothing. The comparison goes through
 * HMAC verification, which compares in constant time.
 */
export async function passwordMatches(password: string, stored: string): Promise<boolean> {
	const [scheme, count, saltText, keyText, ...rest] = stored.split("$");
	if (scheme !== SCHEME || rest.length > 0 || count === undefined || saltText === undefined || keyText === undefined) {
		return false;
	}
	const iterations = Number(count);
	if (!Number.isInteger(iterations) || iterations < 1 || iterations > PBKDF2_ITERATIONS) return false;
	const salt = bytesOfBase64(saltText);
	const expected = bytesOfBase64(keyText);
	if (salt === null || expected === null || expected.length !== KEY_BITS / 8) return false;
	const derived = await derive(password, salt, iterations);
	return sameBytes(derived, expected);
}

/** Constant-time equality of two keys: an HMAC of one, verified against the other under a random key. */
async function sameBytes(a: Uint8Array, b: Uint8Array): Promise<boolean> {
	const random = crypto.getRandomValues(new Uint8Array(32));
	const key = await crypto.subtle.importKey("raw", random, { name: "HMAC", hash: "SHA-256" }, false, [
		"sign",
		"verify",
	]);
	const mac = await crypto.subtle.sign("HMAC", key, a);
	return crypto.subtle.verify("HMAC", key, mac, b);
}

/**
 * A hash of a password nobody has, made once per isolate: checked against when an email is unknown, so
 * a sign-in with an unknown email takes as long as one with a wrong password (no user enumeration by time).
 */
let decoy: Promise<string> | undefined;
export function decoyHash(): Promise<string> {
	decoy ??= hashPassword(crypto.randomUUID());
	return decoy;
}
