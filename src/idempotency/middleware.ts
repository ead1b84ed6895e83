/**
 * The Idempotency-Key header on the routes that change something: the first request with a key runs and
 * its answer is kept for a day; a retry with the same key and the same request gets that answer again,
 * marked `Idempotent-Replayed: true`, and changes nothing; the same key with another request is refused.
 * protectedRoute puts it behind the key check of every POST, PUT, PATCH and DELETE (a route opts out,
 * with its reason), so a new route is covered without wiring of its own.
 */
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import type { Principal } from "../accounts/store.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { ApiError } from "../http/errors.ts";
import { randomBase62 } from "../ids.ts";
import { log } from "../log.ts";
import {
	ABANDONED_AFTER_MS,
	bodySha256,
	credentialKindOf,
	IDEMPOTENCY_KEY_HEADER,
	isBodilessStatus,
	isKeptStatus,
	KEPT_FOR_MS,
	KEPT_HEADERS,
	MAX_KEPT_ANSWER_BYTES,
	MAX_KEY_LENGTH,
	REPLAYED_HEADER,
	readIdempotencyKey,
	requestLine,
} from "./rules.ts";
import { type Claim, claimKey, type KeptAnswer, type KeySlot, keepAnswer, releaseKey } from "./store.ts";

/** The header as the OpenAPI document describes it, on every operation that honours it. */
export const IDEMPOTENCY_KEY_PARAMETER = {
	name: IDEMPOTENCY_KEY_HEADER,
	in: "header",
	required: false,
	description: `Makes a retry safe: the same key with the same request (method, path and body bytes) within 24 hours gets the first answer again, with \`${REPLAYED_HEADER}: true\`, and changes nothing. The same key with another request is a 409 \`idempotency_key_reused\`; while the first is still running, a 409 \`idempotency_key_in_use\` with \`Retry-After\`. Keys are per account, mode and kind of key. A 5xx or 429 is not kept. 1 to ${MAX_KEY_LENGTH} printable ASCII characters; a UUID is a good key.`,
	schema: { type: "string", minLength: 1, maxLength: MAX_KEY_LENGTH, example: "5f0c1e0e-7a43-4d1e-9c55-2b6a1d3e8f10" },
} as const;

// Strict: an answer that is not UTF-8 text is not kept rather than kept altered.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: true });

/** The database of a principal's keys: its account's for a partner key, the directory's for ops and admin keys. */
function databaseOfKeys(env: Env, principal: Principal, slot: KeySlot): D1Database {
	return slot.credentialKind === "partner" ? databaseOf(env, principal.accountId) : directoryDatabase(env);
}

/** The request's body as bytes, read once and given back to the request for the handler to read again. */
async function bodyBytes(c: Context<AuthedEnv>): Promise<Uint8Array> {
	if (c.req.raw.body === null) return new Uint8Array(0);
	const bytes = new Uint8Array(await c.req.arrayBuffer());
	// Hono's own readers use its cache; a handler that reads the raw request (the shipments CSV) gets these bytes.
	c.req.raw = new Request(c.req.raw, { body: bytes });
	return bytes;
}

/** The refusal for a key held by another request, or the first answer again. */
function refusalOrReplay(claim: Exclude<Claim, { kind: "claimed" }>, request: string, sha256: string): KeptAnswer {
	if (claim.request !== request || claim.bodySha256 !== sha256) {
		const what = claim.request === request ? `${request} with another body` : claim.request;
		throw new ApiError(
			"idempotency_key_reused",
			`This ${IDEMPOTENCY_KEY_HEADER} was used at ${claim.createdAt} for ${what}: a key names one request. Send a new key for a new request.`,
			IDEMPOTENCY_KEY_HEADER,
		);
	}
	if (claim.kind === "in_flight") {
		throw new ApiError(
			"idempotency_key_in_use",
			`A request with this ${IDEMPOTENCY_KEY_HEADER} is still running: retry in a second to get its answer.`,
			IDEMPOTENCY_KEY_HEADER,
			{ "Retry-After": "1" },
		);
	}
	return claim.answer;
}

/** The answer as it is kept: its status, the headers that describe it, its body as text; null when it is not kept. */
async function keptAnswerOf(response: Response): Promise<KeptAnswer | null> {
	if (!isKeptStatus(response.status)) return null;
	const bytes = new Uint8Array(await response.clone().arrayBuffer());
	let body: string;
	try {
		if (bytes.length > MAX_KEPT_ANSWER_BYTES) throw new RangeError(`${bytes.length} bytes`);
		body = strictUtf8.decode(bytes);
	} catch (error) {
		// No route is expected to answer this: a retry will run the request again.
		log.warn("idempotency.answer_not_kept", { status: response.status, bytes: bytes.length, error: String(error) });
		return null;
	}
	const headers: Record<string, string> = {};
	for (const name of KEPT_HEADERS) {
		const value = response.headers.get(name);
		if (value !== null) headers[name] = value;
	}
	return { status: response.status, headers, body };
}

/**
 * Honours the Idempotency-Key header (routes behind the key check only: it needs the principal). No
 * header: nothing happens, at no cost. A malformed one is a 400 naming the header.
 */
export const honourIdempotencyKey = createMiddleware<AuthedEnv>(async (c, next) => {
	const reading = readIdempotencyKey(c.req.header(IDEMPOTENCY_KEY_HEADER));
	if (reading === null) return next();
	if (!reading.ok) throw new ApiError("idempotency_key_malformed", reading.message, IDEMPOTENCY_KEY_HEADER);
	const { principal } = c.var;
	const slot: KeySlot = {
		accountId: principal.accountId,
		mode: principal.mode,
		credentialKind: credentialKindOf(principal.scopes),
		key: reading.key,
	};
	const database = databaseOfKeys(c.env, principal, slot);
	const request = requestLine(c.req.method, c.req.url);
	const sha256 = await bodySha256(await bodyBytes(c));
	const token = randomBase62(22);
	const now = new Date();
	const claim = await claimKey(database, slot, {
		request,
		bodySha256: sha256,
		token,
		now,
		expiresAt: new Date(now.getTime() + KEPT_FOR_MS),
		abandonedBefore: new Date(now.getTime() - ABANDONED_AFTER_MS),
	});
	if (claim.kind !== "claimed") {
		const answer = refusalOrReplay(claim, request, sha256);
		const headers = new Headers(answer.headers);
		headers.set(REPLAYED_HEADER, "true");
		// A Response as the init carries the kept status as the number it is; the rate-limit headers join it.
		const init = new Response(null, { status: answer.status, headers });
		return c.newResponse(isBodilessStatus(answer.status) ? null : answer.body, init);
	}
	try {
		await next();
	} catch (error) {
		await releaseKey(database, slot, token);
		throw error;
	}
	// The answer is given whatever happens to the key: the request has done its work.
	try {
		const answer = await keptAnswerOf(c.res);
		if (answer === null) await releaseKey(database, slot, token);
		else await keepAnswer(database, slot, token, answer);
	} catch (error) {
		// The key stays claimed until it counts as abandoned; a retry then runs the request again.
		log.error("idempotency.keep_failed", {
			request_id: c.var.requestId,
			error: error instanceof Error ? error.message : String(error),
		});
	}
});
