/** Account and key operations on a D1 database through wrangler, writing the same rows as the admin routes. */
import {
	type IssuedKey,
	inlineStatement,
	planKey,
	revokeKeyStatement,
	type Statement,
} from "../../src/accounts/provisioning.ts";
import { type KeyMode, PARTNER_SCOPES, type Scope } from "../../src/accounts/scopes.ts";
import {
	type NewAccount,
	type NewServiceAccount,
	planAccount,
	planAccountRows,
	planServiceAccount,
} from "../../src/admin/provisioning.ts";
import { type PartnerRole, type PlannedInvitation, planInvitation, userExists } from "../../src/partner-users/users.ts";
import { type D1Target, executeSql, queryRows } from "./wrangler.ts";

function asSql(statements: readonly Statement[]): string {
	return `${statements.map((statement) => `${inlineStatement(statement)};`).join("\n")}\n`;
}

function sqlText(value: string): string {
	return `'${value.replaceAll("'", "''")}'`;
}

/** Creates a partner account with a live and a test key and a webhook secret. */
export async function createAccount(
	target: D1Target,
	name: string,
	scopes: readonly Scope[] = PARTNER_SCOPES,
): Promise<NewAccount> {
	const { created, statements } = await planAccount(name, scopes, new Date());
	await executeSql(asSql(statements), target);
	return created;
}

/** Creates a service-team account with a live key only: ops and admin keys are live-only. */
export async function createServiceAccount(
	target: D1Target,
	name: string,
	scopes: readonly Scope[],
): Promise<NewServiceAccount> {
	const { created, statements } = await planServiceAccount(name, scopes, new Date());
	await executeSql(asSql(statements), target);
	return created;
}

/** Creates an account holding one key per scope set given (e.g. the service team's ops and admin keys). */
export async function createAccountWithKeys(
	target: D1Target,
	name: string,
	keys: ReadonlyArray<{ mode: KeyMode; scopes: readonly Scope[] }>,
): Promise<{ account: { id: string; name: string; created_at: string }; keys: IssuedKey[] }> {
	const now = new Date();
	const { account, statements } = planAccountRows(name, now);
	const planned = await Promise.all(keys.map((key) => planKey(account.id, key.mode, key.scopes, now)));
	await executeSql(asSql([...statements, ...planned.map((key) => key.statement)]), target);
	return {
		account: { id: account.id, name: account.name, created_at: account.created_at },
		keys: planned.map((key) => key.issued),
	};
}

/** Whether the account exists in the target database. */
export async function accountExists(target: D1Target, accountId: string): Promise<boolean> {
	const rows = await queryRows<{ id: string }>(`SELECT id FROM accounts WHERE id = ${sqlText(accountId)}`, target);
	return rows.length === 1;
}

/** Issues a key for an existing account; null when the account does not exist. */
export async function createKey(
	target: D1Target,
	accountId: string,
	mode: KeyMode,
	scopes: readonly Scope[] = PARTNER_SCOPES,
): Promise<IssuedKey | null> {
	if (!(await accountExists(target, accountId))) return null;
	const { issued, statement } = await planKey(accountId, mode, scopes, new Date());
	await executeSql(asSql([statement]), target);
	return issued;
}

export type KeyListing = {
	id: string;
	account_id: string;
	display_prefix: string;
	mode: KeyMode;
	scopes: string;
	created_at: string;
	revoked_at: string | null;
};

/** Revokes a key; returns it as stored afterwards, or null when there is no such key. */
export async function revokeKey(target: D1Target, keyId: string): Promise<KeyListing | null> {
	await executeSql(asSql([revokeKeyStatement(keyId, new Date())]), target);
	const rows = await queryRows<KeyListing>(
		`SELECT id, account_id, display_prefix, mode, scopes, created_at, revoked_at FROM api_keys WHERE id = ${sqlText(keyId)}`,
		target,
	);
	return rows[0] ?? null;
}

export type AccountListing = {
	id: string;
	name: string;
	created_at: string;
	active_keys: number;
	revoked_keys: number;
	requests_per_minute: number | null;
	orders_per_second: number | null;
	order_burst: number | null;
};

/** Every account, oldest first, with key counts and limit overrides. */
export function listAccounts(target: D1Target): Promise<AccountListing[]> {
	return queryRows<AccountListing>(
		`SELECT a.id, a.name, a.created_at,
		        count(k.id) FILTER (WHERE k.revoked_at IS NULL) AS active_keys,
		        count(k.id) FILTER (WHERE k.revoked_at IS NOT NULL) AS revoked_keys,
		        a.requests_per_minute, a.orders_per_second, a.order_burst
		   FROM accounts a LEFT JOIN api_keys k ON k.account_id = a.id
		  GROUP BY a.id ORDER BY a.created_at, a.id`,
		target,
	);
}

/**
 * Invites a user to an account's console: the planned rows written through wrangler, then the user read
 * back by email. The invited user and the link's token, or why not: no such account, or the address
 * already has a user.
 */
export async function inviteConsoleUser(
	target: D1Target,
	invite: { accountId: string; email: string; name: string; role: PartnerRole },
): Promise<{ ok: true; invited: PlannedInvitation } | { ok: false; message: string }> {
	if (!(await accountExists(target, invite.accountId)))
		return { ok: false, message: `No account ${invite.accountId}.` };
	const planned = await planInvitation(invite, new Date());
	await executeSql(asSql(planned.statements), target);
	const rows = await queryRows<{ id: string }>(
		`SELECT id FROM partner_users WHERE email = ${sqlText(planned.user.email)}`,
		target,
	);
	if (rows[0]?.id !== planned.user.id) return { ok: false, message: userExists(invite.email).message };
	return { ok: true, invited: planned };
}
