/**
 * Creating accounts and keys as plain SQL statements, so the Worker (through D1 bindings) and the
 * admin CLI (through `wrangler d1 execute`) write exactly the same rows. Runs in Workers and Node.
 */
import { newId } from "../ids.ts";
import { displayPrefix, generateApiKey, generateWebhookSecret, hashApiKey } from "./keys.ts";
import { type KeyMode, keyScopeProblem, type Scope } from "./scopes.ts";

/** One SQL statement with numbered parameters (`?1`, `?2`, ...). */
export type Statement = { sql: string; params: ReadonlyArray<string | number | null> };

/** A key as shown the one time it is issued. */
export type IssuedKey = {
	id: string;
	account_id: string;
	key: string;
	display_prefix: string;
	mode: KeyMode;
	scopes: Scope[];
	created_at: string;
};

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
 * A new key for an account, and the statement that stores its hash. Throws for a test-mode key with
 * a live-only scope: the route and the CLI refuse one with their own message first, so this is the
 * last guard, not the user-facing check.
 */
export async function planKey(
	accountId: string,
	mode: KeyMode,
	scopes: readonly Scope[],
	now: Date,
): Promise<{ issued: IssuedKey; statement: Statement }> {
	const problem = keyScopeProblem(mode, scopes);
	if (problem !== null) throw new Error(`Refusing to issue a key: ${problem}.`);
	const key = generateApiKey(mode);
	const issued: IssuedKey = {
		id: newId("key"),
		account_id: accountId,
		key,
		display_prefix: displayPrefix(key),
		mode,
		scopes: [...scopes],
		created_at: now.toISOString(),
	};
	const statement: Statement = {
		sql: "INSERT INTO api_keys (id, account_id, key_hash, display_prefix, mode, scopes, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
		params: [
			issued.id,
			accountId,
			await hashApiKey(key),
			issued.display_prefix,
			mode,
			issued.scopes.join(" "),
			issued.created_at,
		],
	};
	return { issued, statement };
}

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
	const secretRow = (mode: KeyMode): Statement => ({
		sql: "INSERT INTO webhook_secrets (account_id, mode, secret, created_at) VALUES (?1, ?2, ?3, ?4)",
		params: [account.id, mode, webhookSecrets[mode], account.created_at],
	});
	return {
		account: { ...account, webhook_secrets: webhookSecrets },
		statements: [
			{
				sql: "INSERT INTO accounts (id, name, created_at) VALUES (?1, ?2, ?3)",
				params: [account.id, account.name, account.created_at],
			},
			secretRow("live"),
			secretRow("test"),
		],
	};
}

/** The statement that revokes a key (a no-op on one already revoked, which keeps its first revocation time). */
export function revokeKeyStatement(keyId: string, now: Date): Statement {
	return {
		sql: "UPDATE api_keys SET revoked_at = COALESCE(revoked_at, ?2) WHERE id = ?1",
		params: [keyId, now.toISOString()],
	};
}

/** Renders a statement as literal SQL for `wrangler d1 execute`, which cannot bind parameters. */
export function inlineStatement(statement: Statement): string {
	return statement.sql.replace(/\?(\d+)/g, (_match, index: string) => {
		const value = statement.params[Number(index) - 1];
		if (value === undefined) throw new Error(`statement has no parameter ?${index}`);
		if (value === null) return "NULL";
		if (typeof value === "number") return String(value);
		return `'${value.replaceAll("'", "''")}'`;
	});
}
