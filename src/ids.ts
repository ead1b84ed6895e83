const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/** Uniformly random base62 text from the platform CSPRNG (rejection sampling avoids modulo bias). */
export function randomBase62(length: number): string {
	let out = "";
	while (out.length < length) {
		const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
		for (const byte of bytes) {
			// 248 = 62 * 4: bytes at or above it would favour the first characters.
			if (byte < 248 && out.length < length) out += BASE62[byte % 62];
		}
	}
	return out;
}

/** Prefixes of the service's opaque ids: a reader can tell an order's id from a file's at a glance. */
export type IdPrefix =
	| "acct"
	| "key"
	| "ord"
	| "itm"
	| "pf"
	| "evt"
	| "req"
	| "quo"
	| "dlv"
	| "whe"
	| "ping"
	| "shp"
	| "clm"
	| "led";

/** A new opaque, URL-safe, unguessable id such as `acct_4fQ9...` (about 143 bits of randomness). */
export function newId(prefix: IdPrefix): string {
	return `${prefix}_${randomBase62(24)}`;
}

/** Hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
