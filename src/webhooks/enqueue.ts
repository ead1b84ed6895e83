/**
 * What a webhook queue message carries: the delivery to attempt and the URL it goes to (which names
 * its sender). Messages sent before deliveries had ids name only the event (`event_id`), and some
 * lack the URL: they stand for the event's delivery to its order's callback URL, read from D1.
 */
export type DeliveryMessage = { delivery_id?: string; event_id?: string; url?: string };

/**
 * Puts a delivery on the queue, to be attempted after `delaySeconds`. The queue is the fast path,
 * not the record: if the send fails, the delivery row stays pending and the cron sweep enqueues it
 * once overdue, so a failure here is only logged.
 */
export async function enqueueDelivery(
	env: Env,
	delivery: { id: string; url: string },
	delaySeconds = 0,
): Promise<void> {
	try {
		await env.WEBHOOKS.send({ delivery_id: delivery.id, url: delivery.url } satisfies DeliveryMessage, {
			delaySeconds,
		});
	} catch (error) {
		console.error(
			JSON.stringify({ level: "warn", delivery_id: delivery.id, message: `enqueue failed: ${String(error)}` }),
		);
	}
}
