/**
 * Signed-in browsers of partner users (partner_sessions): opened by a sign-in, and standing only while
 * the row is there, unexpired, its user not revoked and not signed out everywhere since it began. The
 * cookie that names a session is the console's to sign; this is what the database knows.
 */
import type { PartnerUserRow } from "./users.ts";

/** How long a session lasts: a working day. */
export const PARTNER_SESSION_HOURS = 12;

/**
 * Opens session `id` for `userId` at `now`. Sessions past their expiry are deleted in the same batch,
 * so the table holds about a day's sign-ins and needs no sweep of its own.
 */
export async function openSession(db: D1Database, id: string, userId: string, now: Date): Promise<string> {
	const expiresAt = new Date(now.getTime() + PARTNER_SESSION_HOURS * 3_600_000).toISOString();
	await db.batch([
		db.prepare("DELETE FROM partner_sessions WHERE expires_at <= ?1").bind(now.toISOString()),
		db
			.prepare("INSERT INTO partner_sessions (id, user_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")
			.bind(id, userId, now.toISOString(), expiresAt),
	]);
	return expiresAt;
}

/**
 * The user of session `id` if the session stands at `now`: not signed out, not expired, its user not
 * revoked, and begun after the user's last "sign out everywhere". One read.
 */
export function userOfSession(db: D1Database, id: string, now: Date): Promise<PartnerUserRow | null> {
	return db
		.prepare(
			`SELECT u.* FROM partner_sessions s JOIN partner_users u ON u.id = s.user_id
			  WHERE s.id = ?1 AND s.expires_at > ?2 AND u.revoked_at IS NULL
			    AND (u.sessions_valid_after IS NULL OR s.created_at > u.sessions_valid_after)`,
		)
		.bind(id, now.toISOString())
		.first<PartnerUserRow>();
}

/** Ends a session (signing out); one already gone is no error. */
export async function closeSession(db: D1Database, id: string): Promise<void> {
	await db.prepare("DELETE FROM partner_sessions WHERE id = ?1").bind(id).run();
}

/**
 * When each user of `accountId` last signed in, by user id, as far as the kept sessions tell: a session
 * is kept until it is signed out or expires, so a user with none has no time here.
 */
export async function lastSignInsOf(db: D1Database, accountId: string): Promise<Map<string, string>> {
	const { results } = await db
		.prepare(
			`SELECT s.user_id, MAX(s.created_at) AS signed_in_at FROM partner_sessions s
			   JOIN partner_users u ON u.id = s.user_id WHERE u.account_id = ?1 GROUP BY s.user_id`,
		)
		.bind(accountId)
		.all<{ user_id: string; signed_in_at: string }>();
	return new Map(results.map((row) => [row.user_id, row.signed_in_at]));
}
