/**
 * The floor's reads across accounts, over every database: the queue fanned out and merged in its
 * order (oldest first), and the counts in each status added up. With one database, its own reads.
 */
import type { KeyMode } from "../accounts/scopes.ts";
import { byCreatedAtThenId, directoryDatabase, everyDatabase, pageFromEveryDatabase } from "../databases.ts";
import { countOrdersByStatus, listProductionQueue, type QueueFilter } from "./queue-store.ts";
import type { StoredOrder } from "./rows.ts";
import { ORDER_STATUSES, type OrderStatus } from "./state-machine.ts";

/** The production queue across accounts (listProductionQueue), a page from every database merged. */
export function floorQueue(env: Env, filter: QueueFilter): ReturnType<typeof listProductionQueue> {
	const directory = directoryDatabase(env);
	return pageFromEveryDatabase(
		env,
		filter.limit,
		(database) => listProductionQueue(database, filter, env.PRINT_FILES, directory),
		(a: StoredOrder, b: StoredOrder) => byCreatedAtThenId(a.order, b.order),
	);
}

/** How many orders are in each status across every account and database, in one mode. */
export async function floorCounts(env: Env, mode: KeyMode): Promise<Record<OrderStatus, number>> {
	const [first, ...others] = await Promise.all(
		everyDatabase(env).map((database) => countOrdersByStatus(database, mode)),
	);
	const counts =
		first ?? (Object.fromEntries(ORDER_STATUSES.map((status) => [status, 0])) as Record<OrderStatus, number>);
	for (const more of others) for (const status of ORDER_STATUSES) counts[status] += more[status];
	return counts;
}
