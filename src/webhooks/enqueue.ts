/**
 * The one producer of the webhooks' queue: every delivery message is sent from here (a sender's retry,
 * a hand-over that failed, the cron sweep), so what a message carries is decided in one place.
 */
import { log } from "../log.ts";
import type { PendingDelivery } from "./delivery-store.ts";

/**
 * What a webhook queue message carries: the delivery to attempt and the URL it goes to (which names
 * its sender). Messages sent before deliveries had ids name only the event (`event_id`), and some
 * lack the URL: they stand for the event's delivery to its order's callback URL, read from D1.
 */
export type DeliveryMessage = { delivery_id?: string; event_id?: string; url?: string };

/**
 * Puts deliveries on the queue, in one send, each to be attempted after `delaySeconds`. Throws when
 * the queue refuses them: the caller decides whether that is worth failing for.
 */
export async function enqueueDeliveries(
	env: Env,
	deliveries: ReadonlyArray<PendingDelivery>,
	delaySeconds = 0,
): Promise<void> {
	if (deliveries.length === 0) return;
	await env.WEBHOOKS.sendBatch(
		deliveries.map(({ id, url }) => ({ body: { delivery_id: id, url } satisfies DeliveryMessage })),
		{ delaySeconds },
	);
}

/**
 * As `enqueueDeliveries`, for callers with nothing better to do when the queue fails. The queue is
 * the fast path, not the record: the delivery rows stay pending and the cron sweep enqueues them
 * once overdue, so a failure here is only logged.
 */
export async function enqueueOrLeaveToSweep(
	env: Env,
	deliveries: ReadonlyArray<PendingDelivery>,
	delaySeconds = 0,
): Promise<void> {
	try {
		await enqueueDeliveries(env, deliveries, delaySeconds);
	} catch (error) {
		for (const { id } of deliveries) {
			log.warn("webhook.enqueue_failed", { delivery_id: id, message: `enqueue failed: ${String(error)}` });
		}
	}
}
