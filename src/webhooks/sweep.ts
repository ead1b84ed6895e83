import { configOf } from "../config.ts";
import { everyDatabase, findInEveryDatabase } from "../databases.ts";
import { callbackDelivery, overdueDeliveries, rescheduleDeliveries } from "./delivery-store.ts";
import { type DeliveryMessage, enqueueDeliveries } from "./enqueue.ts";

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
	const dueBefore = new Date(now.getTime() - overdueMs(env));
	const swept = await Promise.all(
		everyDatabase(env).map(async (database) => {
			const due = await overdueDeliveries(database, dueBefore, 100);
			if (due.length === 0) return 0;
			// A queue that refuses them fails the run before they are marked enqueued: the next run tries again.
			await enqueueDeliveries(env, due);
			await rescheduleDeliveries(
				database,
				due.map(({ id }) => id),
				now,
				true,
			);
			return due.length;
		}),
	);
	return swept.reduce((sum, count) => sum + count, 0);
}

/**
 * Dead-lettered messages go back to the sweep: their deliveries are marked overdue now. A message
 * from before deliveries had ids stands for its event's callback delivery.
 */
export async function returnToSweep(
	env: Env,
	messages: ReadonlyArray<DeliveryMessage>,
	now: Date = new Date(),
): Promise<void> {
	const ids = await Promise.all(
		messages.map(async ({ delivery_id: deliveryId, event_id: eventId }) => {
			if (typeof deliveryId === "string") return deliveryId;
			if (typeof eventId !== "string") return null;
			return (await findInEveryDatabase(env, (database) => callbackDelivery(database, eventId)))?.id ?? null;
		}),
	);
	const known = ids.filter((id): id is string => id !== null);
	// A delivery's id does not say its database: each marks the ones it holds.
	await Promise.all(
		everyDatabase(env).map((database) =>
			rescheduleDeliveries(database, known, new Date(now.getTime() - OVERDUE_MS), false),
		),
	);
}
