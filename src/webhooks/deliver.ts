import type { KeyMode } from "../accounts/scopes.ts";
import { allowsLocalUrls, configOf } from "../config.ts";
import { databaseOf, directoryDatabase, findInEveryDatabase } from "../databases.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { newId } from "../ids.ts";
import { findDelivery, recordDelivered, recordFailure } from "./delivery-store.ts";
import { nextAttemptAt, parseRetryAfter, queueDelaySeconds } from "./retry-schedule.ts";
import { signingSecrets } from "./secret-store.ts";
import { signatureHeader } from "./signature.ts";
import { standardWebhookHeaders } from "./standard-webhooks.ts";

/** What the consumer does with the message after an attempt. */
export type AttemptOutcome = { kind: "done" } | { kind: "retry"; delaySeconds: number };

const USER_AGENT = "FramedPrintWebhooks/1.0";
/** The most of a receiver's answer that is kept, for the event log. */
const EXCERPT_CHARS = 200;
/** The most of a failed answer's body that is read for that excerpt: a few UTF-8 bytes per character. */
const EXCERPT_BYTES = 1024;
/** How long the excerpt may take to arrive: a body sent slowly never holds up the attempt. */
export const EXCERPT_READ_MS = 1000;

function timeoutMs(env: Env): number {
	return configOf(env).WEBHOOK_TIMEOUT_SECONDS * 1000;
}

/** What one signed POST came to. */
type PostResult =
	| { kind: "delivered"; statusCode: number }
	/** Not sent at all: the URL may not be called (under the rules in force when sending). */
	| { kind: "refused"; problem: string }
	| { kind: "failed"; statusCode: number | null; problem: string; retryAfter: number | null };

/** A signed POST to make: the body as stored, the id it is sent under, and whose secrets sign it. */
type SignedPost = { url: string; messageId: string; body: string; accountId: string; mode: KeyMode };

/**
 * Signs `body` (the bytes signed are the bytes sent) with the owner's secrets of its mode, both
 * ways, and POSTs it with a timeout and no redirects. A 2xx is delivered whatever its body does.
 */
async function postSigned(env: Env, post: SignedPost, now: Date): Promise<PostResult> {
	// Checked again at send time: the rules, or the URL's standing, may have changed since it was given.
	const refused = outboundUrlProblem(post.url, { allowLocal: allowsLocalUrls(env) });
	if (refused !== null) return { kind: "refused", problem: `Not sent: ${refused}` };
	// Signed before the attempt: a missing secret is the service's fault (thrown, logged, retried), not the receiver's.
	const secrets = await signingSecrets(directoryDatabase(env), post.accountId, post.mode, now);
	const nowSeconds = Math.floor(now.getTime() / 1000);
	const signature = await signatureHeader(post.body, secrets, nowSeconds);
	const standard = standardWebhookHeaders(post.messageId, post.body, secrets, nowSeconds);
	let statusCode: number | null = null;
	try {
		const response = await fetch(post.url, {
			method: "POST",
			body: post.body,
			redirect: "manual",
			signal: AbortSignal.timeout(timeoutMs(env)),
			headers: {
				"Content-Type": "application/json",
				"User-Agent": USER_AGENT,
				"SVC-Signature": signature,
				...standard,
			},
		});
		statusCode = response.status;
		// The status line decides. A 2xx is delivered whatever its body does (it is not read at all).
		if (response.status >= 200 && response.status < 300) {
			discardBody(response);
			return { kind: "delivered", statusCode: response.status };
		}
		const retryAfter =
			response.status === 429 || response.status === 503
				? parseRetryAfter(response.headers.get("Retry-After"), now)
				: null;
		if (response.status >= 300 && response.status < 400) {
			discardBody(response);
			return { kind: "failed", statusCode, problem: `HTTP ${response.status}: redirects are not followed`, retryAfter };
		}
		const excerpt = await bodyExcerpt(response);
		return {
			kind: "failed",
			statusCode,
			problem: `HTTP ${response.status}${excerpt === "" ? "" : `: ${excerpt}`}`,
			retryAfter,
		};
	} catch (error) {
		const problem =
			error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
				? `No answer within ${timeoutMs(env) / 1000} s`
				: `Could not connect: ${String(error).slice(0, EXCERPT_CHARS)}`;
		return { kind: "failed", statusCode, problem, retryAfter: null };
	}
}

/**
 * One attempt of a delivery (an event to one receiver: the order's callback URL or an endpoint),
 * signed and sent by `postSigned`, and its result recorded. Anything but a 2xx is retried on the
 * schedule until 24 h after the event, then failed.
 */
export async function attemptDelivery(env: Env, deliveryId: string, now: Date = new Date()): Promise<AttemptOutcome> {
	const due = await findInEveryDatabase(env, (database) => findDelivery(database, deliveryId));
	if (due === null || due.status !== "pending" || due.url === null) return { kind: "done" };
	const result = await postSigned(
		env,
		{ url: due.url, messageId: due.event_id, body: due.body, accountId: due.account_id, mode: due.mode },
		now,
	);
	if (result.kind === "delivered") {
		await recordDelivered(databaseOf(env, due.account_id), deliveryId, now, result.statusCode);
		return { kind: "done" };
	}
	if (result.kind === "refused") {
		await recordFailure(databaseOf(env, due.account_id), deliveryId, {
			at: now,
			statusCode: null,
			problem: result.problem,
			next: null,
		});
		return { kind: "done" };
	}
	const { statusCode, problem } = result;
	const next = nextAttemptAt({
		attempts: due.attempts + 1,
		eventCreatedAt: new Date(due.event_created_at),
		now,
		retryAfterSeconds: result.retryAfter,
	});
	await recordFailure(databaseOf(env, due.account_id), deliveryId, { at: now, statusCode, problem, next });
	return next === null ? { kind: "done" } : { kind: "retry", delaySeconds: queueDelaySeconds(next, now) };
}

/** What a ping came to, as the test route answers it. */
export type PingOutcome = { delivered: boolean; status_code: number | null; error: string | null };

/**
 * Sends one signed `ping` to an endpoint now and waits for the answer: one attempt, no retry, nothing
 * recorded. Signed like every webhook of the owner's mode, so a receiver checks its verification with it.
 */
export async function sendPing(
	env: Env,
	endpoint: OneShotEndpoint,
	now: Date = new Date(),
): Promise<PingOutcome & { id: string }> {
	const id = newId("ping");
	const body = JSON.stringify({
		id,
		event: "ping",
		created_at: now.toISOString(),
		endpoint_id: endpoint.id,
		mode: endpoint.mode,
	});
	return { id, ...(await sendOnce(env, endpoint, id, body, now)) };
}

/** An endpoint a one-shot send goes to: its id, URL, and the account and mode whose secret signs it. */
export type OneShotEndpoint = { id: string; url: string; accountId: string; mode: KeyMode };

/**
 * Sends `body` (with `messageId` as its `webhook-id`) to an endpoint now, signed like every webhook of
 * its mode, and answers what the endpoint replied: one attempt, no retry, nothing recorded. The ping
 * and the sandbox's sample events go this way.
 */
export async function sendOnce(
	env: Env,
	endpoint: OneShotEndpoint,
	messageId: string,
	body: string,
	now: Date = new Date(),
): Promise<PingOutcome> {
	const result = await postSigned(
		env,
		{ url: endpoint.url, messageId, body, accountId: endpoint.accountId, mode: endpoint.mode },
		now,
	);
	return result.kind === "delivered"
		? { delivered: true, status_code: result.statusCode, error: null }
		: { delivered: false, status_code: result.kind === "failed" ? result.statusCode : null, error: result.problem };
}

/** Lets go of an answer's body without waiting on it: a receiver that sends it slowly holds nothing up. */
function discardBody(response: Response): void {
	response.body?.cancel().catch(() => undefined);
}

/**
 * The start of a failed answer's body for the event log: at most EXCERPT_BYTES, read within
 * EXCERPT_READ_MS of the status line. Whatever has arrived by then is kept; the rest is cancelled.
 */
export async function bodyExcerpt(response: Response, limitMs = EXCERPT_READ_MS): Promise<string> {
	if (response.body === null) return "";
	const reader = response.body.getReader();
	const chunks: Uint8Array[] = [];
	let total = 0;
	let timer: ReturnType<typeof setTimeout> | null = null;
	const deadline = new Promise<"late">((resolve) => {
		timer = setTimeout(() => resolve("late"), limitMs);
	});
	try {
		while (total < EXCERPT_BYTES) {
			const next = await Promise.race([reader.read(), deadline]);
			if (next === "late" || next.done) break;
			chunks.push(next.value);
			total += next.value.byteLength;
		}
	} catch {
		// A body that breaks off is still only an excerpt: keep what came.
	} finally {
		clearTimeout(timer);
		reader.cancel().catch(() => undefined);
	}
	const bytes = new Uint8Array(Math.min(total, EXCERPT_BYTES));
	let at = 0;
	for (const chunk of chunks) {
		const part = chunk.subarray(0, bytes.byteLength - at);
		bytes.set(part, at);
		at += part.byteLength;
		if (at === bytes.byteLength) break;
	}
	return new TextDecoder().decode(bytes).slice(0, EXCERPT_CHARS);
}
