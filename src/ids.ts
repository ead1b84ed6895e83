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
	| "led"
	| "usr"
	| "mov";

/** A new opaque, URL-safe, unguessable id such as `acct_4fQ9...` (about 143 bits of randomness). */
export function newId(prefix: IdPrefix): string {
	return `${prefix}_${randomBase62(24)}`;
}

/** Characters of an ordered id's sequence: 62^6, about 57 billion ids before the sequence wraps. */
const SEQUENCE_LENGTH = 6;
const SEQUENCE_WRAP = 62 ** SEQUENCE_LENGTH;
/**
 * This isolate's sequence of ordered ids, started at random in the lower half on the first id (so two
 * isolates' ids are not alike, and an isolate would issue 28 billion before the sequence wraps). Not
 * at load: a Worker may not draw random values in its global scope.
 */
let sequence: number | null = null;

/** `value` as `length` base62 characters, most significant first: text order is number order. */
function fixedBase62(value: number, length: number): string {
	let out = "";
	let rest = value;
	for (let index = 0; index < length; index++) {
		out = BASE62[rest % 62] + out;
		rest = Math.floor(rest / 62);
	}
	return out;
}

/**
 * A new id like newId's, whose text sorts after every ordered id this isolate issued before it: 6
 * characters of sequence, then 18 random (about 107 bits). For rows written together at one instant
 * and listed by (time, id), such as one move's events: their order is the order they were made in,
 * not chance.
 */
export function newOrderedId(prefix: IdPrefix): string {
	const start =
		sequence ?? Math.floor(((crypto.getRandomValues(new Uint32Array(1))[0] ?? 0) / 2 ** 32) * (SEQUENCE_WRAP / 2));
	sequence = (start + 1) % SEQUENCE_WRAP;
	return `${prefix}_${fixedBase62(sequence, SEQUENCE_LENGTH)}${randomBase62(24 - SEQUENCE_LENGTH)}`;
}

/** Hex SHA-256 of a UTF-8 string. */
export async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
	return Array.from(new Uint8Array(digest), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
