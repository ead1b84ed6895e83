/** What the order-archive tests share: a run at a chosen clock, the order's rows in D1, its record in R2. */
import { env } from "cloudflare:workers";
import { type ArchiveRunCounts, archiveFinishedOrdersIn } from "../../src/order-archive/run.ts";
import { orderRecordKey } from "../../src/orders/archive-record.ts";
import { api } from "../helpers.ts";

const DAY_MS = 24 * 60 * 60 * 1000;

/** One archive run over the test database, as if the clock were `daysLater` days on, at an age of `days`. */
export function archiveRun(daysLater: number, days = 60): Promise<ArchiveRunCounts> {
	return archiveFinishedOrdersIn(env.DB, env.PRINT_FILES, new Date(Date.now() + daysLater * DAY_MS), days, {
		limit: 100,
	});
}

/** When the order was archived (null while it is hot). */
export async function archivedAtOf(orderId: string): Promise<string | null> {
	const row = await env.DB.prepare("SELECT archived_at FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ archived_at: string | null }>();
	return row?.archived_at ?? null;
}

/** How many rows the order has in each of its child tables in D1. */
export async function childRowsOf(orderId: string): Promise<{ items: number; shipments: number; moves: number }> {
	const count = async (table: string) =>
		(
			await env.DB.prepare(`SELECT COUNT(*) AS n FROM ${table} WHERE order_id = ?1`)
				.bind(orderId)
				.first<{ n: number }>()
		)?.n ?? -1;
	return { items: await count("order_items"), shipments: await count("shipments"), moves: await count("order_moves") };
}

/** The text of the order's record in R2, or null. */
export async function recordTextOf(order: { id: string }, accountId: string, mode: "live" | "test" = "live") {
	const object = await env.PRINT_FILES.get(orderRecordKey({ id: order.id, account_id: accountId, mode }));
	return object === null ? null : object.text();
}

/** A GET's status and body text, for comparing an answer before and after archiving. */
export async function answerOf(path: string, key: string): Promise<{ status: number; body: string }> {
	const response = await api(path, { key });
	return { status: response.status, body: await response.text() };
}

/** An error envelope's body without its request id (which differs per request). */
export function withoutRequestId(body: string): unknown {
	const parsed = JSON.parse(body) as { error?: Record<string, unknown> };
	if (parsed.error !== undefined) delete parsed.error.request_id;
	return parsed;
}
