/**
 * Each cron job on its own, through the tracer's cron entry (`POST /__cost-trace/cron/{job}`, only with
 * COST_TRACE on, as this project runs): what one run takes and the D1 rows it reads and writes, counted
 * by the tracer, not timed. The data is the cost bench's own seed (scripts/lib/cost-seed.ts): a
 * thousand orders a year old with their events, deliveries and files, and each safety net's work due.
 */
import { env, exports } from "cloudflare:workers";
import { afterAll, describe, expect, it } from "vitest";
import {
	CRON_BATCHES,
	type CronJobName,
	cronWorkDueSql,
	DROP_SEED_ACCOUNTS_SQL,
	drainCronBacklogSql,
	seedAccountsSql,
	seedOrdersSql,
} from "../../scripts/lib/cost-seed.ts";
import { BILLED_PATH } from "../../src/dev-tools/billing.ts";
import { CRON_JOB_PATH } from "../../src/dev-tools/traced-entry.ts";
import { RETENTION_BATCH } from "../../src/file-retention/sweep.ts";
import { ARCHIVE_BATCH } from "../../src/webhooks/archive.ts";
import { createPartner, expectError } from "../helpers.ts";
import { waitFor } from "../polling.ts";

const DAY = 86400;

/** A year of a thousand orders is seeded in a second or two, longer on a busy machine. */
const SEEDED_TEST_TIMEOUT_MS = 60_000;
const JOBS = Object.keys(CRON_BATCHES) as CronJobName[];

/**
 * The jobs set off work that outlives their answers (webhook and thumbnail queue batches, orders'
 * alarms), each logging its cost trace. Before the file's environment is torn down, wait until that
 * work has stopped: the billed totals stand still for 1.5 s (at most 30 s). A log arriving during the
 * teardown is an unhandled error of the whole run.
 */
afterAll(async () => {
	let last = "";
	let stillSince = Date.now();
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const billed = await exports.default.fetch(new Request(`https://api.test${BILLED_PATH}`));
		const now = JSON.stringify(await billed.json());
		if (now !== last) {
			last = now;
			stillSince = Date.now();
		} else if (Date.now() - stillSince >= 1500) {
			return;
		}
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
}, 35_000);

/** Runs SQL of several statements, each ending in `;` at a line's end, in one D1 batch. */
async function runSql(sql: string): Promise<void> {
	const statements = sql
		.split(/;\s*\n/)
		.map((statement) => statement.trim())
		.filter((statement) => statement !== "");
	await env.DB.batch(statements.map((statement) => env.DB.prepare(statement)));
}

/**
 * Two new partners' thousand orders (numbers `from` on, so that each test's are new) a year before
 * `nowUnix`: about 3,500 events and 1,000 files past their windows. Returns the first partner's id.
 */
async function seedYearOfOrders(nowUnix: number, from: number): Promise<string> {
	const accounts = [
		(await createPartner("Cron Gallery A")).account.id,
		(await createPartner("Cron Gallery B")).account.id,
	];
	await runSql(
		seedAccountsSql(accounts) +
			seedOrdersSql({ from, to: from + 1000, accounts, baseUnix: nowUnix - 365 * DAY }) +
			DROP_SEED_ACCOUNTS_SQL,
	);
	return accounts[0] ?? "";
}

/** The D1 rows read and written an `X-Cost` header states (`...;rows_read=5;rows_written=0;...`). */
function rowsOf(header: string): { rowsRead: number; rowsWritten: number; d1: number } {
	const field = (name: string) => Number(new RegExp(`(?:^|;)${name}=(\\d+)(?:;|$)`).exec(header)?.[1] ?? Number.NaN);
	return { rowsRead: field("rows_read"), rowsWritten: field("rows_written"), d1: field("d1") };
}

/** One run of `job` at `at`: how many items it took and what it cost. */
async function runJob(
	job: CronJobName,
	at: Date,
): Promise<{ taken: number; rowsRead: number; rowsWritten: number; d1: number }> {
	const response = await exports.default.fetch(
		new Request(`https://api.test${CRON_JOB_PATH}${job}?at=${at.toISOString()}`, { method: "POST" }),
	);
	expect(response.status).toBe(200);
	const cost = rowsOf(response.headers.get("X-Cost") ?? "");
	const { result } = (await response.json()) as { result: number | { expired: number; postponed: number } };
	const taken = typeof result === "number" ? result : result.expired + result.postponed;
	return { taken, rowsRead: cost.rowsRead, rowsWritten: cost.rowsWritten, d1: cost.d1 };
}

/**
 * Waits for the restarted orders' machines to have moved them on (their alarm runs at once): until
 * then they still read as stalled, and a second run at once would restart them again, harmlessly.
 */
async function restartedOrdersMovedOn(): Promise<void> {
	await waitFor(
		async () =>
			(
				await env.DB.prepare(
					"SELECT count(*) AS stalled FROM orders WHERE id LIKE 'ord_stall%' AND status = 'received' AND version = 1",
				).first<{ stalled: number }>()
			)?.stalled ?? 0,
		(stalled) => stalled <= 7,
		{ timeoutMs: 20_000, failure: (stalled) => `${stalled} restarted orders still received` },
	);
}

/**
 * The rows one item of a batch may cost a job at most (its read, its write and their index entries):
 * a run reads and writes within this times its batch, whatever the tables hold.
 */
const ROWS_PER_ITEM: Record<CronJobName, { read: number; written: number }> = {
	"restart-stalled-orders": { read: 2, written: 1 },
	"sweep-deliveries": { read: 3, written: 3 },
	"sweep-thumbnails": { read: 8, written: 3 },
	"charge-released-orders": { read: 12, written: 10 },
	// The candidates' sizes first, then each event with its deliveries, the pending checks, the deletes.
	"archive-events": { read: 24, written: 3 },
	// 13 since migration 0044 (the account fences' triggers): measured 602 rows for a batch of 50 files.
	"expire-print-files": { read: 13, written: 4 },
};

describe("each cron job alone, through the tracer's cron entry", () => {
	it("the bench's batches are the jobs' own: the archive's and the retention sweep's constants", () => {
		expect(CRON_BATCHES["archive-events"]).toBe(ARCHIVE_BATCH);
		expect(CRON_BATCHES["expire-print-files"]).toBe(RETENTION_BATCH);
	});

	it(
		"with more than a batch due, each job takes exactly its batch, and the rest at its next run",
		async () => {
			const nowUnix = Math.floor(Date.now() / 1000);
			const accountId = await seedYearOfOrders(nowUnix, 0);
			const extra = 7;
			const counts = {
				"restart-stalled-orders": CRON_BATCHES["restart-stalled-orders"] + extra,
				"sweep-deliveries": CRON_BATCHES["sweep-deliveries"] + extra,
				"sweep-thumbnails": CRON_BATCHES["sweep-thumbnails"] + extra,
				"charge-released-orders": CRON_BATCHES["charge-released-orders"] + extra,
			};
			await runSql(cronWorkDueSql({ tag: "over", accountId, nowUnix, counts }));
			const at = new Date(nowUnix * 1000);
			for (const job of JOBS) {
				const first = (await runJob(job, at)).taken;
				if (job === "restart-stalled-orders") await restartedOrdersMovedOn();
				const second = (await runJob(job, at)).taken;
				// The events and files past their windows are several batches; the safety nets' work one and a bit.
				const rest = job === "archive-events" || job === "expire-print-files" ? CRON_BATCHES[job] : extra;
				expect({ job, first, second }).toEqual({ job, first: CRON_BATCHES[job], second: rest });
			}
		},
		SEEDED_TEST_TIMEOUT_MS,
	);

	it(
		"with one batch due, each job's rows stay within its batch's bound; with nothing due it reads a few rows and writes none",
		async () => {
			const nowUnix = Math.floor(Date.now() / 1000);
			const accountId = await seedYearOfOrders(nowUnix, 1000);
			await runSql(
				drainCronBacklogSql({
					nowUnix,
					eventRetentionDays: 90,
					fileRetentionDays: 45,
					keepEvents: CRON_BATCHES["archive-events"],
					keepFiles: CRON_BATCHES["expire-print-files"],
				}) + cronWorkDueSql({ tag: "one", accountId, nowUnix, counts: CRON_BATCHES }),
			);
			const at = new Date(nowUnix * 1000);
			for (const job of JOBS) {
				const batch = CRON_BATCHES[job];
				const due = await runJob(job, at);
				if (job === "restart-stalled-orders") await restartedOrdersMovedOn();
				expect({ job, taken: due.taken }).toEqual({ job, taken: batch });
				expect({ job, read: due.rowsRead <= ROWS_PER_ITEM[job].read * batch }).toEqual({ job, read: true });
				expect({ job, written: due.rowsWritten <= ROWS_PER_ITEM[job].written * batch }).toEqual({ job, written: true });
				const idle = await runJob(job, at);
				expect({ job, taken: idle.taken, written: idle.rowsWritten }).toEqual({ job, taken: 0, written: 0 });
				expect({ job, read: idle.rowsRead <= 2 }).toEqual({ job, read: true });
			}
		},
		SEEDED_TEST_TIMEOUT_MS,
	);
});

describe("the charge sweep", () => {
	it(
		"charges a whole batch of released orders in two sequential D1 round trips: the read and one batch",
		async () => {
			const nowUnix = Math.floor(Date.now() / 1000);
			const accountId = await seedYearOfOrders(nowUnix, 2000);
			const counts = {
				"restart-stalled-orders": 0,
				"sweep-deliveries": 0,
				"sweep-thumbnails": 0,
				"charge-released-orders": CRON_BATCHES["charge-released-orders"],
			};
			await runSql(cronWorkDueSql({ tag: "rt", accountId, nowUnix, counts }));
			const run = await runJob("charge-released-orders", new Date(nowUnix * 1000));
			expect({ taken: run.taken, d1: run.d1 }).toEqual({ taken: CRON_BATCHES["charge-released-orders"], d1: 2 });
		},
		SEEDED_TEST_TIMEOUT_MS,
	);
});

describe(`POST ${CRON_JOB_PATH}{job}`, () => {
	it("is a 404 route_not_found for a job the cron does not have, and for GET", async () => {
		for (const request of [
			new Request(`https://api.test${CRON_JOB_PATH}drop-everything`, { method: "POST" }),
			new Request(`https://api.test${CRON_JOB_PATH}archive-events`),
			new Request(`https://api.test${CRON_JOB_PATH}toString`, { method: "POST" }),
		]) {
			expect((await expectError(await exports.default.fetch(request), "not_found")).code).toBe("route_not_found");
		}
	});

	it("refuses an `at` that is not an ISO instant with a 422 naming the field", async () => {
		for (const at of ["yesterday", "2026-13-45T00:00:00Z", "x".repeat(10_000)]) {
			const response = await exports.default.fetch(
				new Request(`https://api.test${CRON_JOB_PATH}archive-events?at=${encodeURIComponent(at)}`, {
					method: "POST",
				}),
			);
			expect((await expectError(response, "validation_error", "at")).code).toBe("invalid_field");
		}
	});
});
