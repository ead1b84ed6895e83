import type { DeliveryMessage } from "./enqueue.ts";
import { deliveryUrl } from "./store.ts";
import { returnToSweep } from "./sweep.ts";
import { startDelivery } from "./webhook-sender.do.ts";

/** Name of the dead-letter queue in wrangler.toml. */
export const DEAD_LETTER_QUEUE = "framed-print-webhooks-dlq";

/**
 * The WEBHOOKS consumer: each message is handed to its endpoint's WebhookSender and acknowledged, so
 * the batch never waits on a receiver (one that hangs would otherwise hold up every message behind
 * it). A message whose hand-over fails is retried on its own. The dead-letter queue's messages are
 * handed back to the sweep.
 */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
	if (batch.queue === DEAD_LETTER_QUEUE) {
		await returnToSweep(
			env,
			batch.messages.map((message) => message.body.event_id),
		);
		batch.ackAll();
		return;
	}
	await Promise.all(
		batch.messages.map(async (message) => {
			if (typeof message.body?.event_id !== "string") {
				// Not a message this service sends: retrying it could never succeed.
				console.error(
					JSON.stringify({ level: "error", message: "dropped a malformed webhook message", id: message.id }),
				);
				message.ack();
				return;
			}
			try {
				const url = message.body.url ?? (await deliveryUrl(env.DB, message.body.event_id));
				// No URL: an unknown event, or one with nothing to send to; attempting it could do nothing.
				if (url !== null) await startDelivery(env, message.body.event_id, url);
				message.ack();
			} catch (error) {
				console.error(JSON.stringify({ level: "error", event_id: message.body.event_id, message: String(error) }));
				message.retry({ delaySeconds: 30 });
			}
		}),
	);
}
