import { env } from "cloudflare:workers";
import type { Statement } from "../../src/ledger/statement.ts";
import { ENTRY_COLUMNS, type LedgerEntry } from "../../src/ledger/store.ts";
import type { AccountBilling } from "../../src/money/account-billing.ts";
import { api, send } from "../helpers.ts";

/** Every ledger entry of an order, oldest first (read straight from D1: what the batches wrote). */
export async function entriesOfOrder(orderId: string): Promise<LedgerEntry[]> {
	const { results } = await env.DB.prepare(
		`SELECT ${ENTRY_COLUMNS} FROM ledger_entries WHERE order_id = ?1 ORDER BY at, id`,
	)
		.bind(orderId)
		.all<LedgerEntry>();
	return results;
}

/** The current UTC month as YYYY-MM. */
export function currentMonth(now = new Date()): string {
	return now.toISOString().slice(0, 7);
}

/** GET /v1/statements/{month} as JSON, which must answer 200. */
export async function statementOk(key: string, month = currentMonth()): Promise<Statement> {
	const response = await api(`/v1/statements/${month}`, { key });
	const text = await response.text();
	if (response.status !== 200) throw new Error(`statement ${month}: ${response.status} ${text}`);
	return JSON.parse(text) as Statement;
}

/** POST /v1/admin/accounts/{id}/adjustments. */
export function postAdjustment(key: string, accountId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/admin/accounts/${accountId}/adjustments`, key, body);
}

/** Sets the account's billing row straight in D1 (the admin route that sets it is not the ledger's). */
export async function setBilling(accountId: string, billing: AccountBilling): Promise<void> {
	await env.DB.prepare(
		`INSERT INTO account_billing (account_id, currency, duty_terms, tax_country, tax_id, updated_at)
		 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
		 ON CONFLICT (account_id) DO UPDATE SET currency = ?2, duty_terms = ?3, tax_country = ?4, tax_id = ?5, updated_at = ?6`,
	)
		.bind(
			accountId,
			billing.currency,
			billing.duty_terms,
			billing.tax_country,
			billing.tax_id,
			new Date().toISOString(),
		)
		.run();
}
