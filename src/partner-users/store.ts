/**
 * The partner console's people in the directory database (partner_users, partner_invitations): invite
 * a user (a row without a password and a link whose token is kept only as its SHA-256), accept the
 * invitation (the password set, the link used once), find a user by email for sign-in, count and clear
 * wrong passwords, revoke a user, and end every session of theirs at once.
 */
import { sha256Hex } from "../ids.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { afterFailure, type FailureState } from "./lockout.ts";
import { normalEmail, type PartnerRole, type PartnerUserRow, planInvitation, userExists } from "./users.ts";

/** A new user and the link token that lets them set a password (shown once, never stored). */
export type Invited = { ok: true; user: PartnerUserRow; token: string; expiresAt: string };

/**
 * A user of `accountId` (an account that exists: the caller checked, and the foreign key holds it) invited
 * at `now`, as planInvitation plans it; refused as `partner_user_exists` when the address already has a user.
 */
export async function inviteUser(
	db: D1Database,
	invite: { accountId: string; email: string; name: string; role: PartnerRole },
	now: Date,
): Promise<Invited | Refusal> {
	const planned = await planInvitation(invite, now);
	const results = await db.batch(planned.statements.map(({ sql, params }) => db.prepare(sql).bind(...params)));
	if ((results[0]?.meta.changes ?? 0) === 0) return userExists(invite.email);
	return { ok: true, user: planned.user, token: planned.token, expiresAt: planned.expiresAt };
}

/**
 * The user an invitation link names, its password set to `passwordHash` and the link used, at `now`;
 * refused alike (`invitation_invalid`) for a token that is unknown, used, expired, or whose user was
 * revoked, so the answer says nothing of which.
 */
export async function acceptInvitation(
	db: D1Database,
	token: string,
	passwordHash: string,
	now: Date,
): Promise<{ ok: true; user: PartnerUserRow } | Refusal> {
	const tokenHash = await sha256Hex(token);
	const at = now.toISOString();
	const results = await db.batch([
		db
			.prepare(
				`UPDATE partner_invitations SET used_at = ?2
				  WHERE token_hash = ?1 AND used_at IS NULL AND expires_at > ?2
				    AND EXISTS (SELECT 1 FROM partner_users u WHERE u.id = user_id AND u.revoked_at IS NULL)`,
			)
			.bind(tokenHash, at),
		// Only the invitation just used sets the password (its used_at is this moment's).
		db
			.prepare(
				`UPDATE partner_users SET password_hash = ?3, failed_attempts = 0, locked_until = NULL
				  WHERE id = (SELECT user_id FROM partner_invitations WHERE token_hash = ?1 AND used_at = ?2)
				  RETURNING *`,
			)
			.bind(tokenHash, at, passwordHash),
	]);
	const user = results[1]?.results[0] as PartnerUserRow | undefined;
	if ((results[0]?.meta.changes ?? 0) === 0 || user === undefined) {
		return refusalOf("invitation_invalid", "This link is not valid any more: ask your account's owner for a new one.");
	}
	return { ok: true, user };
}

/** The user with this email (any case, spaces around), or null. */
export function findUserByEmail(db: D1Database, email: string): Promise<PartnerUserRow | null> {
	return db.prepare("SELECT * FROM partner_users WHERE email = ?1").bind(normalEmail(email)).first<PartnerUserRow>();
}

/** The user by id, or null. */
export function findUser(db: D1Database, id: string): Promise<PartnerUserRow | null> {
	return db.prepare("SELECT * FROM partner_users WHERE id = ?1").bind(id).first<PartnerUserRow>();
}

/** Counts one more wrong password for `user` at `now` (locking once there are enough); the state after. */
export async function recordFailure(db: D1Database, user: PartnerUserRow, now: Date): Promise<FailureState> {
	const next = afterFailure(user, now);
	await db
		.prepare("UPDATE partner_users SET failed_attempts = ?2, locked_until = ?3 WHERE id = ?1")
		.bind(user.id, next.failed_attempts, next.locked_until)
		.run();
	return next;
}

/** Clears the count of wrong passwords after a right one. */
export async function clearFailures(db: D1Database, userId: string): Promise<void> {
	await db
		.prepare("UPDATE partner_users SET failed_attempts = 0, locked_until = NULL WHERE id = ?1 AND failed_attempts > 0")
		.bind(userId)
		.run();
}

/** The users of an account, oldest first. */
export async function usersOfAccount(db: D1Database, accountId: string): Promise<PartnerUserRow[]> {
	const { results } = await db
		.prepare("SELECT * FROM partner_users WHERE account_id = ?1 ORDER BY created_at, id")
		.bind(accountId)
		.all<PartnerUserRow>();
	return results;
}

/**
 * Revokes a user of `accountId` at `now`: no more sign-in, and every session over at once (sessions
 * begun before `sessions_valid_after` are void). False when the account has no such user.
 */
export async function revokeUser(db: D1Database, accountId: string, userId: string, now: Date): Promise<boolean> {
	const at = now.toISOString();
	const result = await db
		.prepare(
			`UPDATE partner_users SET revoked_at = COALESCE(revoked_at, ?3), sessions_valid_after = ?3
			  WHERE id = ?2 AND account_id = ?1`,
		)
		.bind(accountId, userId, at)
		.run();
	return result.meta.changes > 0;
}

/**
 * Revokes `userId` at the request of `actor`, one of the account's owners (the partner console's people
 * page), as revokeUser does; refused when the user is not of the actor's account (`partner_user_not_found`),
 * is the actor (an owner cannot lock themself out), or is the account's last owner not revoked. The
 * check and the write are one statement, so two owners revoking each other at once leave one standing.
 */
export async function revokeTeammate(
	db: D1Database,
	actor: Pick<PartnerUserRow, "id" | "account_id">,
	userId: string,
	now: Date,
): Promise<{ ok: true } | Refusal> {
	const at = now.toISOString();
	const result = await db
		.prepare(
			`UPDATE partner_users SET revoked_at = COALESCE(revoked_at, ?3), sessions_valid_after = ?3
			  WHERE id = ?2 AND account_id = ?1 AND id <> ?4
			    AND (role <> 'owner' OR EXISTS (SELECT 1 FROM partner_users o
			          WHERE o.account_id = ?1 AND o.role = 'owner' AND o.revoked_at IS NULL AND o.id <> ?2))`,
		)
		.bind(actor.account_id, userId, at, actor.id)
		.run();
	if (result.meta.changes > 0) return { ok: true };
	const user = await findUser(db, userId);
	if (user === null || user.account_id !== actor.account_id) {
		return refusal("partner_user_not_found", "user_id", `This account has no user ${userId}.`);
	}
	const why =
		user.id === actor.id
			? "You cannot revoke yourself: another owner can."
			: `${user.name} is the account's last owner: invite another owner first, so the account keeps one.`;
	return refusal("partner_user_revoke_refused", "user_id", why);
}

/** Ends every session of a user begun before `now` ("sign out everywhere"). */
export async function endSessionsBefore(db: D1Database, userId: string, now: Date): Promise<void> {
	await db
		.prepare("UPDATE partner_users SET sessions_valid_after = ?2 WHERE id = ?1")
		.bind(userId, now.toISOString())
		.run();
}
