/**
 * Every statement on `deliveries` after an event made them (event-store.ts writes them with their
 * event): reading one to attempt, recording each attempt, and what the cron sweep and a redelivery
 * move. A delivery row is the record of a webhook; the queue only carries pointers to it.
 */
import type { KeyMode } from "../accounts/scopes.ts";

/** Where a delivery stands. */
export const DELIVERY_STATUSES = ["pending", "delivered", "failed", "no_endpoint"] as const;
/** One of DELIVERY_STATUSES. */
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** A delivery to hand to its sender: its id and the URL it goes to. */
export type PendingDelivery = { id: string; url: string };

/** A delivery with what an attempt needs: where, how often tried, and the body to sign and send. */
export type DueDelivery = {
	id: string;
	event_id: string;
	account_id: string;
	mode: KeyMode;
	url: string | null;
	status: DeliveryStatus;
	attempts: number;
	body: string;
	event_created_at: string;
};

/** A delivery by its id, with its event's body, or null. */
export function findDelivery(db: D1Database, deliveryId: string): Promise<DueDelivery | null> {
	return db
		.prepare(
			`SELECT d.id, d.event_id, d.account_id, d.mode, d.url, d.status, d.attempts, e.body, e.created_at AS event_created_at
			   FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.id = ?1`,
		)
		.bind(deliveryId)
		.first<DueDelivery>();
}

/**
 * The delivery to the order's callback URL of an event, with a URL, or null: what a queue message
 * sent before deliveries had ids (it names only the event) stands for.
 */
export function callbackDelivery(db: D1Database, eventId: string): Promise<PendingDelivery | null> {
	return db
		.prepare("SELECT id, url FROM deliveries WHERE event_id = ?1 AND endpoint_id IS NULL AND url IS NOT NULL")
		.bind(eventId)
		.first<PendingDelivery>();
}

/** Records a delivered attempt. */
export async function recordDelivered(
	db: D1Database,
	deliveryId: string,
	now: Date,
	statusCode: number,
): Promise<void> {
	await db
		.prepare(
			`UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = ?2, last_status_code = ?3,
			   last_error = NULL, delivered_at = ?2, next_attempt_at = NULL WHERE id = ?1`,
		)
		.bind(deliveryId, now.toISOString(), statusCode)
		.run();
}

/** Records a failed attempt: still pending with its next attempt, or `failed` for good when `next` is null. */
export async function recordFailure(
	db: D1Database,
	deliveryId: string,
	attempt: { at: Date; statusCode: number | null; problem: string; next: Date | null },
): Promise<void> {
	const { at, statusCode, problem, next } = attempt;
	await db
		.prepare(
			`UPDATE deliveries SET status = ?2, attempts = attempts + 1, last_attempt_at = ?3, last_status_code = ?4,
			   last_error = ?5, next_attempt_at = ?6, enqueued_at = CASE WHEN ?6 IS NULL THEN enqueued_at ELSE ?3 END
			 WHERE id = ?1 AND status = 'pending'`,
		)
		.bind(
			deliveryId,
			next === null ? "failed" : "pending",
			at.toISOString(),
			statusCode,
			problem,
			next?.toISOString() ?? null,
		)
		.run();
}

/** A pending delivery the sweep sends again. */
export type OverdueDelivery = PendingDelivery & { event_id: string };

/** Pending deliveries with a URL whose next attempt was due before `dueBefore`, the most overdue first. */
export async function overdueDeliveries(db: D1Database, dueBefore: Date, limit: number): Promise<OverdueDelivery[]> {
	const { results } = await db
		.prepare(
			`SELECT id, event_id, url FROM deliveries
			  WHERE status = 'pending' AND next_attempt_at <= ?1 AND url IS NOT NULL ORDER BY next_attempt_at LIMIT ?2`,
		)
		.bind(dueBefore.toISOString(), limit)
		.all<OverdueDelivery>();
	return results;
}

/**
 * Moves pending deliveries' next attempt to `at`: `enqueued` true when a queue message was just
 * sent for them (the sweep leaves them alone a while), false to mark them for the next sweep.
 */
export async function rescheduleDeliveries(
	db: D1Database,
	deliveryIds: string[],
	at: Date,
	enqueued: boolean,
): Promise<void> {
	if (deliveryIds.length === 0) return;
	await db.batch(
		deliveryIds.map((id) =>
			db
				.prepare("UPDATE deliveries SET next_attempt_at = ?2, enqueued_at = ?3 WHERE id = ?1 AND status = 'pending'")
				.bind(id, at.toISOString(), enqueued ? at.toISOString() : null),
		),
	);
}

/**
 * Makes every delivery of an event that has somewhere to go pending again, due now (a redelivery):
 * the callback URL's and each endpoint's that still exists and is not paused. Returns them, to be handed
 * to their senders.
 */
export async function resetForRedelivery(db: D1Database, eventId: string, now: Date): Promise<PendingDelivery[]> {
	const { results } = await db
		.prepare(
			`UPDATE deliveries SET status = 'pending', next_attempt_at = ?2, enqueued_at = ?2
			  WHERE event_id = ?1 AND url IS NOT NULL
			    AND (endpoint_id IS NULL OR endpoint_id IN (SELECT id FROM webhook_endpoints WHERE paused_at IS NULL))
			 RETURNING id, url`,
		)
		.bind(eventId, now.toISOString())
		.all<PendingDelivery>();
	return results;
}
