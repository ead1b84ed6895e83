/**
 * The partner console's people as data, without storage: the roles, a user's row, how an address is
 * kept, and the planned statements of an invitation (which the API runs through D1 and the admin CLI
 * through wrangler).
 */
import { newId, randomBase62, sha256Hex } from "../ids.ts";
import { type Refusal, refusal } from "../problem.ts";
import { type FailureState, lockedAt } from "./lockout.ts";

/** What a partner user may do: owners everything, developers keys and webhooks, support orders and claims, viewers read. */
export const PARTNER_ROLES = ["owner", "developer", "support", "viewer"] as const;
/** One of PARTNER_ROLES. */
export type PartnerRole = (typeof PARTNER_ROLES)[number];

/** A user as stored. */
export type PartnerUserRow = FailureState & {
	id: string;
	account_id: string;
	email: string;
	name: string;
	role: PartnerRole;
	password_hash: string | null;
	created_at: string;
	revoked_at: string | null;
	sessions_valid_after: string | null;
};

/** Where a user stands: invited (no password yet), active, locked out for now by wrong passwords, or revoked. */
export type PartnerUserStanding = "invited" | "active" | "locked" | "revoked";

/** Where `user` stands at `now`. */
export function standingOf(user: PartnerUserRow, now: Date): PartnerUserStanding {
	if (user.revoked_at !== null) return "revoked";
	if (user.password_hash === null) return "invited";
	return lockedAt(user, now) ? "locked" : "active";
}

/** Where an invitation's link points: the console's page that sets the password, on this origin. */
export function invitationUrl(origin: string, token: string): string {
	return `${origin}/partner/invitations/${token}`;
}

/** How long an invitation link works. */
export const INVITATION_DAYS = 7;

/** An email as stored and looked up: trimmed and lower-cased, so one address is one user. */
export function normalEmail(email: string): string {
	return email.trim().toLowerCase();
}

/** A statement to run, as D1 binds it and the admin CLI writes it out. */
export type PlannedStatement = { sql: string; params: ReadonlyArray<string | number | null> };

/** An invitation planned: the new user, the link's token (shown once, never stored) and the statements that store them. */
export type PlannedInvitation = {
	user: PartnerUserRow;
	token: string;
	expiresAt: string;
	statements: PlannedStatement[];
};

/**
 * The statements that invite a user of `accountId` at `now`: the row (no password yet; nothing when the
 * address already has a user) and an invitation that lasts INVITATION_DAYS (only if the row went in).
 * The API runs them in one batch and the admin CLI through wrangler; either then reads whether the row
 * is the planned one.
 */
export async function planInvitation(
	invite: { accountId: string; email: string; name: string; role: PartnerRole },
	now: Date,
): Promise<PlannedInvitation> {
	const user: PartnerUserRow = {
		id: newId("usr"),
		account_id: invite.accountId,
		email: normalEmail(invite.email),
		name: invite.name.trim(),
		role: invite.role,
		password_hash: null,
		created_at: now.toISOString(),
		revoked_at: null,
		failed_attempts: 0,
		locked_until: null,
		sessions_valid_after: null,
	};
	const token = randomBase62(40);
	const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
	const statements: PlannedStatement[] = [
		{
			sql: `INSERT INTO partner_users (id, account_id, email, name, role, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
			      ON CONFLICT (email) DO NOTHING`,
			params: [user.id, user.account_id, user.email, user.name, user.role, user.created_at],
		},
		{
			sql: `INSERT INTO partner_invitations (token_hash, user_id, created_at, expires_at)
			      SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM partner_users WHERE id = ?2)`,
			params: [await sha256Hex(token), user.id, user.created_at, expiresAt],
		},
	];
	return { user, token, expiresAt, statements };
}

/** The refusal of an invitation whose address already has a user. */
export function userExists(email: string): Refusal {
	return refusal(
		"partner_user_exists",
		"email",
		`${normalEmail(email)} already has a user; a user belongs to one account.`,
	);
}
