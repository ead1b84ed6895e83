/** The queue page's search as asked in its URL: what the form shows, and the query to run when it is valid. */
import type { z } from "@hono/zod-openapi";
import { QueueQuery } from "../orders/queue-query.ts";
import type { OrderStatus } from "../orders/state-machine.ts";
import { type QueueSearch, statusesShown } from "./queue-page.tsx";

/** A search the queue can run, or the form as it was sent and what is wrong with it. */
export type AskedQueue =
	| { ok: true; search: QueueSearch; query: z.infer<typeof QueueQuery>; statuses: readonly OrderStatus[] }
	| { ok: false; search: QueueSearch; error: string };

/** Reads the queue's URL parameters with the same filters as the ops API's queue. */
export function askedQueue(params: Readonly<Record<string, string>>): AskedQueue {
	// The search form sends every field; one left empty ("All partners", "Any status") is no filter.
	const asked = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ""));
	// `all` is the console's own: every status, which the API's queue lists when no status is given.
	const all = asked.status === "all";
	const { status: _all, ...rest } = asked;
	const parsed = QueueQuery.safeParse(all ? rest : asked);
	if (parsed.success) {
		const query = parsed.data;
		const search: QueueSearch = {
			q: query.q ?? "",
			accountId: query.account_id ?? "",
			status: all ? "all" : (query.status ?? null),
			mode: query.mode,
		};
		return { ok: true, search, query, statuses: statusesShown(search) };
	}
	// The form shows the words typed (cut to the field's length) and no other filter.
	const search: QueueSearch = { q: (asked.q ?? "").slice(0, 128), accountId: "", status: null, mode: "live" };
	const issue = parsed.error.issues[0];
	const field = String(issue?.path[0] ?? "query");
	const error =
		field === "status"
			? `There is no status "${asked.status ?? ""}": pick one of the filters above.`
			: `The ${field} filter cannot be used: ${issue?.message ?? "not understood"}.`;
	return { ok: false, search, error };
}
