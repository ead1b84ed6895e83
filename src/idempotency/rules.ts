/**
 * The rules of the Idempotency-Key header, as pure functions over plain data: which header values are
 * keys, whose key space a credential writes in, what makes two requests the same request, and which
 * answers are kept for replay. The middleware (middleware.ts) and the store apply them.
 */
import type { Scope } from "../accounts/scopes.ts";

/** The request header a client names its request with. */
export const IDEMPOTENCY_KEY_HEADER = "Idempotency-Key";

/** The response header that marks an answer as the first request's, replayed. */
export const REPLAYED_HEADER = "Idempotent-Replayed";

/** The longest key, in characters. */
export const MAX_KEY_LENGTH = 255;

/** How long an answer is kept for replay: a day, the longest a client's retries are expected to run. */
export const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

/**
 * How long a claimed key may go without an answer before it counts as abandoned (the Worker running it
 * died) and a retry of the same request may run it instead. Requests that change something answer in
 * well under a second; a minute leaves room for a slow one.
 */
export const ABANDONED_AFTER_MS = 60 * 1000;

/** The largest answer kept, in bytes: the covered routes answer small JSON, far below it. */
export const MAX_KEPT_ANSWER_BYTES = 1024 * 1024;

/** The response headers replayed with a kept answer: what describes the body and where it is. */
export const KEPT_HEADERS = ["content-type", "location", "etag", "cache-control"] as const;

/** Whose key space a request writes in: a partner's key, an ops key or an admin key. */
export type CredentialKind = "partner" | "ops" | "admin";

/** The header's value read as a key, a reason it is not one, or null when the header was not sent. */
export type KeyReading = { ok: true; key: string } | { ok: false; message: string } | null;

// Printable ASCII: space to tilde. HTTP already drops leading and trailing spaces.
const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** Reads the Idempotency-Key header's value (undefined when it was not sent). */
export function readIdempotencyKey(value: string | undefined): KeyReading {
	if (value === undefined) return null;
	if (value === "") {
		return {
			ok: false,
			message: `The ${IDEMPOTENCY_KEY_HEADER} header is empty: send 1 to 255 printable ASCII characters, or leave the header out.`,
		};
	}
	if (value.length > MAX_KEY_LENGTH) {
		return {
			ok: false,
			message: `The ${IDEMPOTENCY_KEY_HEADER} header is ${value.length} characters long: send at most ${MAX_KEY_LENGTH} (a UUID is 36).`,
		};
	}
	if (!PRINTABLE_ASCII.test(value)) {
		return {
			ok: false,
			message: `The ${IDEMPOTENCY_KEY_HEADER} header holds a character that is not printable ASCII: use letters, digits and punctuation (a UUID, say).`,
		};
	}
	return { ok: true, key: value };
}

/**
 * The key space of a credential: ops and admin keys act across accounts and have spaces of their own,
 * apart from the partner keys of the account that holds them.
 */
export function credentialKindOf(scopes: readonly Scope[]): CredentialKind {
	if (scopes.includes("admin")) return "admin";
	if (scopes.includes("ops")) return "ops";
	return "partner";
}

/** The SHA-256 of a request body's bytes, in hex: half of what makes two requests the same. */
export async function bodySha256(bytes: Uint8Array): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes));
	return Array.from(digest, (byte) => byte.toString(16).padStart(2, "0")).join("");
}

/** The other half: the method and the path with its query, as `POST /v1/quotes`. */
export function requestLine(method: string, url: string): string {
	const { pathname, search } = new URL(url);
	return `${method.toUpperCase()} ${pathname}${search}`;
}

/**
 * Whether an answer of this status is kept for replay: every success and every refusal of the request
 * itself (4xx), which the same request would get again. A 429 and a 5xx are not: they say nothing of
 * the request, and a retry must run it.
 */
export function isKeptStatus(status: number): boolean {
	return status < 500 && status !== 429;
}

/** Statuses whose responses carry no body, whatever was kept. */
export function isBodilessStatus(status: number): boolean {
	return status === 204 || status === 205 || status === 304;
}
