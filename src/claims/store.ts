/**
 * Every statement on `claims` and `claim_items`. A claim is written in one batch: its row under a guard
 * that re-counts the claimed units of each item at commit, its units and its `claim.created` event
 * only where the row was written. Concurrent claims therefore never claim more than shipped.
 */

import type { Owner } from "../accounts/owner.ts";
import type { Cursor } from "../http/cursor.ts";
import { allConditions, condition, noConditions } from "../http/sql-conditions.ts";
import { claimCreditEntry, type EntryOrder } from "../ledger/store.ts";
import type { ItemRow, OrderRow } from "../orders/rows.ts";
import { orderInsertStatements } from "../orders/store.ts";
import {
	insertEvent,
	newEventId,
	type PendingDelivery,
	type RecordedEvent,
	type WriteCondition,
} from "../webhooks/store.ts";
import { type ClaimEvent, claimEventBody } from "./events.ts";
import type { ClaimedUnits, ClaimReason, StandingUnits } from "./rules.ts";
import type { Claim, ClaimStatus } from "./schema.ts";

/** A claims row as stored, its JSON columns as text. */
type ClaimColumns = {
	id: string;
	account_id: string;
	mode: string;
	order_id: string;
	reason: ClaimReason;
	description: string;
	photos: string;
	status: ClaimStatus;
	resolution: string | null;
	created_at: string;
	resolved_at: string | null;
};

/** A claim with the account and mode it belongs to. */
export type StoredClaim = { claim: Claim; accountId: string; mode: string };

type ItemColumns = { claim_id: string; item_id: string; quantity: number };

/** The claim a row and its units make. */
function claimOf(row: ClaimColumns, units: ReadonlyArray<ItemColumns>): StoredClaim {
	return {
		accountId: row.account_id,
		mode: row.mode,
		claim: {
			id: row.id,
			order_id: row.order_id,
			status: row.status,
			reason: row.reason,
			items: units
				.filter((unit) => unit.claim_id === row.id)
				.map(({ item_id, quantity }) => ({ item_id, quantity }))
				.sort((a, b) => a.item_id.localeCompare(b.item_id)),
			description: row.description,
			photos: JSON.parse(row.photos) as string[],
			created_at: row.created_at,
			resolution: row.resolution === null ? null : (JSON.parse(row.resolution) as Claim["resolution"]),
		},
	};
}

/** The rows of claims and their units, as read together. */
function claimsOfRows(rows: ReadonlyArray<unknown>, units: ReadonlyArray<unknown>): StoredClaim[] {
	return (rows as ClaimColumns[]).map((row) => claimOf(row, units as ItemColumns[]));
}

/** An order's claims, oldest first, with their units: two statements in one batch. */
export async function claimsOfOrder(db: D1Database, orderId: string): Promise<StoredClaim[]> {
	const [rows, units] = await db.batch([
		db.prepare("SELECT * FROM claims WHERE order_id = ?1 ORDER BY created_at, id").bind(orderId),
		db
			.prepare(
				"SELECT ci.claim_id, ci.item_id, ci.quantity FROM claims c JOIN claim_items ci ON ci.claim_id = c.id WHERE c.order_id = ?1",
			)
			.bind(orderId),
	]);
	return claimsOfRows(rows?.results ?? [], units?.results ?? []);
}

/** The units of each item in the open or approved claims among `claims`, losses apart from the rest. */
export function unitsInStandingClaims(claims: ReadonlyArray<StoredClaim>): StandingUnits {
	const lost = new Map<string, number>();
	const arrived = new Map<string, number>();
	for (const { claim } of claims) {
		if (claim.status === "rejected") continue;
		const held = claim.reason === "lost_in_transit" ? lost : arrived;
		for (const unit of claim.items) held.set(unit.item_id, (held.get(unit.item_id) ?? 0) + unit.quantity);
	}
	return { lost, arrived };
}

/** A claim by id alone, with its units (the service team's routes), or null. */
export async function findClaim(db: D1Database, id: string): Promise<StoredClaim | null> {
	const [rows, units] = await db.batch([
		db.prepare("SELECT * FROM claims WHERE id = ?1").bind(id),
		db.prepare("SELECT claim_id, item_id, quantity FROM claim_items WHERE claim_id = ?1").bind(id),
	]);
	return claimsOfRows(rows?.results ?? [], units?.results ?? [])[0] ?? null;
}

/** A claim of this account and mode, or null: another account's or mode's claim is not found. */
export async function findOwnedClaim(db: D1Database, owner: Owner, id: string): Promise<StoredClaim | null> {
	const found = await findClaim(db, id);
	if (found === null || found.accountId !== owner.accountId || found.mode !== owner.mode) return null;
	return found;
}

/** What a listing is narrowed to and where its page starts. */
export type ClaimFilter = { status?: ClaimStatus; limit: number; cursor?: Cursor };

/**
 * A page of an owner's claims, newest first, keyset on (created_at, id): claims_by_owner, or
 * claims_by_owner_status with a status, serves the WHERE and the order; the units of the page's
 * claims are one more statement of the same batch.
 */
export async function listClaims(
	db: D1Database,
	owner: Owner,
	filter: ClaimFilter,
): Promise<{ page: StoredClaim[]; more: boolean }> {
	const where = noConditions();
	condition(where, "account_id = ?", owner.accountId);
	condition(where, "mode = ?", owner.mode);
	if (filter.status !== undefined) condition(where, "status = ?", filter.status);
	if (filter.cursor !== undefined)
		condition(where, "(created_at, id) < (?, ?)", filter.cursor.createdAt, filter.cursor.id);
	const page = `SELECT * FROM claims WHERE ${allConditions(where)} ORDER BY created_at DESC, id DESC LIMIT ?`;
	const [rows, units] = await db.batch([
		db.prepare(page).bind(...where.params, filter.limit + 1),
		db
			.prepare(`SELECT ci.claim_id, ci.item_id, ci.quantity FROM (${page}) c JOIN claim_items ci ON ci.claim_id = c.id`)
			.bind(...where.params, filter.limit),
	]);
	const found = claimsOfRows(rows?.results ?? [], units?.results ?? []);
	return { page: found.slice(0, filter.limit), more: found.length > filter.limit };
}

/**
 * A new claim to write: the claim, its owner, the most units of each claimed item that open or approved
 * claims may hold once it is in (the rules' caps), and its event.
 */
export type NewClaim = {
	claim: Claim;
	owner: Owner;
	caps: ReadonlyMap<string, number>;
	event: Omit<ClaimEvent, "claim">;
};

/**
 * The statements that record a claim event, with its deliveries, only when `condition` holds at
 * commit; for the caller's batch, so a claim's change and its event commit together or not at all.
 */
function claimEventStatements(db: D1Database, event: ClaimEvent, condition: WriteCondition | null): RecordedEvent {
	const id = newEventId();
	return insertEvent(
		db,
		{
			id,
			type: event.type,
			accountId: event.accountId,
			mode: event.mode,
			orderId: event.order.id,
			body: claimEventBody(event, id),
			delivery: event.delivery,
			createdAt: event.createdAt,
		},
		condition,
	);
}

/** The condition "the claim's row was written", for the statements that follow it in its batch. */
function claimWritten(id: string) {
	return { sql: "EXISTS (SELECT 1 FROM claims WHERE id = ?1)", params: [id] };
}

/**
 * Writes a claim, its units and its event in one batch, only if, at commit, every claimed item's units
 * in open or approved claims plus the new ones stay within its cap. Returns the event's
 * pending deliveries, or null when the guard refused (another claim took the units meanwhile).
 */
export async function insertClaim(db: D1Database, created: NewClaim): Promise<PendingDelivery[] | null> {
	const { claim, owner, caps } = created;
	const units: ReadonlyArray<ClaimedUnits> = claim.items;
	// Each item's guard: ?(n) its id, ?(n+1) the units claimed now, ?(n+2) its cap.
	const guards = units.map(
		(_, index) =>
			`(SELECT COALESCE(SUM(ci.quantity), 0) FROM claim_items ci JOIN claims c ON c.id = ci.claim_id
			   WHERE ci.item_id = ?${10 + index * 3} AND c.status <> 'rejected') + ?${11 + index * 3} <= ?${12 + index * 3}`,
	);
	const guardParams = units.flatMap((unit) => [unit.item_id, unit.quantity, caps.get(unit.item_id) ?? 0]);
	const written = claimWritten(claim.id);
	const recorded = claimEventStatements(db, { ...created.event, claim }, written);
	const statements = [
		db
			.prepare(
				`INSERT INTO claims (id, account_id, mode, order_id, reason, description, photos, status, created_at)
				 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9 WHERE ${guards.join(" AND ")}`,
			)
			.bind(
				claim.id,
				owner.accountId,
				owner.mode,
				claim.order_id,
				claim.reason,
				claim.description,
				JSON.stringify(claim.photos),
				claim.status,
				claim.created_at,
				...guardParams,
			),
		...units.map((unit) =>
			db
				.prepare(
					"INSERT INTO claim_items (claim_id, item_id, quantity) SELECT ?1, ?2, ?3 WHERE EXISTS (SELECT 1 FROM claims WHERE id = ?1)",
				)
				.bind(claim.id, unit.item_id, unit.quantity),
		),
		// Each photo's row tells the retention sweep the file belongs to this claim while it is open; a
		// photo expired meanwhile fails the batch (a trigger), so no claim names a deleted file.
		...claim.photos.map((photoId) =>
			db
				.prepare(
					"INSERT INTO claim_photos (print_file_id, claim_id) SELECT ?1, ?2 WHERE EXISTS (SELECT 1 FROM claims WHERE id = ?2)",
				)
				.bind(photoId, claim.id),
		),
		...recorded.statements,
	];
	const results = await db.batch(statements);
	if ((results[0]?.meta.changes ?? 0) === 0) return null;
	return recorded.pendingDeliveries(results.slice(1 + units.length + claim.photos.length));
}

/** A decision to write: the claim as it resolves it, who owns it, a random id of the decision, and its event. */
export type ClaimDecision = {
	claim: Claim;
	accountId: string;
	resolutionId: string;
	/** The claimed order as a refund's ledger entry names it (its external id in the memo, its currency and tax). */
	order: EntryOrder;
	event: Omit<ClaimEvent, "claim">;
	/** A reprint's new order, written with the decision or not at all. */
	reprint: { order: OrderRow; items: ItemRow[] } | null;
};

/**
 * Writes a decision on a claim still `submitted`, with its event (and a reprint's order, or a refund's
 * credit), in one batch; all of it only where this decision's update applied. Returns the event's
 * pending deliveries, or null when the claim was resolved already (another decision won, even one
 * made at the same moment).
 */
export async function writeDecision(db: D1Database, decision: ClaimDecision): Promise<PendingDelivery[] | null> {
	const { claim, resolutionId } = decision;
	// The event and a refund's credit are written only by the decision that won.
	const condition = {
		sql: "EXISTS (SELECT 1 FROM claims WHERE id = ?1 AND resolution_id = ?2)",
		params: [claim.id, resolutionId],
	};
	const recorded = claimEventStatements(db, { ...decision.event, claim }, condition);
	const creditCents = claim.resolution?.credit_cents ?? 0;
	const credit =
		creditCents > 0
			? [
					claimCreditEntry(
						db,
						{ accountId: decision.accountId, mode: decision.event.mode },
						{
							id: claim.id,
							order: decision.order,
							creditCents,
						},
						decision.event.createdAt,
						condition,
					),
				]
			: [];
	const results = await db.batch([
		db
			.prepare(
				`UPDATE claims SET status = ?2, resolution = ?3, resolution_id = ?4, resolved_at = ?5
				 WHERE id = ?1 AND status = 'submitted'`,
			)
			.bind(
				claim.id,
				claim.status,
				JSON.stringify(claim.resolution),
				resolutionId,
				claim.resolution?.resolved_at ?? null,
			),
		...recorded.statements,
		...credit,
		...(decision.reprint === null
			? []
			: orderInsertStatements(db, decision.reprint.order, decision.reprint.items, decision.event.createdAt, condition)),
	]);
	if ((results[0]?.meta.changes ?? 0) === 0) return null;
	return recorded.pendingDeliveries(results.slice(1));
}

/**
 * A page of every account's claims in `status`, oldest first (the service team's work list), keyset on
 * (created_at, id) in claims_by_status; the page's units ride in the same batch.
 */
export async function listClaimsInStatus(
	db: D1Database,
	status: ClaimStatus,
	limit: number,
	cursor: Cursor | undefined,
): Promise<{ page: StoredClaim[]; more: boolean }> {
	const where = noConditions();
	condition(where, "status = ?", status);
	if (cursor !== undefined) condition(where, "(created_at, id) > (?, ?)", cursor.createdAt, cursor.id);
	const page = `SELECT * FROM claims WHERE ${allConditions(where)} ORDER BY created_at, id LIMIT ?`;
	const [rows, units] = await db.batch([
		db.prepare(page).bind(...where.params, limit + 1),
		db
			.prepare(`SELECT ci.claim_id, ci.item_id, ci.quantity FROM (${page}) c JOIN claim_items ci ON ci.claim_id = c.id`)
			.bind(...where.params, limit),
	]);
	const found = claimsOfRows(rows?.results ?? [], units?.results ?? []);
	return { page: found.slice(0, limit), more: found.length > limit };
}

/** A condition (over an order id in `{order_id}`) that holds when the order has a claim, whatever its status: such an order stays in D1. */
export const ORDER_HAS_CLAIM = "EXISTS (SELECT 1 FROM claims WHERE claims.order_id = {order_id})";
