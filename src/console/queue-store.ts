import { ORDER_STATUSES, type OrderStatus } from "../orders/state-machine.ts";

/** How many orders are in each status, across every account and mode (zero for a status with none). */
export async function countOrdersByStatus(db: D1Database): Promise<Record<OrderStatus, number>> {
	const { results } = await db
		.prepare("SELECT status, COUNT(*) AS count FROM orders GROUP BY status")
		.all<{ status: OrderStatus; count: number }>();
	const counts = Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>;
	for (const row of results) if (row.status in counts) counts[row.status] = row.count;
	return counts;
}

/** The names of these accounts by id (the queue's partner column). */
export async function accountNames(db: D1Database, accountIds: readonly string[]): Promise<Map<string, string>> {
	const unique = [...new Set(accountIds)];
	if (unique.length === 0) return new Map();
	const placeholders = unique.map((_, index) => `?${index + 1}`).join(", ");
	const { results } = await db
		.prepare(`SELECT id, name FROM accounts WHERE id IN (${placeholders})`)
		.bind(...unique)
		.all<{ id: string; name: string }>();
	return new Map(results.map((account) => [account.id, account.name]));
}
