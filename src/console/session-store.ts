import { keyHasExpired } from "../accounts/key-life.ts";
import { keyScopeProblem } from "../accounts/scopes.ts";
import { findKeyById } from "../accounts/store.ts";

/** A signed-in operator's session as the database knows it. */
export type StoredSession = { id: string; keyId: string; expiresAt: string };

/**
 * Opens a session for an ops key. Sessions past their expiry are deleted in the same batch, so the
 * table holds about one shift's sign-ins and never needs a sweep of its own.
 */
export async function insertSession(db: D1Database, session: StoredSession, now: Date): Promise<void> {
	await db.batch([
		db.prepare("DELETE FROM ops_sessions WHERE expires_at <= ?1").bind(now.toISOString()),
		db
			.prepare("INSERT INTO ops_sessions (id, key_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")
			.bind(session.id, session.keyId, now.toISOString(), session.expiresAt),
	]);
}

/**
 * The session with this id if it still stands: its row exists (not signed out), it has not expired,
 * and the key that opened it is not revoked or expired, holds the `ops` scope and is a live key (ops is live-only).
 * The key is read through the accounts' store (a second read, on console pages only).
 */
export async function findLiveSession(db: D1Database, sessionId: string, now: Date): Promise<StoredSession | null> {
	const row = await db
		.prepare("SELECT id, key_id, expires_at FROM ops_sessions WHERE id = ?1 AND expires_at > ?2")
		.bind(sessionId, now.toISOString())
		.first<{ id: string; key_id: string; expires_at: string }>();
	if (row === null) return null;
	const key = await findKeyById(db, row.key_id);
	if (key === null || key.revoked_at !== null || keyHasExpired(key.expires_at, now)) return null;
	if (!key.scopes.includes("ops") || keyScopeProblem(key.mode, key.scopes) !== null) return null;
	return { id: row.id, keyId: row.key_id, expiresAt: row.expires_at };
}

/** Ends a session (signing out); a session already gone is no error. */
export async function deleteSession(db: D1Database, sessionId: string): Promise<void> {
	await db.prepare("DELETE FROM ops_sessions WHERE id = ?1").bind(sessionId).run();
}
