/**
 * Keys as plain SQL statements (and the account row they hang on), so the Worker (through D1) and the
 * admin CLI (through `wrangler d1 execute`) write exactly the same rows. Runs in Workers and Node.
 */
import { newId } from "../ids.ts";
import { displayPrefix, generateApiKey, hashApiKey } from "./keys.ts";
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
	/** When it stops working by itself; null: never. */
	expires_at: string | null;
};

/**
 * A new key for an account (ending by itself at `expiresAt` when one is given), and the statement that
 * stores its hash. Throws for a test-mode key with
 * a live-only scope: the route and the CLI refuse one with their own message first, so this is the
 * last guard, not the user-facing check.
 */
export async function planKey(
	accountId: string,
	mode: KeyMode,
	scopes: readonly Scope[],
	now: Date,
	expiresAt: Date | null = null,
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
		expires_at: expiresAt === null ? null : expiresAt.toISOString(),
	};
	const statement: Statement = {
		sql: "INSERT INTO api_keys (id, account_id, key_hash, display_prefix, mode, scopes, created_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
		params: [
			issued.id,
			accountId,
			await hashApiKey(key),
			issued.display_prefix,
			mode,
			issued.scopes.join(" "),
			issued.created_at,
			issued.expires_at,
		],
	};
	return { issued, statement };
}

/** The row of a new account. */
export function accountRow(account: { id: string; name: string; created_at: string }): Statement {
	return {
		sql: "INSERT INTO accounts (id, name, created_at) VALUES (?1, ?2, ?3)",
		params: [account.id, account.name, account.created_at],
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
