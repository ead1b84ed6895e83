import { configOf } from "../config.ts";
import { everyDatabase } from "../databases.ts";
import { orderMachine } from "./machine.ts";

/** An order still received or validating this long after its last move is taken to be stalled. */
export const STALLED_AFTER_MS = 5 * 60_000;

/** The stall threshold in force: `STALLED_ORDER_SECONDS` (the fault test shortens it; 5 minutes by default). */
function stalledAfterMs(env: Env): number {
	return configOf(env).STALLED_ORDER_SECONDS * 1000;
}

/**
 * The cron's safety net: orders left `received` (their Durable Object was never reached) or
 * `validating` (a validation lost its alarm) are started again. A test order the sandbox moves by hand
 * only (manual progress) is left where the partner's controls leave it: orders_resumable indexes the
 * others, so the parked ones are not even read. A duplicate run is harmless: the
 * second writer finds the version moved and changes nothing. Returns how many were restarted.
 */
export async function resumeStalledOrders(env: Env, now: Date = new Date()): Promise<number> {
	// No ORDER BY: sorting would read every order in those statuses first. In orders_by_status's order
	// (received before validating, each oldest first) the first 100 stalled ones are read, and only the
	// orders under way besides them: a number that follows the traffic, not the size of the data.
	// Each database is asked alike: the first 100 of each.
	const stalledBefore = new Date(now.getTime() - stalledAfterMs(env)).toISOString();
	const pages = await Promise.all(
		everyDatabase(env).map((database) =>
			database
				.prepare(
					`SELECT id FROM orders WHERE status IN ('received', 'validating') AND sandbox_progress = 'automatic' AND updated_at < ?1 LIMIT 100`,
				)
				.bind(stalledBefore)
				.all<{ id: string }>(),
		),
	);
	const results = pages.flatMap((page) => page.results);
	await Promise.all(results.map(({ id }) => orderMachine(env, id).begin(id)));
	return results.length;
}
