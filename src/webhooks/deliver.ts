import { allowsLocalUrls, configOf } from "../config.ts";
import { outboundUrlProblem } from "../http/outbound-url.ts";
import { nextAttemptAt, parseRetryAfter, queueDelaySeconds } from "./retry-schedule.ts";
import { signatureHeader, standardWebhookHeaders } from "./signature.ts";
import { findDelivery, recordDelivered, recordFailure, signingSecrets } from "./store.ts";

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

/**
 * One delivery attempt of an event: signs the stored body (the bytes signed are the bytes sent),
 * POSTs it to the order's callback_url with a timeout and no redirects, and records the result.
 * 2xx is delivered; anything else is retried on the schedule until 24 h after the event, then failed.
 */
export async function attemptDelivery(env: Env, eventId: string, now: Date = new Date()): Promise<AttemptOutcome> {
	const due = await findDelivery(env.DB, eventId);
	if (due === null || due.status !== "pending" || due.url === null) return { kind: "done" };

	// Checked again at send time: the rules, or the URL's standing, may have changed since the order.
	const refused = outboundUrlProblem(due.url, { allowLocal: allowsLocalUrls(env) });
	if (refused !== null) {
		await recordFailure(env.DB, eventId, { at: now, statusCode: null, problem: `Not sent: ${refused}`, next: null });
		return { kind: "done" };
	}
	// Signed before the attempt: a missing secret is the service's fault (thrown, logged, retried), not the receiver's.
	const secrets = await signingSecrets(env.DB, due.account_id, due.mode, now);
	const nowSeconds = Math.floor(now.getTime() / 1000);
	const [signature, standard] = await Promise.all([
		signatureHeader(due.body, secrets, nowSeconds),
		standardWebhookHeaders(eventId, due.body, secrets, nowSeconds),
	]);
	let statusCode: number | null = null;
	let problem: string;
	let retryAfter: number | null = null;
	try {
		const response = await fetch(due.url, {
			method: "POST",
			body: due.body,
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
			await recordDelivered(env.DB, eventId, now, response.status);
			return { kind: "done" };
		}
		if (response.status === 429 || response.status === 503)
			retryAfter = parseRetryAfter(response.headers.get("Retry-After"), now);
		if (response.status >= 300 && response.status < 400) {
			discardBody(response);
			problem = `HTTP ${response.status}: redirects are not followed`;
		} else {
			const excerpt = await bodyExcerpt(response);
			problem = `HTTP ${response.status}${excerpt === "" ? "" : `: ${excerpt}`}`;
		}
	} catch (error) {
		problem =
			error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")
				? `No answer within ${timeoutMs(env) / 1000} s`
				: `Could not connect: ${String(error).slice(0, EXCERPT_CHARS)}`;
	}
	const next = nextAttemptAt({
		attempts: due.attempts + 1,
		eventCreatedAt: new Date(due.event_created_at),
		now,
		retryAfterSeconds: retryAfter,
	});
	if (next === null) {
		await recordFailure(env.DB, eventId, { at: now, statusCode, problem, next: null });
		return { kind: "done" };
	}
	await recordFailure(env.DB, eventId, { at: now, statusCode, problem, next });
	return { kind: "retry", delaySeconds: queueDelaySeconds(next, now) };
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
