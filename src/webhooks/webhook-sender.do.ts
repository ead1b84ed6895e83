import { DurableObject } from "cloudflare:workers";
import { attemptDelivery } from "./deliver.ts";
import { enqueueDelivery } from "./enqueue.ts";

/** Wait before trying again when an attempt threw (the service's fault, not the receiver's). */
const AFTER_FAULT_SECONDS = 30;

/**
 * One instance per receiving endpoint (named by the callback URL's origin) makes the delivery
 * attempts to it, side by side, each in the background. Whoever starts an attempt (the order's move,
 * the queue consumer, a redelivery) waits only for the hand-over, never for the receiver: a receiver
 * that hangs for its whole timeout holds up its own attempts and nobody else's, and other endpoints
 * are other objects. (One object per endpoint rather than per event: a new object per event cost
 * about 50 ms of median latency under a stream in the bench.) A failed attempt puts the next one on
 * the queue with the schedule's delay; the delivery row stays the record, so an attempt lost with
 * this object is found again by the cron sweep.
 */
export class WebhookSender extends DurableObject<Env> {
	/** Events with an attempt under way here: a second hand-over of one of them meanwhile is a no-op. */
	#attempting = new Set<string>();

	/** Starts an attempt of the event's delivery now, in the background, unless one is under way. */
	send(eventId: string, url: string): void {
		if (this.#attempting.has(eventId)) return;
		this.#attempting.add(eventId);
		this.ctx.waitUntil(
			this.#attempt(eventId, url).finally(() => {
				this.#attempting.delete(eventId);
			}),
		);
	}

	async #attempt(eventId: string, url: string): Promise<void> {
		try {
			const outcome = await attemptDelivery(this.env, eventId);
			if (outcome.kind === "retry") await enqueueDelivery(this.env, eventId, url, outcome.delaySeconds);
		} catch (error) {
			console.error(JSON.stringify({ level: "error", event_id: eventId, message: String(error) }));
			await enqueueDelivery(this.env, eventId, url, AFTER_FAULT_SECONDS);
		}
	}
}

/**
 * Hands an event to the sender of its receiving endpoint (`url`, the delivery's callback URL), which
 * attempts the delivery at once in the background. Throws when the sender cannot be reached; the
 * caller then leaves it to the queue or the sweep.
 */
export async function startDelivery(env: Env, eventId: string, url: string): Promise<void> {
	await env.WEBHOOK_SENDER.get(env.WEBHOOK_SENDER.idFromName(endpointOf(url))).send(eventId, url);
}

/**
 * Starts the event's delivery now through its endpoint's sender; when the sender cannot be reached,
 * puts it on the queue instead (and the sweep covers a queue that fails too). Never throws.
 */
export async function deliverSoon(env: Env, eventId: string, url: string): Promise<void> {
	try {
		await startDelivery(env, eventId, url);
	} catch (error) {
		console.error(JSON.stringify({ level: "warn", event_id: eventId, message: `hand-over failed: ${String(error)}` }));
		await enqueueDelivery(env, eventId, url);
	}
}

/** The endpoint a URL delivers to: its origin (scheme, host, port), or the URL itself when it cannot be parsed. */
function endpointOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}
