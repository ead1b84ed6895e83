import { env } from "cloudflare:workers";
import type { Statement } from "../../src/ledger/statement.ts";
import { ENTRY_COLUMNS, type LedgerEntry } from "../../src/ledger/store.ts";
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
