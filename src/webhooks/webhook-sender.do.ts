import { DurableObject } from "cloudflare:workers";
import { log } from "../log.ts";
import { attemptDelivery } from "./deliver.ts";
import type { PendingDelivery } from "./delivery-store.ts";
import { enqueueOrLeaveToSweep } from "./enqueue.ts";

/** Wait before trying again when an attempt threw (the service's fault, not the receiver's). */
const AFTER_FAULT_SECONDS = 30;

/**
 * One instance per receiving endpoint (named by the receiving URL's origin) makes the delivery
 * attempts to it, side by side, each in the background. Whoever starts an attempt (the order's move,
 * the queue consumer, a redelivery) waits only for the hand-over, never for the receiver: a receiver
 * that hangs for its whole timeout holds up its own attempts and nobody else's, and other endpoints
 * are other objects. (One object per endpoint rather than per event: a new object per event cost
 * about 50 ms of median latency under a stream in the bench.) A failed attempt puts the next one on
 * the queue with the schedule's delay; the delivery row stays the record, so an attempt lost with
 * this object is found again by the cron sweep.
 */
export class WebhookSender extends DurableObject<Env> {
	/** Deliveries with an attempt under way here: a second hand-over of one of them meanwhile is a no-op. */
	#attempting = new Set<string>();

	/** Starts an attempt of the delivery now, in the background, unless one is under way. */
	send(deliveryId: string, url: string): void {
		if (this.#attempting.has(deliveryId)) return;
		this.#attempting.add(deliveryId);
		this.ctx.waitUntil(
			this.#attempt({ id: deliveryId, url }).finally(() => {
				this.#attempting.delete(deliveryId);
			}),
		);
	}

	async #attempt(delivery: PendingDelivery): Promise<void> {
		try {
			const outcome = await attemptDelivery(this.env, delivery.id);
			if (outcome.kind === "retry") await enqueueOrLeaveToSweep(this.env, [delivery], outcome.delaySeconds);
		} catch (error) {
			log.error("webhook.attempt_failed", { delivery_id: delivery.id, message: String(error) });
			await enqueueOrLeaveToSweep(this.env, [delivery], AFTER_FAULT_SECONDS);
		}
	}
}

/**
 * Hands a delivery to the sender of its receiving endpoint (the origin of its URL), which attempts it
 * at once in the background. Throws when the sender cannot be reached; the caller then leaves it to
 * the queue or the sweep.
 */
export async function startDelivery(env: Env, delivery: PendingDelivery): Promise<void> {
	await env.WEBHOOK_SENDER.get(env.WEBHOOK_SENDER.idFromName(endpointOf(delivery.url))).send(delivery.id, delivery.url);
}

/**
 * Starts each delivery now through its endpoint's sender (side by side); those whose sender cannot
 * be reached go on the queue instead, together (and the sweep covers a queue that fails too). Never throws.
 */
export async function deliverSoon(env: Env, deliveries: ReadonlyArray<PendingDelivery>): Promise<void> {
	const unreached: PendingDelivery[] = [];
	await Promise.all(
		deliveries.map(async (delivery) => {
			try {
				await startDelivery(env, delivery);
			} catch (error) {
				log.warn("webhook.hand_over_failed", {
					delivery_id: delivery.id,
					message: `hand-over failed: ${String(error)}`,
				});
				unreached.push(delivery);
			}
		}),
	);
	await enqueueOrLeaveToSweep(env, unreached);
}

/** The endpoint a URL delivers to: its origin (scheme, host, port), or the URL itself when it cannot be parsed. */
function endpointOf(url: string): string {
	try {
		return new URL(url).origin;
	} catch {
		return url;
	}
}
