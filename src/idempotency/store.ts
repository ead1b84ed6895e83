/**
 * The idempotency_keys table: a key's claim, its kept answer, its release and its expiry. A partner
 * key's rows live in its account's database, an ops or admin key's in the directory's (the middleware
 * picks; every function here is handed its database).
 */
import { z } from "zod";
import type { KeyMode } from "../accounts/scopes.ts";
import type { CredentialKind } from "./rules.ts";

/** A key in its space: the account, mode and kind of credential that sent it, and its text. */
export type KeySlot = { accountId: string; mode: KeyMode; credentialKind: CredentialKind; key: string };

/** What a request asks to claim a key for: its fingerprint, its own token, and its instants. */
export type ClaimRequest = {
	request: string;
	bodySha256: string;
	token: string;
	now: Date;
	expiresAt: Date;
	/** A claim without an answer since before this instant is abandoned. */
	abandonedBefore: Date;
};

/** An answer kept for replay: the status, the headers that describe the body, and the body as text. */
export type KeptAnswer = { status: number; headers: Record<string, string>; body: string };

/** How a claim went: this request holds the key; or the key holds another request's claim or answer. */
export type Claim =
	| { kind: "claimed" }
	| { kind: "answered"; request: string; bodySha256: string; answer: KeptAnswer; createdAt: string }
	| { kind: "in_flight"; request: string; bodySha256: string; createdAt: string };

/** The kept headers as the row holds them: a JSON object of names to values. */
const KeptHeaders = z.record(z.string(), z.string());

type KeyRow = {
	request: string;
	body_sha256: string;
	claim_token: string;
	state: "in_flight" | "done";
	status: number | null;
	headers: string | null;
	body: string | null;
	created_at: string;
};

/**
 * Claims the key in one round trip: inserts the row, or takes over one that expired or whose claim was
 * abandoned by this same request, then reads the row. The insert is one statement, so D1 decides which
 * of two racing requests holds the key; the other reads the winner's row.
 */
export async function claimKey(db: D1Database, slot: KeySlot, claim: ClaimRequest): Promise<Claim> {
	const [, read] = await db.batch<KeyRow>([
		db
			.prepare(
				`INSERT INTO idempotency_keys
				   (account_id, mode, credential_kind, idempotency_key, request, body_sha256, claim_token, state, created_at, expires_at)
				 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 'in_flight', ?8, ?9)
				 ON CONFLICT (account_id, mode, credential_kind, idempotency_key) DO UPDATE SET
				   request = excluded.request, body_sha256 = excluded.body_sha256, claim_token = excluded.claim_token,
				   state = 'in_flight', status = NULL, headers = NULL, body = NULL,
				   created_at = excluded.created_at, expires_at = excluded.expires_at
				 WHERE idempotency_keys.expires_at <= excluded.created_at
				    OR (idempotency_keys.state = 'in_flight' AND idempotency_keys.created_at < ?10
				        AND idempotency_keys.request = excluded.request AND idempotency_keys.body_sha256 = excluded.body_sha256)`,
			)
			.bind(
				slot.accountId,
				slot.mode,
				slot.credentialKind,
				slot.key,
				claim.request,
				claim.bodySha256,
				claim.token,
				claim.now.toISOString(),
				claim.expiresAt.toISOString(),
				claim.abandonedBefore.toISOString(),
			),
		db
			.prepare(
				`SELECT request, body_sha256, claim_token, state, status, headers, body, created_at FROM idempotency_keys
				  WHERE account_id = ?1 AND mode = ?2 AND credential_kind = ?3 AND idempotency_key = ?4`,
			)
			.bind(slot.accountId, slot.mode, slot.credentialKind, slot.key),
	]);
	const row = read?.results[0];
	if (row === undefined) throw new Error("the claimed idempotency key's row was not found");
	if (row.claim_token === claim.token) return { kind: "claimed" };
	const first = { request: row.request, bodySha256: row.body_sha256, createdAt: row.created_at };
	if (row.state === "in_flight" || row.status === null) return { kind: "in_flight", ...first };
	const headers = KeptHeaders.parse(JSON.parse(row.headers ?? "{}"));
	return { kind: "answered", ...first, answer: { status: row.status, headers, body: row.body ?? "" } };
}

/** Keeps the answer on the key this request holds (by its token). */
export async function keepAnswer(db: D1Database, slot: KeySlot, token: string, answer: KeptAnswer): Promise<void> {
	await db
		.prepare(
			`UPDATE idempotency_keys SET state = 'done', status = ?6, headers = ?7, body = ?8
			  WHERE account_id = ?1 AND mode = ?2 AND credential_kind = ?3 AND idempotency_key = ?4 AND claim_token = ?5`,
		)
		.bind(
			slot.accountId,
			slot.mode,
			slot.credentialKind,
			slot.key,
			token,
			answer.status,
			JSON.stringify(answer.headers),
			answer.body,
		)
		.run();
}

/** Lets the key go (its request failed on the service's side, or its answer is not kept), so a retry runs again. */
export async function releaseKey(db: D1Database, slot: KeySlot, token: string): Promise<void> {
	await db
		.prepare(
			`DELETE FROM idempotency_keys
			  WHERE account_id = ?1 AND mode = ?2 AND credential_kind = ?3 AND idempotency_key = ?4 AND claim_token = ?5`,
		)
		.bind(slot.accountId, slot.mode, slot.credentialKind, slot.key, token)
		.run();
}

/** Deletes up to `limit` keys that expired by `now`, oldest first, through the expiry index; answers how many. */
export async function deleteExpiredKeys(db: D1Database, now: Date, limit: number): Promise<number> {
	const result = await db
		.prepare(
			`DELETE FROM idempotency_keys WHERE rowid IN (
			   SELECT rowid FROM idempotency_keys WHERE expires_at <= ?1 ORDER BY expires_at LIMIT ?2)`,
		)
		.bind(now.toISOString(), limit)
		.run();
	return result.meta.changes;
}
