/**
 * What a webhook queue message carries: the event to deliver and the URL it goes to (which names its
 * sender; messages sent before the URL was carried lack it, and it is then read from D1).
 */
export type DeliveryMessage = { event_id: string; url?: string };

/**
 * Puts an event on the delivery queue, to be attempted after `delaySeconds`. The queue is the fast
 * path, not the record: if the send fails, the delivery row stays pending and the cron sweep
 * enqueues it once overdue, so a failure here is only logged.
 */
export async function enqueueDelivery(env: Env, eventId: string, url: string, delaySeconds = 0): Promise<void> {
	try {
		await env.WEBHOOKS.send({ event_id: eventId, url } satisfies DeliveryMessage, { delaySeconds });
	} catch (error) {
		console.error(JSON.stringify({ level: "warn", event_id: eventId, message: `enqueue failed: ${String(error)}` }));
	}
}
