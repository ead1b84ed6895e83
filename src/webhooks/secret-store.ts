/**
 * Every statement on `webhook_secrets` but a new account's first row (secret-rows.ts, which the
 * admin CLI also runs). An account has a secret per mode; a rotation keeps the previous one signing
 * for a while, so receivers can switch without dropping a webhook.
 */
import { generateWebhookSecret } from "../accounts/keys.ts";
import type { Owner } from "../accounts/owner.ts";
import type { KeyMode } from "../accounts/scopes.ts";

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

/** A new secret for the owner's mode, made the newest signing one (`rotateWebhookSecret`): the API's rotation and the console's. */
export async function rotateToNewSecret(
	db: D1Database,
	owner: Owner,
	now: Date,
): Promise<{ secret: string; previousExpiresAt: string }> {
	const secret = generateWebhookSecret();
	const { previousExpiresAt } = await rotateWebhookSecret(db, owner.accountId, owner.mode, secret, now);
	return { secret, previousExpiresAt };
}
