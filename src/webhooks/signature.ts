/**
 * The `SVC-Signature` webhook header: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, raw body)>`. The
 * Standard Webhooks headers beside it are standard-webhooks.ts's.
 *
 * Self-contained on purpose (Web Crypto only, no imports at all): a partner can copy
 * `verifySignature` into their receiver as it is.
 */

const encoder = new TextEncoder();

/** Hex digits of one HMAC-SHA256 digest: 32 bytes. */
const DIGEST_HEX = /^[0-9a-fA-F]{64}$/;

async function hmacSha256(secret: string, rawBody: string): Promise<Uint8Array> {
	const key = await crypto.subtle.importKey("raw", encoder.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, [
		"sign",
	]);
	return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(rawBody)));
}

function toHex(bytes: Uint8Array): string {
	return Array.from(bytes, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** Caller has checked the shape against DIGEST_HEX, so every pair parses. */
function fromHex(hex: string): Uint8Array {
	const bytes = new Uint8Array(hex.length / 2);
	for (let index = 0; index < bytes.length; index++)
		bytes[index] = Number.parseInt(hex.slice(index * 2, index * 2 + 2), 16);
	return bytes;
}

/** Looks at every byte whatever the first difference, so the time taken says nothing about where it is. */
function equalInConstantTime(a: Uint8Array, b: Uint8Array): boolean {
	if (a.length !== b.length) return false;
	let difference = 0;
	for (let index = 0; index < a.length; index++) difference |= (a[index] ?? 0) ^ (b[index] ?? 0);
	return difference === 0;
}

/**
 * Builds the header value: `t=<nowSeconds>` then one `v1=` per secret, in the given order (new first during a
 * rotation). The HMAC covers the raw body bytes (UTF-8) only, as the API documents it for receivers; `t` is informational and
 * not signed, so receivers reject replays with the body's `created_at` and deduplicate on its `id`.
 */
export async function signatureHeader(
	rawBody: string,
	secrets: readonly string[],
	nowSeconds: number,
): Promise<string> {
	if (secrets.length === 0) throw new TypeError("signatureHeader needs at least one secret");
	const digests = await Promise.all(secrets.map(async (secret) => `v1=${toHex(await hmacSha256(secret, rawBody))}`));
	return [`t=${Math.floor(nowSeconds)}`, ...digests].join(",");
}

/**
 * Whether `header` carries a `v1=` digest of `rawBody` under any of `secrets`, with `t` within `toleranceSeconds`
 * of now. Spaces, unknown keys and several `v1=` entries are accepted; malformed input gives false, never a throw.
 */
export async function verifySignature(
	rawBody: string,
	header: string,
	secrets: readonly string[],
	options: { toleranceSeconds: number; nowSeconds?: number },
): Promise<boolean> {
	try {
		let timestamp: string | undefined;
		const candidates: Uint8Array[] = [];
		for (const part of String(header).split(",")) {
			const separator = part.indexOf("=");
			if (separator < 0) continue;
			const key = part.slice(0, separator).trim();
			const value = part.slice(separator + 1).trim();
			if (key === "t") {
				// Two timestamps are ambiguous; refuse rather than guess which one was meant.
				if (timestamp !== undefined) return false;
				timestamp = value;
			} else if (key === "v1" && DIGEST_HEX.test(value)) {
				candidates.push(fromHex(value));
			}
		}
		if (timestamp === undefined || !/^\d{1,15}$/.test(timestamp) || candidates.length === 0) return false;

		const now = options.nowSeconds ?? Math.floor(Date.now() / 1000);
		// Written as "not within" so that a NaN tolerance or clock rejects instead of slipping through.
		if (!(Math.abs(now - Number(timestamp)) <= options.toleranceSeconds)) return false;

		for (const secret of secrets) {
			const expected = await hmacSha256(secret, rawBody);
			for (const candidate of candidates) if (equalInConstantTime(expected, candidate)) return true;
		}
		return false;
	} catch {
		// For instance a secret Web Crypto refuses as a key: a receiver wants a no, not a crash.
		return false;
	}
}
