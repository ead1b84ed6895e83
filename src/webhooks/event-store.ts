/**
 * Every statement on `events`: recording an event with its deliveries, and reading the event log.
 * An order's move adds the statements `eventStatements` builds to its own batch, so a move and its
 * event commit together or not at all. The deliveries' own life (attempts, retries, the sweep) is
 * delivery-store.ts's.
 */

import type { Owner } from "../accounts/owner.ts";
import type { KeyMode } from "../accounts/scopes.ts";
import type { Cursor } from "../http/cursor.ts";
import { allConditions, condition, noConditions } from "../http/sql-conditions.ts";
import { newId, newOrderedId } from "../ids.ts";
import type { DeliveryStatus, PendingDelivery } from "./delivery-store.ts";

/**
 * A condition the event's rows are written under, as SQL numbered from ?1 with its values: the
 * caller's own (for a move, "the order row carries this write's token"), so a stale move writes no event.
 */
export type WriteCondition = { sql: string; params: ReadonlyArray<string> };

/** The condition's SQL with its parameters numbered after a statement's own `offset` ones (`?1` becomes `?<offset + 1>`). */
export function conditionAfter(condition: WriteCondition, offset: number): string {
	return condition.sql.replace(/\?(\d+)/g, (_match, n: string) => `?${Number(n) + offset}`);
}

/**
 * An event to record: its id and type, the order it is about, its body, and whether it is sent (to
 * which URL). The body is the capability's that owns the event (orders', claims'): written and checked
 * against the event's schema there, and stored, signed and sent here exactly as given, never read.
 */
export type NewEvent = {
	/** From `newEventId`; the body's `id` too. */
	id: string;
	type: string;
	accountId: string;
	mode: KeyMode;
	orderId: string;
	/** The body as JSON text: the bytes that are signed and sent. */
	body: string;
	/**
	 * null: recorded and listed, never sent (order.received). Otherwise sent to the order's callback URL
	 * (none: a `no_endpoint` record) and to every endpoint of the account's mode that subscribes to the type.
	 */
	delivery: { url: string | null } | null;
	/** When it happened; the body's `created_at` too. */
	createdAt: Date;
};

/**
 * A new event's id. Ordered: one move's events share their created_at, and the log lists by
 * (created_at, id), so a ship's shipment.created always precedes its order.shipped, as they were written.
 */
export function newEventId(): string {
	return newOrderedId("evt");
}

/** The statements that record an event, and how to read the deliveries they made from their results. */
export type RecordedEvent = {
	eventId: string;
	statements: D1PreparedStatement[];
	/** The pending deliveries the statements wrote, from their results (in order, one per statement). */
	pendingDeliveries(results: ReadonlyArray<D1Result>): PendingDelivery[];
};

/** The delivery rows' columns an insert names. */
const DELIVERY_INSERT = `INSERT INTO deliveries (id, event_id, endpoint_id, account_id, mode, url, status, next_attempt_at, created_at)`;

/**
 * The statements that record an event and its deliveries (the callback URL's, pending or
 * `no_endpoint`, and one per subscribed endpoint that is not paused, in the same batch: the endpoints are read by the
 * insert itself, not before), only when `condition` holds at commit; for the caller's batch.
 */
export function insertEvent(db: D1Database, event: NewEvent, condition: WriteCondition | null): RecordedEvent {
	const eventId = event.id;
	const at = event.createdAt.toISOString();
	const renumbered = (offset: number) => (condition === null ? null : conditionAfter(condition, offset));
	const guard = (offset: number) => {
		const sql = renumbered(offset);
		return sql === null ? "" : ` WHERE ${sql}`;
	};
	const guardParams = condition?.params ?? [];
	const statements = [
		db
			.prepare(
				`INSERT INTO events (id, account_id, mode, order_id, type, body, created_at)
				 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7${guard(7)}`,
			)
			.bind(eventId, event.accountId, event.mode, event.orderId, event.type, event.body, at, ...guardParams),
	];
	if (event.delivery === null) return { eventId, statements, pendingDeliveries: () => [] };

	const callbackUrl = event.delivery.url;
	const callbackId = newId("dlv");
	// In the same batch and on the same condition: no event without its deliveries.
	statements.push(
		db
			.prepare(`${DELIVERY_INSERT} SELECT ?1, ?2, NULL, ?3, ?4, ?5, ?6, ?7, ?8${guard(8)}`)
			.bind(
				callbackId,
				eventId,
				event.accountId,
				event.mode,
				callbackUrl,
				callbackUrl === null ? "no_endpoint" : "pending",
				callbackUrl === null ? null : at,
				at,
				...guardParams,
			),
	);
	const endpointGuard = renumbered(5);
	statements.push(
		db
			.prepare(
				`${DELIVERY_INSERT}
				 SELECT 'dlv_' || lower(hex(randomblob(16))), ?1, w.id, w.account_id, w.mode, w.url, 'pending', ?2, ?2
				   FROM webhook_endpoints w
				  WHERE w.account_id = ?3 AND w.mode = ?4 AND instr(' ' || w.events || ' ', ' ' || ?5 || ' ') > 0
				        AND w.paused_at IS NULL
				        ${endpointGuard === null ? "" : `AND ${endpointGuard}`}
				 RETURNING id, url`,
			)
			.bind(eventId, at, event.accountId, event.mode, event.type, ...guardParams),
	);
	return {
		eventId,
		statements,
		pendingDeliveries(results) {
			const callback: PendingDelivery[] =
				callbackUrl !== null && (results[1]?.meta.changes ?? 0) > 0 ? [{ id: callbackId, url: callbackUrl }] : [];
			const endpoints = (results[2]?.results ?? []) as PendingDelivery[];
			return [...callback, ...endpoints];
		},
	};
}
/** An event with its delivery state, as the event log lists it. */
export type EventRow = {
	id: string;
	type: string;
	order_id: string;
	created_at: string;
	/** The webhook body, as signed and sent, parsed. */
	body: Record<string, unknown>;
	d_id: string | null;
	d_status: DeliveryStatus | null;
	url: string | null;
	attempts: number | null;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
	/** The deliveries to the account's endpoints. */
	endpoint_deliveries: EndpointDeliveryRow[];
};

/** A delivery to one of the account's endpoints, as the event log lists it. */
export type EndpointDeliveryRow = {
	id: string;
	endpoint_id: string;
	status: DeliveryStatus;
	url: string;
	attempts: number;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
};

// The callback URL's delivery is joined; the endpoints' come in the same row, as JSON (one round trip).
const EVENT_COLUMNS = `e.id, e.type, e.order_id, e.created_at, e.body, d.id AS d_id, d.status AS d_status, d.url, d.attempts,
	d.last_attempt_at, d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at,
	(SELECT json_group_array(json_object('id', x.id, 'endpoint_id', x.endpoint_id, 'status', x.status, 'url', x.url,
	   'attempts', x.attempts, 'last_attempt_at', x.last_attempt_at, 'last_status_code', x.last_status_code,
	   'last_error', x.last_error, 'next_attempt_at', x.next_attempt_at, 'delivered_at', x.delivered_at))
	   FROM deliveries x WHERE x.event_id = e.id AND x.endpoint_id IS NOT NULL) AS endpoint_deliveries`;
const EVENT_SOURCE = "events e LEFT JOIN deliveries d ON d.event_id = e.id AND d.endpoint_id IS NULL";

/** An event row as D1 returns it: the body and the endpoints' deliveries still JSON text. */
type StoredEventRow = Omit<EventRow, "body" | "endpoint_deliveries"> & { body: string; endpoint_deliveries: string };

function eventOf(row: StoredEventRow): EventRow {
	return {
		...row,
		body: JSON.parse(row.body) as Record<string, unknown>,
		endpoint_deliveries: JSON.parse(row.endpoint_deliveries) as EndpointDeliveryRow[],
	};
}

/** The owner whose events are read: an account in one mode, as every partner resource is owned. */
export type EventOwner = Owner;

/** One of the owner's events with its delivery, or null (another owner's event is not found). */
export async function findOwnedEvent(db: D1Database, owner: EventOwner, id: string): Promise<EventRow | null> {
	const row = await db
		.prepare(
			`SELECT ${EVENT_COLUMNS} FROM ${EVENT_SOURCE}
			  WHERE e.id = ?1 AND e.account_id = ?2 AND e.mode = ?3`,
		)
		.bind(id, owner.accountId, owner.mode)
		.first<StoredEventRow>();
	return row === null ? null : eventOf(row);
}

/**
 * A page of the owner's events, newest first, after `cursor`; one row more than `limit` when another
 * page follows. Only the filters asked for are in the SQL: an order's events are found through
 * `events_by_order` (the owner is then checked on those few rows), the others through
 * `events_by_owner` in the page's order.
 */
export async function listEventPage(
	db: D1Database,
	owner: EventOwner,
	filter: {
		orderId?: string;
		type?: string;
		deliveryStatus?: DeliveryStatus;
		cursor?: Cursor;
		limit: number;
	},
): Promise<EventRow[]> {
	const where = noConditions();
	const { orderId, type, deliveryStatus, cursor } = filter;
	if (deliveryStatus !== undefined && orderId === undefined) {
		// A delivery state (failed, say) may be rare among the owner's events: the page is found from the
		// owner's deliveries in that state (deliveries_by_owner_status, newest first; a delivery's
		// created_at is its event's), so the rows read are the page's, not every event until enough match.
		const inner = noConditions();
		condition(inner, "x.account_id = ?", owner.accountId);
		condition(inner, "x.mode = ?", owner.mode);
		condition(inner, "x.status = ?", deliveryStatus);
		if (cursor !== undefined) condition(inner, "(x.created_at, x.event_id) < (?, ?)", cursor.createdAt, cursor.id);
		const join = type === undefined ? "" : " JOIN events t ON t.id = x.event_id AND t.type = ?";
		condition(
			where,
			`e.id IN (SELECT DISTINCT x.event_id FROM deliveries x${join} WHERE ${allConditions(inner)}
			           ORDER BY x.created_at DESC, x.event_id DESC LIMIT ?)`,
			...(type === undefined ? [] : [type]),
			...inner.params,
			filter.limit + 1,
		);
	} else {
		if (orderId === undefined) {
			condition(where, "e.account_id = ?", owner.accountId);
			condition(where, "e.mode = ?", owner.mode);
		} else {
			condition(where, "e.order_id = ?", orderId);
			// Unary + keeps the planner on events_by_order: the owner is a check on the order's few events.
			condition(where, "+e.account_id = ?", owner.accountId);
			condition(where, "+e.mode = ?", owner.mode);
		}
		if (type !== undefined) condition(where, "e.type = ?", type);
		if (deliveryStatus !== undefined) {
			condition(where, "EXISTS (SELECT 1 FROM deliveries x WHERE x.event_id = e.id AND x.status = ?)", deliveryStatus);
		}
		if (cursor !== undefined) condition(where, "(e.created_at, e.id) < (?, ?)", cursor.createdAt, cursor.id);
	}
	const { results } = await db
		.prepare(
			`SELECT ${EVENT_COLUMNS} FROM ${EVENT_SOURCE} WHERE ${allConditions(where)} ORDER BY e.created_at DESC, e.id DESC LIMIT ?`,
		)
		.bind(...where.params, filter.limit + 1)
		.all<StoredEventRow>();
	return results.map(eventOf);
}

/**
 * Where an event of the owner's sits in the log, (created_at, id), to read the events after it; null
 * when the owner has no such event (a wrong id, another owner's, or archived).
 */
export async function eventPosition(db: D1Database, owner: EventOwner, id: string): Promise<Cursor | null> {
	const row = await db
		.prepare("SELECT created_at, id FROM events WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
		.bind(id, owner.accountId, owner.mode)
		.first<{ created_at: string; id: string }>();
	return row === null ? null : { createdAt: row.created_at, id: row.id };
}

/**
 * The owner's events after `after` (from the oldest kept when null), OLDEST first, at most `limit`:
 * the log read forward, to follow it. Only events created before `settledBefore` are read: an event's
 * created_at is taken when its move starts and it commits a moment later, so an event with an earlier
 * time may still be arriving just behind the newest; a reader that waits for the margin skips none.
 * Found through `events_by_owner` (or `events_by_owner_type` with a type, `events_by_order` with an
 * order) in its order, from the position on.
 */
export async function listEventsAfter(
	db: D1Database,
	owner: EventOwner,
	filter: { after: Cursor | null; settledBefore: Date; orderId?: string; type?: string; limit: number },
): Promise<EventRow[]> {
	const where = noConditions();
	if (filter.orderId === undefined) {
		condition(where, "e.account_id = ?", owner.accountId);
		condition(where, "e.mode = ?", owner.mode);
	} else {
		condition(where, "e.order_id = ?", filter.orderId);
		// Unary + keeps the planner on events_by_order, as in listEventPage.
		condition(where, "+e.account_id = ?", owner.accountId);
		condition(where, "+e.mode = ?", owner.mode);
	}
	if (filter.type !== undefined) condition(where, "e.type = ?", filter.type);
	if (filter.after !== null) condition(where, "(e.created_at, e.id) > (?, ?)", filter.after.createdAt, filter.after.id);
	condition(where, "e.created_at < ?", filter.settledBefore.toISOString());
	const { results } = await db
		.prepare(
			`SELECT ${EVENT_COLUMNS} FROM ${EVENT_SOURCE} WHERE ${allConditions(where)} ORDER BY e.created_at, e.id LIMIT ?`,
		)
		.bind(...where.params, filter.limit)
		.all<StoredEventRow>();
	return results.map(eventOf);
}

/** An event due for the archive: as the event log reads it, with its owner. */
export type ArchivableEventRow = EventRow & EventOwner;

/**
 * The oldest events created before `before` whose deliveries are all finished (none pending: a
 * delivery still under way keeps its event), at most `limit` of them and, past the first, no more
 * than `maxBytes` of bodies, found through `events_by_time` in its order. The events held back by a
 * pending delivery are read past, so they never stop the rest. Two reads: the sizes, then the rows.
 * `from: "newest"` takes the newest due events instead (walking the same index down from `before`).
 */
export async function archivableEvents(
	db: D1Database,
	before: Date,
	limit: number,
	maxBytes: number,
	from: "oldest" | "newest" = "oldest",
): Promise<ArchivableEventRow[]> {
	const direction = from === "oldest" ? "" : " DESC";
	// The candidates' sizes first (no body leaves D1), then the full rows of those that fit the budget,
	// each by its id: a run of large events is cut short, never skipped, and the first always goes.
	const { results: candidates } = await db
		.prepare(
			`SELECT e.id, length(CAST(e.body AS BLOB)) AS size FROM events e
			  WHERE e.created_at < ?1
			    AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.event_id = e.id AND +p.status = 'pending')
			  ORDER BY e.created_at${direction}, e.id${direction} LIMIT ?2`,
		)
		.bind(before.toISOString(), limit)
		.all<{ id: string; size: number }>();
	const taken: string[] = [];
	let bytes = 0;
	for (const candidate of candidates) {
		if (taken.length > 0 && bytes + candidate.size > maxBytes) break;
		taken.push(candidate.id);
		bytes += candidate.size;
	}
	if (taken.length === 0) return [];
	const { results } = await db
		.prepare(
			`SELECT ${EVENT_COLUMNS}, e.account_id AS accountId, e.mode FROM ${EVENT_SOURCE}
			  WHERE e.id IN (SELECT value FROM json_each(?1))
			  ORDER BY e.created_at, e.id`,
		)
		.bind(JSON.stringify(taken))
		.all<StoredEventRow & EventOwner>();
	return results.map((row) => ({ ...eventOf(row), accountId: row.accountId, mode: row.mode }));
}

/**
 * Deletes archived events and their deliveries, in one batch: each event only while none of its
 * deliveries is pending (a redelivery asked for since it was read keeps it, to be archived again
 * once finished). Returns how many events left D1.
 */
export async function deleteArchivedEvents(db: D1Database, eventIds: ReadonlyArray<string>): Promise<number> {
	if (eventIds.length === 0) return 0;
	const ids = JSON.stringify(eventIds);
	// Unary + keeps the planner on each event's few deliveries (deliveries_by_event), not every pending one.
	const [, events] = await db.batch([
		db
			.prepare(
				`DELETE FROM deliveries WHERE event_id IN (SELECT value FROM json_each(?1))
				   AND NOT EXISTS (SELECT 1 FROM deliveries p WHERE p.event_id = deliveries.event_id AND +p.status = 'pending')`,
			)
			.bind(ids),
		db
			.prepare(
				`DELETE FROM events WHERE id IN (SELECT value FROM json_each(?1))
				   AND NOT EXISTS (SELECT 1 FROM deliveries d WHERE d.event_id = events.id)`,
			)
			.bind(ids),
	]);
	return events?.meta.changes ?? 0;
}
