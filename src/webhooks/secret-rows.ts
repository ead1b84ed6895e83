/**
 * The plain-SQL row of a new account's webhook secret. Apart from secret-store.ts (which holds every
 * other statement on `webhook_secrets`) because the admin CLI runs it in Node, where D1's types and the
 * Worker's modules are not available.
 */
import type { KeyMode } from "../accounts/scopes.ts";

/** The row that stores a new account's secret for one mode: plain SQL, so the admin CLI can run it too. */
export function webhookSecretRow(
	accountId: string,
	mode: KeyMode,
	secret: string,
	createdAt: string,
): { sql: string; params: ReadonlyArray<string> } {
	return {
		sql: "INSERT INTO webhook_secrets (account_id, mode, secret, created_at) VALUES (?1, ?2, ?3, ?4)",
		params: [accountId, mode, secret, createdAt],
	};
}
