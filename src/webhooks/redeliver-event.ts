/**
 * Sending an event again, as the API's redeliver route and the partner console's resend button both
 * do it: each of its deliveries (the callback URL's, and each endpoint's that still exists) is pending
 * again, with a fresh attempt count, and handed to the senders at once.
 */
import type { Owner } from "../accounts/owner.ts";
import { configOf } from "../config.ts";
import { databaseOf } from "../databases.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { resetForRedelivery } from "./delivery-store.ts";
import { type EventRow, findOwnedEvent } from "./event-store.ts";
import { deliverSoon } from "./webhook-sender.do.ts";

/** Why an event is not found: a wrong id, or an event older than the window, archived. */
export function eventNotFoundMessage(env: Env, id: string): string {
	const days = configOf(env).EVENT_RETENTION_DAYS;
	return `No event ${id}. Events older than ${days} days are archived: no longer listed or redelivered.`;
}

/** Redelivers one of the owner's events; the event as it is now (its deliveries pending again), or why not. */
export async function redeliverEvent(
	env: Env,
	owner: Owner,
	id: string,
	now: Date,
): Promise<{ ok: true; event: EventRow } | Refusal> {
	const db = databaseOf(env, owner.accountId);
	const event = await findOwnedEvent(db, owner, id);
	if (event === null) return refusal("event_not_found", "id", eventNotFoundMessage(env, id));
	if (event.d_status === null) return refusalOf("event_never_sent", `Event ${id} is recorded, never sent.`);
	const deliveries = await resetForRedelivery(db, id, now);
	if (deliveries.length === 0) {
		return refusalOf("event_has_no_destination", `Event ${id} has no callback_url or webhook endpoint to be sent to.`);
	}
	await deliverSoon(env, deliveries);
	const updated = await findOwnedEvent(db, owner, id);
	if (updated === null) return refusal("event_not_found", "id", eventNotFoundMessage(env, id));
	return { ok: true, event: updated };
}
