/**
 * Every statement on the webhooks' tables (events, deliveries, webhook_secrets). Other capabilities
 * reach them only through these functions; an order's move adds the statements `eventStatements`
 * builds to its own batch, so a move and its event commit together or not at all.
 */
import type { KeyMode } from "../accounts/scopes.ts";
import type { Cursor } from "../http/cursor.ts";
import { newId } from "../ids.ts";
import { type DeliveryStatus, type OrderEventSubject, type OrderEventType, webhookBody } from "./events.ts";

/** How long the previous secret keeps signing after a rotation. */
export const ROTATION_OVERLAP_MS = 24 * 3600_000;
/** The most secrets that sign at once: the newest and, during a rotation's overlap, the one before it. */
export const MAX_SIGNING_SECRETS = 2;

/**
 * The secrets that sign this account's webhooks of one mode, newest first: one, or two during a
 * rotation's 24 hours. Live and test are apart, so a test key never controls what signs live webhooks.
 */
export async function signingSecrets(db: D1Database, accountId: string, mode: KeyMode, now: Date): Promise<string[]> {
	const { results } = await db
		.prepare(
			`SELECT secret FROM webhook_secrets
			  WHERE account_id = ?1 AND mode = ?2 AND (expires_at IS NULL OR expires_at > ?3)
			  ORDER BY id DESC LIMIT ?4`,
		)
		.bind(accountId, mode, now.toISOString(), MAX_SIGNING_SECRETS)
		.all<{ secret: string }>();
	return results.map((row) => row.secret);
}

/**
 * Makes `secret` the newest signing secret of the account's `mode`, in one batch: the secret that
 * signed until now keeps signing for 24 hours, and any older one still in its overlap (a rotation
 * during a rotation) stops at once, so at most two `v1=` entries are ever sent.
 */
export async function rotateWebhookSecret(
	db: D1Database,
	accountId: string,
	mode: KeyMode,
	secret: string,
	now: Date,
): Promise<{ previousExpiresAt: string }> {
	const at = now.toISOString();
	const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS).toISOString();
	const newestSigning = `(SELECT MAX(id) FROM webhook_secrets
	                         WHERE account_id = ?1 AND mode = ?2 AND (expires_at IS NULL OR expires_at > ?3))`;
	await db.batch([
		db
			.prepare(
				`UPDATE webhook_secrets SET expires_at = ?3
				  WHERE account_id = ?1 AND mode = ?2 AND (expires_at IS NULL OR expires_at > ?3) AND id <> ${newestSigning}`,
			)
			.bind(accountId, mode, at),
		db
			.prepare(`UPDATE webhook_secrets SET expires_at = ?4 WHERE id = ${newestSigning}`)
			.bind(accountId, mode, at, previousExpiresAt),
		db
			.prepare("INSERT INTO webhook_secrets (account_id, mode, secret, created_at) VALUES (?1, ?2, ?3, ?4)")
			.bind(accountId, mode, secret, at),
	]);
	return { previousExpiresAt };
}

/**
 * A condition the event's rows are written under, as SQL numbered from ?1 with its values: the
 * caller's own (for a move, "the order row carries this write's token"), so a stale move writes no event.
 */
export type WriteCondition = { sql: string; params: ReadonlyArray<string> };

/** An event to record: its type, the order it is about, and whether it is sent (to which URL). */
export type NewEvent = {
	type: OrderEventType;
	accountId: string;
	mode: KeyMode;
	order: OrderEventSubject;
	/** null: recorded and listed, not sent (no callback_url, or an event that is never sent). */
	delivery: { url: string | null } | null;
	createdAt: Date;
};

/**
 * The statements that record an event (and its delivery row, pending or `no_endpoint`), only when
 * `condition` holds at commit; for the caller's batch. Returns the new event's id with them.
 */
export function eventStatements(
	db: D1Database,
	event: NewEvent,
	condition: WriteCondition | null,
): { eventId: string; statements: D1PreparedStatement[] } {
	const eventId = newId("evt");
	const at = event.createdAt.toISOString();
	const body = webhookBody(event.type, event.order, eventId, at);
	const guard = (offset: number) =>
		condition === null
			? ""
			: ` WHERE ${condition.sql.replace(/\?(\d+)/g, (_m, n: string) => `?${Number(n) + offset}`)}`;
	const guardParams = condition?.params ?? [];
	const statements = [
		db
			.prepare(
				`INSERT INTO events (id, account_id, mode, order_id, type, body, created_at)
				 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7${guard(7)}`,
			)
			.bind(eventId, event.accountId, event.mode, event.order.id, event.type, body, at, ...guardParams),
	];
	if (event.delivery !== null) {
		const url = event.delivery.url;
		// In the same batch and on the same condition: no event without its delivery.
		statements.push(
			db
				.prepare(
					`INSERT INTO deliveries (event_id, account_id, mode, url, status, next_attempt_at, created_at)
					 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7${guard(7)}`,
				)
				.bind(
					eventId,
					event.accountId,
					event.mode,
					url,
					url === null ? "no_endpoint" : "pending",
					url === null ? null : at,
					at,
					...guardParams,
				),
		);
	}
	return { eventId, statements };
}

/** A delivery with what an attempt needs: where, how often tried, and the body to sign and send. */
export type DueDelivery = {
	event_id: string;
	account_id: string;
	mode: KeyMode;
	url: string | null;
	status: DeliveryStatus;
	attempts: number;
	body: string;
	event_created_at: string;
};

/** The delivery of an event, with its body, or null. */
export function findDelivery(db: D1Database, eventId: string): Promise<DueDelivery | null> {
	return db
		.prepare(
			`SELECT d.event_id, d.account_id, d.mode, d.url, d.status, d.attempts, e.body, e.created_at AS event_created_at
			   FROM deliveries d JOIN events e ON e.id = d.event_id WHERE d.event_id = ?1`,
		)
		.bind(eventId)
		.first<DueDelivery>();
}

/** The URL an event's delivery goes to; null when there is none. */
export async function deliveryUrl(db: D1Database, eventId: string): Promise<string | null> {
	const row = await db
		.prepare("SELECT url FROM deliveries WHERE event_id = ?1")
		.bind(eventId)
		.first<{ url: string | null }>();
	return row?.url ?? null;
}

/** Records a delivered attempt. */
export async function recordDelivered(db: D1Database, eventId: string, now: Date, statusCode: number): Promise<void> {
	await db
		.prepare(
			`UPDATE deliveries SET status = 'delivered', attempts = attempts + 1, last_attempt_at = ?2, last_status_code = ?3,
			   last_error = NULL, delivered_at = ?2, next_attempt_at = NULL WHERE event_id = ?1`,
		)
		.bind(eventId, now.toISOString(), statusCode)
		.run();
}

/** Records a failed attempt: still pending with its next attempt, or `failed` for good when `next` is null. */
export async function recordFailure(
	db: D1Database,
	eventId: string,
	attempt: { at: Date; statusCode: number | null; problem: string; next: Date | null },
): Promise<void> {
	const { at, statusCode, problem, next } = attempt;
	await db
		.prepare(
			`UPDATE deliveries SET status = ?2, attempts = attempts + 1, last_attempt_at = ?3, last_status_code = ?4,
			   last_error = ?5, next_attempt_at = ?6, enqueued_at = CASE WHEN ?6 IS NULL THEN enqueued_at ELSE ?3 END
			 WHERE event_id = ?1`,
		)
		.bind(
			eventId,
			next === null ? "failed" : "pending",
			at.toISOString(),
			statusCode,
			problem,
			next?.toISOString() ?? null,
		)
		.run();
}

/** Pending deliveries with a URL whose next attempt was due before `dueBefore`, the most overdue first. */
export async function overdueDeliveries(
	db: D1Database,
	dueBefore: Date,
	limit: number,
): Promise<Array<{ event_id: string; url: string }>> {
	const { results } = await db
		.prepare(
			`SELECT event_id, url FROM deliveries
			  WHERE status = 'pending' AND next_attempt_at <= ?1 AND url IS NOT NULL ORDER BY next_attempt_at LIMIT ?2`,
		)
		.bind(dueBefore.toISOString(), limit)
		.all<{ event_id: string; url: string }>();
	return results;
}

/**
 * Moves pending deliveries' next attempt to `at`: `enqueued` true when a queue message was just
 * sent for them (the sweep leaves them alone a while), false to mark them for the next sweep.
 */
export async function rescheduleDeliveries(
	db: D1Database,
	eventIds: string[],
	at: Date,
	enqueued: boolean,
): Promise<void> {
	if (eventIds.length === 0) return;
	await db.batch(
		eventIds.map((id) =>
			db
				.prepare(
					"UPDATE deliveries SET next_attempt_at = ?2, enqueued_at = ?3 WHERE event_id = ?1 AND status = 'pending'",
				)
				.bind(id, at.toISOString(), enqueued ? at.toISOString() : null),
		),
	);
}

/** Makes an event's delivery pending again, due now (a redelivery). */
export async function resetForRedelivery(db: D1Database, eventId: string, now: Date): Promise<void> {
	await db
		.prepare("UPDATE deliveries SET status = 'pending', next_attempt_at = ?2, enqueued_at = ?2 WHERE event_id = ?1")
		.bind(eventId, now.toISOString())
		.run();
}

/** An event with its delivery state, as the event log lists it. */
export type EventRow = {
	id: string;
	type: OrderEventType;
	order_id: string;
	created_at: string;
	body: string;
	d_status: DeliveryStatus | null;
	url: string | null;
	attempts: number | null;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
};

const EVENT_COLUMNS = `e.id, e.type, e.order_id, e.created_at, e.body, d.status AS d_status, d.url, d.attempts,
	d.last_attempt_at, d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at`;

/** The owner whose events are read: an account in one mode. */
export type EventOwner = { accountId: string; mode: KeyMode };

/** One of the owner's events with its delivery, or null (another owner's event is not found). */
export function findOwnedEvent(db: D1Database, owner: EventOwner, id: string): Promise<EventRow | null> {
	return db
		.prepare(
			`SELECT ${EVENT_COLUMNS} FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
			  WHERE e.id = ?1 AND e.account_id = ?2 AND e.mode = ?3`,
		)
		.bind(id, owner.accountId, owner.mode)
		.first<EventRow>();
}

/** A page of the owner's events, newest first, after `cursor`; one row more than `limit` when another page follows. */
export async function listEventPage(
	db: D1Database,
	owner: EventOwner,
	filter: {
		orderId?: string;
		type?: OrderEventType;
		deliveryStatus?: DeliveryStatus;
		cursor?: Cursor;
		limit: number;
	},
): Promise<EventRow[]> {
	const { results } = await db
		.prepare(
			`SELECT ${EVENT_COLUMNS} FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
			  WHERE e.account_id = ?1 AND e.mode = ?2
			    AND (?3 IS NULL OR e.order_id = ?3)
			    AND (?4 IS NULL OR e.type = ?4)
			    AND (?5 IS NULL OR d.status = ?5)
			    AND (?6 IS NULL OR e.created_at < ?6 OR (e.created_at = ?6 AND e.id < ?7))
			  ORDER BY e.created_at DESC, e.id DESC
			  LIMIT ?8`,
		)
		.bind(
			owner.accountId,
			owner.mode,
			filter.orderId ?? null,
			filter.type ?? null,
			filter.deliveryStatus ?? null,
			filter.cursor?.createdAt ?? null,
			filter.cursor?.id ?? null,
			filter.limit + 1,
		)
		.all<EventRow>();
	return results;
}
