import { outboundUrlProblem } from "../http/outbound-url.ts";
import { allowsLocalUrls } from "../orders/validate-order.ts";
import { nextAttemptAt, parseRetryAfter, queueDelaySeconds } from "./retry-schedule.ts";
import { signatureHeader } from "./signature.ts";

/** What the consumer does with the message after an attempt. */
export type AttemptOutcome = { kind: "done" } | { kind: "retry"; delaySeconds: number };

const USER_AGENT = "FramedPrintWebhooks/1.0";
/** The most of a receiver's answer that is kept, for the event log. */
const EXCERPT_CHARS = 200;

type DueDelivery = {
	event_id: string;
	account_id: string;
	url: string | null;
	status: string;
	attempts: number;
	body: string;
	event_created_at: string;
};

function timeoutMs(env: Env): number {
	const seconds = Number(env.WEBHOOK_TIMEOUT_SECONDS);
	return Number.isFinite(seconds) && seconds > 0 ? seconds * 1000 : 10_000;
}

/** The account's signing secrets, newest first: two during a rotation's 24 hours. */
export async function signingSecrets(db: D1Database, accountId: string, now: Date): Promise<string[]> {
	const { results } = await db
		.prepare(
			"SELECT secret FROM webhook_secrets WHERE account_id = ?1 AND (expires_at IS NULL OR expires_at > ?2) ORDER BY id DESC",
		)
		.bind(accountId, now.toISOString())
		.all<{ secret: string }>();
	return results.map((row) => row.secret);
}

/**
 * One delivery attempt of an event: signs the stored body (the bytes signed are the bytes sent),
 * POSTs it to the order's callback_url with a timeout and no redirects, and records the result.
 * 2xx is delivered; anything else is retried on the schedule until 24 h after the event, then failed.
 */
export async function attemptDelivery(env: Env, eventId: string, now: Date = new Date()): Promise<AttemptOutcome> {
	const due = await env.DB.prepare(
		`SELECT d.event_id, d.account_id, d.url, d.status, d.attempts, e.body, e.created_at AS event_created_at
		   FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.event_id = ?1`,
	)
		.bind(eventId)
		.first<DueDelivery>();
	if (due === null || due.status !== "pending" || due.url === null) return { kind: "done" };

	// Checked again at send time: the rules, or the URL's standing, may have changed since the order.
	const refused = outboundUrlProblem(due.url, { allowLocal: allowsLocalUrls(env) });
	if (refused !== null) {
		await recordFailure(env.DB, due, now, null, `Not sent: ${refused}`, null);
		return { kind: "done" };
	}
	// Signed before the attempt: a missing secret is the service's fault (thrown, logged, retried), not the receiver's.
	const signature = await signatureHeader(
		due.body,
		await signingSecrets(env.DB, due.account_id, now),
		Math.floor(now.getTime() / 1000),
	);
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
			},
		});
		statusCode = response.status;
		const excerpt = (await response.text()).slice(0, EXCERPT_CHARS);
		if (response.status >= 200 && response.status < 300) {
			await env.DB.prepare(
				`UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = ?2, last_status_code = ?3,
				   last_error = NULL, delivered_at = ?2, next_attempt_at = NULL WHERE event_id = ?1`,
			)
				.bind(eventId, now.toISOString(), response.status)
				.run();
			return { kind: "done" };
		}
		if (response.status === 429 || response.status === 503)
			retryAfter = parseRetryAfter(response.headers.get("Retry-After"), now);
		problem =
			response.status >= 300 && response.status < 400
				? `HTTP ${response.status}: redirects are not followed`
				: `HTTP ${response.status}${excerpt === "" ? "" : `: ${excerpt}`}`;
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
		await recordFailure(env.DB, due, now, statusCode, problem, null);
		return { kind: "done" };
	}
	await recordFailure(env.DB, due, now, statusCode, problem, next);
	return { kind: "retry", delaySeconds: queueDelaySeconds(next, now) };
}

/** Records a failed attempt: still pending with its next attempt, or `failed` for good when `next` is null. */
async function recordFailure(
	db: D1Database,
	due: DueDelivery,
	now: Date,
	statusCode: number | null,
	problem: string,
	next: Date | null,
): Promise<void> {
	await db
		.prepare(
			`UPDATE deliveries SET status = ?2, attempts = attempts + 1, last_attempt_at = ?3, last_status_code = ?4,
			   last_error = ?5, next_attempt_at = ?6, enqueued_at = CASE WHEN ?6 IS NULL THEN enqueued_at ELSE ?3 END
			 WHERE event_id = ?1`,
		)
		.bind(
			due.event_id,
			next === null ? "failed" : "pending",
			now.toISOString(),
			statusCode,
			problem,
			next?.toISOString() ?? null,
		)
		.run();
}
