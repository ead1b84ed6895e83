/**
 * Reads must not grow with the data. This test runs with the cost tracer on (the
 * workers-traced project sets COST_TRACE), which records every distinct SQL statement the worker and
 * its Durable Objects run through D1, with the values bound to it. It drives every route, the
 * console, the cron and a queue batch, lets the background work (validation, deliveries) settle, then
 * asks SQLite for each statement's plan (`EXPLAIN QUERY PLAN`, with its values) and fails on a full
 * scan of a table that grows with the orders.
 *
 * A full scan is a `SCAN <table>` line, with or without `USING INDEX`: walking a whole index reads
 * every row just the same. `SEARCH` (an index lookup or range) passes; the rows such a statement reads
 * are then bounded by the key it looks up and by its LIMIT, which is a page the caller asked for.
 * `webhook_endpoints` (bounded per account), the catalog, accounts, keys and the other small tables
 * may be scanned.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { type RecordedStatement, recordStatements } from "../../src/dev-tools/traced-bindings.ts";
import worker from "../../src/index.ts";
import { api } from "../helpers.ts";
import { insertRawOrder, partnerWithFile } from "../orders/order-helpers.ts";
import { driveEverything, json } from "./drive-everything.ts";

/** Tables whose rows grow with the orders. */
const GROWING = new Set([
	"orders",
	"order_items",
	"events",
	"deliveries",
	"print_files",
	"order_moves",
	"quotes",
	"shipments",
	"claims",
	"claim_items",
	"claim_photos",
	"ledger_entries",
	"ledger_months",
	"idempotency_keys",
]);

const SQL_WORDS = new Set([
	"where",
	"on",
	"join",
	"left",
	"inner",
	"set",
	"select",
	"order",
	"group",
	"limit",
	"values",
	"using",
	"returning",
	"as",
]);

/** The tables a statement names, by the name its plan uses for each (its alias, else its own name). */
function tablesByPlanName(sql: string): Map<string, string> {
	const names = new Map<string, string>();
	for (const match of sql.matchAll(/\b(?:FROM|JOIN|UPDATE|INTO)\s+([a-z_]+)(?:\s+(?:AS\s+)?([a-z_]+))?/gi)) {
		const table = match[1]?.toLowerCase();
		if (table === undefined) continue;
		const alias = match[2]?.toLowerCase();
		names.set(table, table);
		if (alias !== undefined && !SQL_WORDS.has(alias)) names.set(alias, table);
	}
	return names;
}

/**
 * Columns whose equality bounds the rows a lookup finds by something other than the data's size: an
 * id, a parent's id, a partner's order number, an order item (its claims: a few per item), a claim, a ledger entry's cause (unique).
 */
const BOUNDING = [
	"id",
	"order_id",
	"event_id",
	"print_file_id",
	"external_id",
	"endpoint_id",
	"r2_key",
	"item_id",
	"claim_id",
	"cause_key",
];

/**
 * What in a plan reads rows in proportion to a growing table rather than to a page or a key:
 * - a full scan, `SCAN <table>`, with or without `USING INDEX` (walking a whole index reads every row);
 * - a statement given a bounding key (`external_id = ?`) whose plan looks up none: it walks another
 *   index (one that serves its ORDER BY, say) through a range that grows, to find the few rows;
 * - a lookup on a growing table that no bounding key pins (a partner's orders, the live ones, those
 *   in a status: ranges that grow) when the statement must read the whole range before answering:
 *   it counts or groups, or it sorts the range in a temporary B-tree before its LIMIT.
 * A range read in its index's order and cut by a LIMIT reads a page, and passes.
 */
/** A line of `EXPLAIN QUERY PLAN`: its place in the plan's tree and what it says. */
type PlanLine = { id: number; parent: number; detail: string };

function growingReads(sql: string, plan: readonly PlanLine[]): string[] {
	const names = tablesByPlanName(sql);
	const growing = (name: string | undefined) =>
		name !== undefined && GROWING.has(names.get(name.toLowerCase()) ?? name);
	const aggregates = /\b(COUNT|SUM|AVG|TOTAL|GROUP BY)\b/i.test(sql);
	// Sorting before the LIMIT reads the whole range the sort is over: the lookups of the same SELECT.
	const sortedUnder = new Set(
		plan.filter((line) => /^USE TEMP B-TREE FOR (ORDER|GROUP) BY/.test(line.detail)).map((line) => line.parent),
	);
	// A statement that pins a bounding key (`external_id = ?`) must look it up: a plan that walks another
	// index instead (one that gives the ORDER BY, say) reads a whole range to find the few rows.
	const pinnedInSql = [...sql.matchAll(/(?<![+\w.])(?:\w+\.)?(\w+) = \?/g)].some((match) =>
		BOUNDING.includes(match[1] ?? ""),
	);
	const pinnedInPlan = plan.some((line) => BOUNDING.some((column) => new RegExp(`[ (]${column}=`).test(line.detail)));
	if (pinnedInSql && !pinnedInPlan) {
		const unused = plan.filter(
			(line) => /^(SEARCH|SCAN) (\w+)/.test(line.detail) && growing(/^\w+ (\w+)/.exec(line.detail)?.[1]),
		);
		if (unused.length > 0) return unused.map((line) => `${line.detail} (the key it is given is not used)`);
	}
	return plan
		.filter((line) => {
			const scanned = /^SCAN (\w+)/.exec(line.detail)?.[1];
			if (scanned !== undefined) return growing(scanned);
			const searched = /^SEARCH (\w+) USING .*?\((.*)\)$/.exec(line.detail);
			if (searched === null || !growing(searched[1])) return false;
			const pinned = BOUNDING.some((column) => new RegExp(`(^|[ (])${column}=`).test(searched[2] ?? ""));
			return !pinned && (aggregates || sortedUnder.has(line.parent));
		})
		.map((line) => line.detail);
}

async function planOf(statement: RecordedStatement): Promise<PlanLine[]> {
	const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
		.bind(...statement.params)
		.all<PlanLine>();
	return results;
}

describe("query plans", () => {
	it("no statement the worker or its Durable Objects run scans a table that grows", async () => {
		const recorded = recordStatements();
		await driveEverything();
		const failures: string[] = [];
		for (const statement of recorded.values()) {
			const scans = growingReads(statement.sql, await planOf(statement));
			if (scans.length > 0) failures.push(`${scans.join("; ")}\n  in: ${statement.sql.replace(/\s+/g, " ")}`);
		}
		expect(failures).toEqual([]);
		// The shipments' reads and writes were among them: the order's read, the lookup by id, the write.
		const onShipments = [...recorded.values()].filter((statement) => /\bshipments\b/i.test(statement.sql));
		expect(onShipments.length).toBeGreaterThanOrEqual(3);
		// The counts the console shows, kept by triggers, still equal a count of the orders after all that.
		const { results: counted } = await env.DB.prepare(
			"SELECT mode, status, COUNT(*) AS count FROM orders GROUP BY mode, status",
		).all<{ mode: string; status: string; count: number }>();
		const { results: kept } = await env.DB.prepare("SELECT mode, status, count FROM order_counts WHERE count > 0").all<{
			mode: string;
			status: string;
			count: number;
		}>();
		const byKey = (rows: { mode: string; status: string; count: number }[]) =>
			Object.fromEntries(rows.map((row) => [`${row.mode} ${row.status}`, row.count]));
		expect(byKey(kept)).toEqual(byKey(counted));
		expect(counted.length).toBeGreaterThan(3);
		// Not vacuous: the flows above run this many distinct statements (91 when written).
		expect(recorded.size).toBeGreaterThan(80);
	}, 120_000);

	it("the event log narrowed to a type walks events_by_owner_type, not the owner's events of every type", async () => {
		const { key } = await partnerWithFile({ name: "Type Filter Gallery" });
		const recorded = recordStatements();
		await json(await api("/v1/events?type=order.on_hold&limit=5", { key }), 200);
		const page = [...recorded.values()].find((statement) => /\be\.type = \?/.test(statement.sql));
		if (page === undefined) throw new Error("the type-filtered page's statement was not recorded");
		const details = (await planOf(page)).map((line) => line.detail);
		expect(
			details.some((detail) =>
				/^SEARCH e USING (COVERING )?INDEX events_by_owner_type \(account_id=\? AND mode=\? AND type=\?/.test(detail),
			),
		).toBe(true);
		expect(details.some((detail) => /^USE TEMP B-TREE/.test(detail))).toBe(false);
	});

	it("the events archive finds its batch through events_by_time and deletes by each event's deliveries", async () => {
		const { partner } = await partnerWithFile({ name: "Archive Plan Gallery" });
		const pastWindow = new Date(Date.now() - 100 * 24 * 3600_000);
		await insertRawOrder({ accountId: partner.account.id, mode: "live" }, "delivered", "https://x.example/p.png", {
			now: pastWindow,
		});
		const recorded = recordStatements();
		const ctx = createExecutionContext();
		await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
		await waitOnExecutionContext(ctx);
		expect(
			await env.DB.prepare("SELECT id FROM events WHERE created_at = ?1").bind(pastWindow.toISOString()).first(),
		).toBeNull();
		const plans = await Promise.all(
			[...recorded.values()]
				.filter((statement) => /\b(FROM|INTO) (events|deliveries)\b/.test(statement.sql))
				.map(async (statement) => ({
					sql: statement.sql,
					details: (await planOf(statement)).map((line) => line.detail),
				})),
		);
		// The candidates (their sizes) walk events_by_time; the rows taken are then read by their ids.
		const batch = plans.find((plan) => /ORDER BY e\.created_at( DESC)?, e\.id( DESC)? LIMIT/.test(plan.sql));
		expect(batch?.details[0]).toMatch(/^SEARCH e USING (COVERING )?INDEX events_by_time \(created_at<\?\)/);
		const rows = plans.find((plan) => /e\.id IN \(SELECT value FROM json_each/.test(plan.sql));
		expect(rows?.details.filter((detail) => /^(SEARCH|SCAN) (e|d)\b/.test(detail))).toEqual([
			expect.stringMatching(/^SEARCH e USING INDEX sqlite_autoindex_events_1 \(id=\?\)/),
			expect.stringMatching(/^SEARCH d USING INDEX deliveries_by_event \(event_id=\?/),
		]);
		const deletes = plans.filter((plan) => /^\s*DELETE/.test(plan.sql));
		expect(deletes).toHaveLength(2);
		for (const { details } of deletes) {
			expect(details.filter((detail) => /^(SEARCH|SCAN) (deliveries|events|p|d)\b/.test(detail))).toEqual(
				details.filter((detail) =>
					/(deliveries_by_event \(event_id=\?|sqlite_autoindex_events_1 \(id=\?)/.test(detail),
				),
			);
		}
	});

	it("finds full scans, counted ranges and sorted ranges (the check itself can fail)", async () => {
		const scan = { sql: "SELECT * FROM orders o WHERE o.ship_to = ?1", params: ["x"] };
		expect(growingReads(scan.sql, await planOf(scan))).toEqual(["SCAN o"]);
		const search = { sql: "SELECT * FROM orders WHERE id = ?1", params: ["x"] };
		expect(growingReads(search.sql, await planOf(search))).toEqual([]);
		const small = { sql: "SELECT * FROM accounts WHERE name = ?1", params: ["x"] };
		expect(growingReads(small.sql, await planOf(small))).toEqual([]);
		// The console's counts as they were: an index range over every live order, counted.
		const counted = {
			sql: "SELECT status, COUNT(*) AS count FROM orders WHERE mode = ?1 GROUP BY status",
			params: ["live"],
		};
		expect(growingReads(counted.sql, await planOf(counted))).toHaveLength(1);
		// A page of a partner's orders in its index's order passes; sorted in a temporary B-tree, it does not.
		const page = {
			sql: "SELECT * FROM orders WHERE account_id = ?1 AND mode = ?2 ORDER BY created_at DESC, id DESC LIMIT 21",
			params: ["acct", "live"],
		};
		expect(growingReads(page.sql, await planOf(page))).toEqual([]);
		const sorted = { sql: "SELECT * FROM orders WHERE account_id = ?1 ORDER BY updated_at LIMIT 21", params: ["acct"] };
		expect(growingReads(sorted.sql, await planOf(sorted))).toHaveLength(1);
		// The queue's search by external id as first written: the planner walked orders_by_mode for the ORDER BY.
		const unused = {
			sql: "SELECT * FROM orders WHERE external_id = ? AND mode = ? ORDER BY created_at, id LIMIT ?",
			params: ["PO-1", "live", 51],
		};
		expect(growingReads(unused.sql, await planOf(unused))).toHaveLength(1);
	});
});
