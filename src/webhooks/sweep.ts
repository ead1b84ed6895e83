import { configOf } from "../config.ts";
import type { DeliveryMessage } from "./enqueue.ts";

/** A pending delivery this overdue has lost its queue message (or the consumer died with it). */
export const OVERDUE_MS = 2 * 60_000;

/** The overdue threshold in force: `WEBHOOK_SWEEP_OVERDUE_SECONDS` (the fault test shortens it; OVERDUE_MS by default). */
function overdueMs(env: Env): number {
	return configOf(env).WEBHOOK_SWEEP_OVERDUE_SECONDS * 1000;
}

/**
 * The cron's safety net for webhooks: deliveries due for over two minutes are enqueued again, and
 * their next attempt moved to now so the next sweep leaves them alone while the queue works. A
 * duplicate delivery is possible and allowed (at-least-once; receivers deduplicate on the event id).
 */
export async function sweepDueDeliveries(env: Env, now: Date = new Date()): Promise<number> {
	const { results } = await env.DB.prepare(
		`SELECT event_id, url FROM deliveries
		  WHERE status = 'pending' AND next_attempt_at <= ?1 AND url IS NOT NULL ORDER BY next_attempt_at LIMIT 100`,
	)
		.bind(new Date(now.getTime() - overdueMs(env)).toISOString())
		.all<{ event_id: string; url: string }>();
	if (results.length === 0) return 0;
	await env.WEBHOOKS.sendBatch(
		results.map(({ event_id, url }) => ({ body: { event_id, url } satisfies DeliveryMessage })),
	);
	const at = now.toISOString();
	await env.DB.batch(
		results.map(({ event_id }) =>
			env.DB.prepare(
				"UPDATE deliveries SET next_attempt_at = ?2, enqueued_at = ?2 WHERE event_id = ?1 AND status = 'pending'",
			).bind(event_id, at),
		),
	);
	return results.length;
}

/** Dead-lettered messages go back to the sweep: their deliveries are marked overdue now. */
export async function returnToSweep(env: Env, eventIds: string[], now: Date = new Date()): Promise<void> {
	if (eventIds.length === 0) return;
	const overdue = new Date(now.getTime() - OVERDUE_MS).toISOString();
	await env.DB.batch(
		eventIds.map((id) =>
			env.DB.prepare(
				"UPDATE deliveries SET next_attempt_at = ?2, enqueued_at = NULL WHERE event_id = ?1 AND status = 'pending'",
			).bind(id, overdue),
		),
	);
}
