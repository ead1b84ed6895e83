/**
 * The account's webhook endpoints: every statement on `webhook_endpoints`. An endpoint belongs to an
 * account in one mode and receives the event types it subscribes to, besides each order's callback URL.
 */

import type { Owner } from "../accounts/owner.ts";
import type { KeyMode } from "../accounts/scopes.ts";
import { newId } from "../ids.ts";

/** The most endpoints an account has in one mode. */
export const MAX_ENDPOINTS_PER_MODE = 10;

/** An endpoint as stored. */
export type EndpointRow = {
	id: string;
	account_id: string;
	mode: KeyMode;
	/** Normalised (`normalisedUrl`): the unique index on it then holds one row per receiver. */
	url: string;
	/** Space-separated event types. */
	events: string;
	description: string | null;
	created_at: string;
	/** When it was paused; null while it receives events. A paused endpoint gets no deliveries. */
	paused_at: string | null;
};

/** The owner of endpoints: an account in one mode, as every partner resource is owned. */
export type EndpointOwner = Owner;

/** The event types of a stored endpoint, in the order `sent` lists them (words not in it dropped). */
export function subscribedTypes(row: Pick<EndpointRow, "events">, sent: readonly string[]): string[] {
	const words = new Set(row.events.split(" "));
	return sent.filter((type) => words.has(type));
}

/** Why an endpoint was not added. */
export type AddRefusal = "limit" | "duplicate_url";

/**
 * Adds an endpoint unless the owner already has MAX_ENDPOINTS_PER_MODE in this mode or one with this
 * URL: one statement decides both, so two concurrent adds cannot pass the limit together. `url` must
 * be normalised (`normalisedUrl`), or another spelling of a registered URL would pass the index.
 * `events` are stored as `sent` lists them, each once.
 */
export async function addEndpoint(
	db: D1Database,
	owner: EndpointOwner,
	input: { url: string; events: readonly string[]; description: string | null },
	sent: readonly string[],
	now: Date,
): Promise<{ ok: true; endpoint: EndpointRow } | { ok: false; refusal: AddRefusal }> {
	const row: EndpointRow = {
		id: newId("whe"),
		account_id: owner.accountId,
		mode: owner.mode,
		url: input.url,
		events: sent.filter((type) => input.events.includes(type)).join(" "),
		description: input.description,
		created_at: now.toISOString(),
		paused_at: null,
	};
	const result = await db
		.prepare(
			`INSERT INTO webhook_endpoints (id, account_id, mode, url, events, description, created_at)
			 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7
			  WHERE (SELECT COUNT(*) FROM webhook_endpoints WHERE account_id = ?2 AND mode = ?3) < ?8
			 ON CONFLICT (account_id, mode, url) DO NOTHING`,
		)
		.bind(
			row.id,
			row.account_id,
			row.mode,
			row.url,
			row.events,
			row.description,
			row.created_at,
			MAX_ENDPOINTS_PER_MODE,
		)
		.run();
	if (result.meta.changes > 0) return { ok: true, endpoint: row };
	const taken = await db
		.prepare("SELECT 1 AS taken FROM webhook_endpoints WHERE account_id = ?1 AND mode = ?2 AND url = ?3")
		.bind(owner.accountId, owner.mode, input.url)
		.first<{ taken: number }>();
	return { ok: false, refusal: taken === null ? "limit" : "duplicate_url" };
}

/** The owner's endpoints, oldest first (at most MAX_ENDPOINTS_PER_MODE). */
export async function listEndpoints(db: D1Database, owner: EndpointOwner): Promise<EndpointRow[]> {
	const { results } = await db
		.prepare("SELECT * FROM webhook_endpoints WHERE account_id = ?1 AND mode = ?2 ORDER BY created_at, id")
		.bind(owner.accountId, owner.mode)
		.all<EndpointRow>();
	return results;
}

/** One of the owner's endpoints, or null (another account's or mode's is not found). */
export function findEndpoint(db: D1Database, owner: EndpointOwner, id: string): Promise<EndpointRow | null> {
	return db
		.prepare("SELECT * FROM webhook_endpoints WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
		.bind(id, owner.accountId, owner.mode)
		.first<EndpointRow>();
}

/**
 * Pauses one of the owner's endpoints (events recorded while it is paused get no delivery to it) or
 * resumes it; pausing a paused endpoint keeps its first time. The endpoint as it is now, or null when
 * the owner has no such endpoint.
 */
export function setEndpointPaused(
	db: D1Database,
	owner: EndpointOwner,
	id: string,
	paused: boolean,
	now: Date,
): Promise<EndpointRow | null> {
	return db
		.prepare(
			`UPDATE webhook_endpoints SET paused_at = CASE WHEN ?4 THEN COALESCE(paused_at, ?5) ELSE NULL END
			  WHERE id = ?1 AND account_id = ?2 AND mode = ?3 RETURNING *`,
		)
		.bind(id, owner.accountId, owner.mode, Number(paused), now.toISOString())
		.first<EndpointRow>();
}

/**
 * Deletes one of the owner's endpoints and, in the same batch, ends its pending deliveries as
 * failed (nothing more is sent to it). Whether it existed.
 */
export async function deleteEndpoint(db: D1Database, owner: EndpointOwner, id: string): Promise<boolean> {
	const [deleted] = await db.batch([
		db
			.prepare("DELETE FROM webhook_endpoints WHERE id = ?1 AND account_id = ?2 AND mode = ?3")
			.bind(id, owner.accountId, owner.mode),
		db
			.prepare(
				`UPDATE deliveries SET status = 'failed', next_attempt_at = NULL, last_error = 'The endpoint was deleted.'
				  WHERE endpoint_id = ?1 AND status = 'pending' AND account_id = ?2 AND mode = ?3
				    AND NOT EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = ?1)`,
			)
			.bind(id, owner.accountId, owner.mode),
	]);
	return (deleted?.meta.changes ?? 0) > 0;
}
