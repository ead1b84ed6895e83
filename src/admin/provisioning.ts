/**
 * Creating accounts as plain SQL statements, so the admin routes (through D1) and the admin CLI
 * (through `wrangler d1 execute`) write exactly the same rows: the account's (accounts), its keys
 * (accounts) and its webhook secrets (webhooks), in one batch. Runs in Workers and Node.
 */
import { generateWebhookSecret } from "../accounts/keys.ts";
import { accountRow, type IssuedKey, planKey, type Statement } from "../accounts/provisioning.ts";
import type { Scope } from "../accounts/scopes.ts";
import { newId } from "../ids.ts";
import { webhookSecretRow } from "../webhooks/secret-rows.ts";

/** An account's webhook secrets: live and test webhooks are signed apart, so a test key never touches the live one. */
export type WebhookSecrets = { live: string; test: string };

export type NewAccount = {
	account: { id: string; name: string; created_at: string };
	keys: { live: IssuedKey; test: IssuedKey };
	/** The live secret (kept beside `webhook_secrets` for clients of the first version). */
	webhook_secret: string;
	webhook_secrets: WebhookSecrets;
};

/** A service-team account (ops or admin scopes, which are live-only): a live key and no test key. */
export type NewServiceAccount = Omit<NewAccount, "keys"> & { keys: { live: IssuedKey } };

/**
 * A new partner account with a live and a test key of the given scopes and a webhook secret; the
 * statements commit it as one batch. Throws for live-only scopes (see `planServiceAccount`).
 */
export async function planAccount(
	name: string,
	scopes: readonly Scope[],
	now: Date,
): Promise<{ created: NewAccount; statements: Statement[] }> {
	const {
		account: { webhook_secrets: webhookSecrets, ...account },
		statements,
	} = planAccountRows(name, now);
	const live = await planKey(account.id, "live", scopes, now);
	const test = await planKey(account.id, "test", scopes, now);
	return {
		created: {
			account,
			keys: { live: live.issued, test: test.issued },
			webhook_secret: webhookSecrets.live,
			webhook_secrets: webhookSecrets,
		},
		statements: [...statements, live.statement, test.statement],
	};
}

/** A new service-team account: a live key of the given scopes (ops or admin are live-only) and webhook secrets. */
export async function planServiceAccount(
	name: string,
	scopes: readonly Scope[],
	now: Date,
): Promise<{ created: NewServiceAccount; statements: Statement[] }> {
	const {
		account: { webhook_secrets: webhookSecrets, ...account },
		statements,
	} = planAccountRows(name, now);
	const live = await planKey(account.id, "live", scopes, now);
	return {
		created: {
			account,
			keys: { live: live.issued },
			webhook_secret: webhookSecrets.live,
			webhook_secrets: webhookSecrets,
		},
		statements: [...statements, live.statement],
	};
}

/** A new account row and its live and test webhook secrets, without keys (keys come from `planKey`). */
export function planAccountRows(
	name: string,
	now: Date,
): { account: NewAccount["account"] & { webhook_secrets: WebhookSecrets }; statements: Statement[] } {
	const account = { id: newId("acct"), name, created_at: now.toISOString() };
	const webhookSecrets: WebhookSecrets = { live: generateWebhookSecret(), test: generateWebhookSecret() };
	return {
		account: { ...account, webhook_secrets: webhookSecrets },
		statements: [
			accountRow(account),
			// The webhooks' own rows, in the same batch: an account never exists without its secrets.
			webhookSecretRow(account.id, "live", webhookSecrets.live, account.created_at),
			webhookSecretRow(account.id, "test", webhookSecrets.test, account.created_at),
		],
	};
}
