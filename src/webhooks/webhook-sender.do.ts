import { DurableObject } from "cloudflare:workers";
import { attemptDelivery } from "./deliver.ts";
import { enqueueDelivery } from "./enqueue.ts";

/** Wait before trying again when an attempt threw (the service's fault, not the receiver's). */
const AFTER_FAULT_SECONDS = 30;

/**
 * One instance per event (named by the event id) makes that event's delivery attempts, each in
 * the background of its own object. Whoever starts an attempt (the order's move, the queue
 * consumer, a redelivery) waits only for the hand-over, never for the receiver: a receiver that
 * hangs for its whole timeout holds up its own deliveries and nobody else's. A failed attempt
 * puts the next one on the queue with the schedule's delay; the delivery row stays the record,
 * so an attempt lost with this object is found again by the cron sweep.
 */
export class WebhookSender extends DurableObject<Env> {
	/** An attempt under way here: a second hand-over of the same event meanwhile is a no-op. */
	#attempting = false;

	/** Starts an attempt of the event's delivery now, in the background, unless one is under way. */
	send(eventId: string): void {
		if (this.#attempting) return;
		this.#attempting = true;
		this.ctx.waitUntil(
			this.#attempt(eventId).finally(() => {
				this.#attempting = false;
			}),
		);
	}

	async #attempt(eventId: string): Promise<void> {
		try {
			const outcome = await attemptDelivery(this.env, eventId);
			if (outcome.kind === "retry") await enqueueDelivery(this.env, eventId, outcome.delaySeconds);
		} catch (error) {
			console.error(JSON.stringify({ level: "error", event_id: eventId, message: String(error) }));
			await enqueueDelivery(this.env, eventId, AFTER_FAULT_SECONDS);
		}
	}
}

/**
 * Hands an event to its sender, which attempts the delivery at once in the background. Throws
 * when the sender cannot be reached; the caller then leaves it to the queue or the sweep.
 */
export async function startDelivery(env: Env, eventId: string): Promise<void> {
	await env.WEBHOOK_SENDER.get(env.WEBHOOK_SENDER.idFromName(eventId)).send(eventId);
}
