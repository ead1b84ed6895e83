import { attemptDelivery } from "./deliver.ts";
import type { DeliveryMessage } from "./enqueue.ts";
import { returnToSweep } from "./sweep.ts";

/** Name of the dead-letter queue in wrangler.toml. */
export const DEAD_LETTER_QUEUE = "framed-print-webhooks-dlq";

/**
 * The WEBHOOKS consumer: one attempt per message, acknowledged or retried one by one (a failing
 * message never fails the batch). The dead-letter queue's messages are handed back to the sweep.
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
	// Messages are independent: attempted side by side, each acknowledged or retried on its own.
	await Promise.all(
		batch.messages.map(async (message) => {
			try {
				const outcome = await attemptDelivery(env, message.body.event_id);
				if (outcome.kind === "retry") message.retry({ delaySeconds: outcome.delaySeconds });
				else message.ack();
			} catch (error) {
				console.error(JSON.stringify({ level: "error", event_id: message.body.event_id, message: String(error) }));
				message.retry({ delaySeconds: 30 });
			}
		}),
	);
}
