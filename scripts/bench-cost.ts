/**
 * `npm run bench:cost`: what each route, the cron and a queue batch cost at 1,000, 20,000 and 100,000
 * orders, in the units Cloudflare's latency and D1's bill are made of: sequential round trips by kind
 * (D1, Durable Object, R2, queue) and D1 rows read and written.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and an ops account, then
 * orders seeded straight in SQL (scripts/lib/cost-seed.ts: items, history, events, deliveries, print
 * files, quotes, claims, ledger entries). At each size `wrangler dev` runs with `--var COST_TRACE:1`, which makes every
 * response carry `X-Cost` and each queue batch log its cost (src/dev-tools/); each
 * route is called once to warm the isolate and once measured, on loopback, one request at a time. The
 * server is stopped before the next range is seeded into the same folder, and the folder is removed
 * at the end. `-- --sizes 1000,5000` measures other sizes.
 *
 * The cron is measured job by job on a copy of the state: the seeded backlog (a year of events and
 * files) worked off as the catch-up runs would leave it, but for one batch of each job due at one
 * instant; each job then runs alone twice at that instant through the tracer's cron entry, with its
 * batch due and with nothing due. The copy is removed afterwards, so the next size grows the original.
 */
import { cp, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import type { NewAccount } from "../src/admin/provisioning.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { createAccountWithKeys } from "./lib/accounts.ts";
import { type Call, type Cost, measureCronJobs, measureRoutes } from "./lib/cost-measure.ts";
import {
	CRON_BATCHES,
	cronWorkDueSql,
	DROP_SEED_ACCOUNTS_SQL,
	drainCronBacklogSql,
	seedAccountsSql,
	seedOrdersSql,
} from "./lib/cost-seed.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { liftLimits, uploadReadyFile } from "./lib/scenario.ts";
import { writePng } from "./lib/thumbnail-bench-files.ts";
import { type D1Target, executeSql, PROJECT_ROOT } from "./lib/wrangler.ts";

/** Migration 0021's backfill, run again over each seeded range: its shipped orders get their shipment. */
const SHIPMENTS_OF_SHIPPED_ORDERS = await readFile(
	path.join(PROJECT_ROOT, "migrations", "0021_shipments_of_shipped_orders.sql"),
	"utf8",
);

const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,20000,100000" } } });
const SIZES = values.sizes
	.split(",")
	.map(Number)
	.filter((size) => Number.isInteger(size) && size >= 100 && size <= 1_000_000)
	.sort((a, b) => a - b);
const ACCOUNTS = 100;

async function seedAccounts(target: D1Target): Promise<{ partners: NewAccount[]; ops: string; admin: string }> {
	const partners: NewAccount[] = [];
	const statements: string[] = [];
	const now = new Date();
	for (let index = 0; index < ACCOUNTS; index++) {
		const planned = await planAccount(`Seed Partner ${String(index).padStart(3, "0")}`, PARTNER_SCOPES, now);
		partners.push(planned.created);
		statements.push(...planned.statements.map((statement) => `${inlineStatement(statement)};`));
	}
	await executeSql(`${statements.join("\n")}\n`, target);
	const team = await createAccountWithKeys(target, "Cost bench service team", [
		{ mode: "live", scopes: ["ops"] },
		{ mode: "live", scopes: ["admin"] },
	]);
	const [ops, admin] = team.keys.map((key) => key.key);
	if (ops === undefined || admin === undefined) throw new Error("no ops or admin key");
	return { partners, ops, admin };
}

/** Round trips as `D1 / DO / R2`, with `(n in DO)` for D1 trips made inside Durable Objects and `+qN` for queue sends. */
function trips(cost: Cost): string {
	const inner = cost.innerD1 > 0 ? ` (${cost.innerD1} in DO)` : "";
	return `${cost.d1}${inner} / ${cost.do} / ${cost.r2}${cost.queue > 0 ? ` +q${cost.queue}` : ""}`;
}

function rows(cost: Cost | undefined): string {
	if (cost === undefined) return "";
	return `${cost.rowsRead.toLocaleString("en-US")} / ${cost.rowsWritten.toLocaleString("en-US")}`;
}

/** A decodable 2400 × 3000 px PNG (300 DPI at 8 × 10 in), written into `folder` and read back. */
async function realPrintFile(folder: string): Promise<Uint8Array> {
	const file = path.join(folder, "print-file.png");
	await writePng(file, 2400, 3000);
	return new Uint8Array(await readFile(file));
}

/** The retention windows the cron is measured under, given to the server and to the drain alike. */
const RETENTION_VARS = { EVENT_RETENTION_DAYS: "90", PRINT_FILE_RETENTION_DAYS: "45" };

/** The variables every server of the bench runs with. */
const SERVER_VARS = {
	COST_TRACE: "1",
	ENVIRONMENT: "development",
	UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789",
	CONSOLE_SESSION_SECRET: "bench-console-session-secret-0123456789",
	...RETENTION_VARS,
};

/** A server on `folder` whose output lines (from the first `{` on) are collected in `lines`. */
async function serverCollecting(folder: string, lines: string[]): Promise<DevServer> {
	let pending = "";
	return startDevServer({
		port: await freePort(),
		persistTo: folder,
		vars: SERVER_VARS,
		onOutput: (chunk) => {
			pending += chunk;
			const parts = pending.split("\n");
			pending = parts.pop() ?? "";
			lines.push(...parts.map((line) => line.slice(line.indexOf("{"))));
		},
	});
}

/**
 * The cron job by job at this size, on a copy of the state (the server on the original stopped): the
 * backlog drained but for one batch of each job, due at one instant; each job run with it due and with
 * nothing due (scripts/lib/cost-measure.ts). The copy is removed before returning.
 */
async function measureCronOnCopy(size: number, accountId: string): Promise<{ calls: Call[]; problems: string[] }> {
	const copy = `${persistTo}-cron`;
	await cp(persistTo, copy, { recursive: true });
	try {
		const nowUnix = Math.floor(Date.now() / 1000);
		await executeSql(
			drainCronBacklogSql({
				nowUnix,
				eventRetentionDays: Number(RETENTION_VARS.EVENT_RETENTION_DAYS),
				fileRetentionDays: Number(RETENTION_VARS.PRINT_FILE_RETENTION_DAYS),
				keepEvents: CRON_BATCHES["archive-events"],
				keepFiles: CRON_BATCHES["expire-print-files"],
			}) + cronWorkDueSql({ tag: String(size), accountId, nowUnix, counts: CRON_BATCHES }),
			{ remote: false, persistTo: copy },
		);
		const lines: string[] = [];
		server = await serverCollecting(copy, lines);
		const measured = await measureCronJobs(server, lines, new Date(nowUnix * 1000));
		await server.stop();
		server = undefined;
		return measured;
	} finally {
		await server?.stop();
		server = undefined;
		await rm(copy, { recursive: true, force: true });
	}
}

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-cost-"));
let server: DevServer | undefined;
const cronProblems: string[] = [];
const results = new Map<number, Call[]>();
const seeding: { size: number; seconds: number }[] = [];
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { partners, ops, admin } = await seedAccounts(target);
	const partner = partners[0];
	if (partner === undefined) throw new Error("no partner");
	const accountIds = partners.map((each) => each.account.id);
	const baseUnix = Math.floor(Date.now() / 1000) - 365 * 86400;
	let fileId: string | undefined;
	let seeded = 0;
	for (const size of SIZES) {
		const started = performance.now();
		await executeSql(
			seedAccountsSql(accountIds) +
				seedOrdersSql({ from: seeded, to: size, accounts: accountIds, baseUnix }) +
				SHIPMENTS_OF_SHIPPED_ORDERS +
				DROP_SEED_ACCOUNTS_SQL,
			target,
		);
		const seconds = (performance.now() - started) / 1000;
		seeding.push({ size: size - seeded, seconds });
		console.log(
			`seeded orders ${seeded.toLocaleString("en-US")} to ${size.toLocaleString("en-US")} in ${seconds.toFixed(1)} s`,
		);
		seeded = size;

		server = await serverCollecting(persistTo, []);
		await liftLimits(server.origin, admin, partner.account.id);
		const jsonHeaders = { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" };
		// A real image, so the THUMBNAILS queue's consumer makes its thumbnail and previews draw it.
		fileId ??= await uploadReadyFile(server.origin, jsonHeaders, await realPrintFile(persistTo));
		const statementMonth = new Date(baseUnix * 1000).toISOString().slice(0, 7);
		const calls = await measureRoutes(server, { partner, ops, admin }, size, fileId, statementMonth);
		await server.stop();
		server = undefined;
		const cron = await measureCronOnCopy(size, partners[1]?.account.id ?? partner.account.id);
		calls.push(...cron.calls);
		cronProblems.push(...cron.problems.map((problem) => `${size.toLocaleString("en-US")} orders: ${problem}`));
		results.set(size, calls);
	}

	console.log(
		"\nSequential round trips D1 / Durable Object / R2 at the largest size (all calls in brackets), and D1 rows read / written at each size:\n",
	);
	const names = results.get(SIZES[0] ?? 0)?.map((call) => call.name) ?? [];
	const largestSize = SIZES.at(-1) ?? 0;
	const header = `| call | round trips | all calls | ${SIZES.map((size) => `rows at ${size.toLocaleString("en-US")}`).join(" | ")} |`;
	console.log(header);
	console.log(`| --- | --- | --- | ${SIZES.map(() => "---").join(" | ")} |`);
	for (const name of names) {
		const at = (size: number) => results.get(size)?.find((call) => call.name === name)?.cost;
		const last = at(largestSize);
		const cells = SIZES.map((size) => rows(at(size)));
		console.log(`| ${name} | ${last === undefined ? "" : trips(last)} | ${last?.calls ?? ""} | ${cells.join(" | ")} |`);
	}
	// Round trips should not depend on the size either: list any call whose trips differ between sizes.
	for (const name of names) {
		const shapes = new Set(
			SIZES.map((size) => {
				const cost = results.get(size)?.find((call) => call.name === name)?.cost;
				return cost === undefined ? "" : trips(cost);
			}),
		);
		if (shapes.size > 1) console.log(`round trips differ between sizes: ${name}: ${[...shapes].join(" | ")}`);
	}
	for (const problem of cronProblems) {
		console.log(`CRON: ${problem}`);
		process.exitCode = 1;
	}
	console.log(
		`\nseeding: ${seeding.map((step) => `${step.size.toLocaleString("en-US")} orders in ${step.seconds.toFixed(1)} s`).join(", ")}`,
	);
	// Rows read must not grow with the data. Between the two largest sizes every page the bench asks for
	// is full (a page of 20 of the measured partner's 200 orders and more), so any growth there is the data's.
	// Each cron job's two rows are held the same way: a batch due and nothing due at every size.
	const [smaller, largest] = SIZES.slice(-2);
	if (smaller !== undefined && largest !== undefined) {
		for (const name of names) {
			const at = (size: number) => results.get(size)?.find((call) => call.name === name)?.cost;
			for (const [verb, rowsOf] of [
				["reads", (cost: Cost | undefined) => cost?.rowsRead ?? 0],
				["writes", (cost: Cost | undefined) => cost?.rowsWritten ?? 0],
			] as const) {
				const small = rowsOf(at(smaller));
				const large = rowsOf(at(largest));
				if (large > 2 * small + 100) {
					console.log(`GROWS: ${name} ${verb} ${small} rows at ${smaller} orders, ${large} at ${largest}`);
					process.exitCode = 1;
				}
			}
		}
	}
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
