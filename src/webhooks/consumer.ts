import { configOf } from "../config.ts";
import { findInEveryDatabase } from "../databases.ts";
import { log } from "../log.ts";
import { callbackDelivery, findDelivery, type PendingDelivery } from "./delivery-store.ts";
import type { DeliveryMessage } from "./enqueue.ts";
import { returnToSweep } from "./sweep.ts";
import { startDelivery } from "./webhook-sender.do.ts";

/**
 * The WEBHOOKS consumer: each message's delivery is handed to its endpoint's WebhookSender and acknowledged, so
 * the batch never waits on a receiver (one that hangs would otherwise hold up every message behind
 * it). A message whose hand-over fails is retried on its own. The dead-letter queue's messages
 * (WEBHOOK_DEAD_LETTER_QUEUE: each environment has its own) are handed back to the sweep.
 */
export async function consumeDeliveries(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
	if (batch.queue === configOf(env).WEBHOOK_DEAD_LETTER_QUEUE) {
		await returnToSweep(
			env,
			batch.messages.map((message) => message.body),
		);
		batch.ackAll();
		return;
	}
	await Promise.all(
		batch.messages.map(async (message) => {
			const { delivery_id, event_id, url } = message.body ?? {};
			if (typeof delivery_id !== "string" && typeof event_id !== "string") {
				// Not a message this service sends: retrying it could never succeed.
				log.error("webhook.message_dropped", { message: "dropped a malformed webhook message", id: message.id });
				message.ack();
				return;
			}
			try {
				const delivery = await deliveryOf(env, { delivery_id, event_id, url });
				// Nothing to send to (an unknown event, or one without a URL): attempting it could do nothing.
				if (delivery !== null) await startDelivery(env, delivery);
				message.ack();
			} catch (error) {
				log.error("webhook.message_retried", { delivery_id, event_id, message: String(error) });
				message.retry({ delaySeconds: 30 });
			}
		}),
	);
}

/** The delivery a message stands for: its own, or (an older message) its event's callback delivery. */
async function deliveryOf(env: Env, message: DeliveryMessage): Promise<PendingDelivery | null> {
	const { delivery_id: deliveryId, event_id: eventId } = message;
	if (typeof deliveryId === "string" && typeof message.url === "string") {
		return { id: deliveryId, url: message.url };
	}
	if (typeof deliveryId === "string") {
		const due = await findInEveryDatabase(env, (database) => findDelivery(database, deliveryId));
		return due?.url ? { id: due.id, url: due.url } : null;
	}
	return typeof eventId === "string"
		? findInEveryDatabase(env, (database) => callbackDelivery(database, eventId))
		: null;
}
