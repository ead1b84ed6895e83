/**
 * `npm run bench:cost`: what each route, the cron and a queue batch cost at 1,000, 20,000 and 100,000
 * orders, in the units Cloudflare's latency and D1's bill are made of: sequential round trips by kind
 * (D1, Durable Object, R2, queue) and D1 rows read and written.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and an ops account, then
 * orders seeded straight in SQL (scripts/lib/cost-seed.ts: items, history, events, deliveries, print
 * files, quotes, claims, ledger entries). At each size `wrangler dev` runs with `--var COST_TRACE:1`, which makes every
 * response carry `X-Cost` and the cron and each queue batch log theirs (src/dev-tools/); each
 * route is called once to warm the isolate and once measured, on loopback, one request at a time. The
 * server is stopped before the next range is seeded into the same folder, and the folder is removed
 * at the end. `-- --sizes 1000,5000` measures other sizes.
 */
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import type { NewAccount } from "../src/admin/provisioning.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { createAccountWithKeys } from "./lib/accounts.ts";
import { type Call, type Cost, measureCronAndQueue, measureRoutes } from "./lib/cost-measure.ts";
import { DROP_SEED_ACCOUNTS_SQL, seedAccountsSql, seedCronWorkSql, seedOrdersSql } from "./lib/cost-seed.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { liftLimits, uploadReadyFile } from "./lib/scenario.ts";
import { writePng } from "./lib/thumbnail-bench-files.ts";
import { applyMigrations, type D1Target, executeSql, PROJECT_ROOT } from "./lib/wrangler.ts";

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

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-cost-"));
let server: DevServer | undefined;
const results = new Map<number, Call[]>();
const seeding: { size: number; seconds: number }[] = [];
try {
	const target: D1Target = { remote: false, persistTo };
	await applyMigrations(target);
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
				seedCronWorkSql({
					tag: String(size),
					accountId: partners[1]?.account.id ?? partner.account.id,
					stalled: 3,
					overdue: 5,
					nowUnix: Math.floor(Date.now() / 1000),
				}) +
				DROP_SEED_ACCOUNTS_SQL,
			target,
		);
		const seconds = (performance.now() - started) / 1000;
		seeding.push({ size: size - seeded, seconds });
		console.log(
			`seeded orders ${seeded.toLocaleString("en-US")} to ${size.toLocaleString("en-US")} in ${seconds.toFixed(1)} s`,
		);
		seeded = size;

		const lines: string[] = [];
		let pending = "";
		server = await startDevServer({
			port: await freePort(),
			persistTo,
			vars: {
				COST_TRACE: "1",
				ENVIRONMENT: "development",
				UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789",
				CONSOLE_SESSION_SECRET: "bench-console-session-secret-0123456789",
			},
			onOutput: (chunk) => {
				pending += chunk;
				const parts = pending.split("\n");
				pending = parts.pop() ?? "";
				lines.push(...parts.map((line) => line.slice(line.indexOf("{"))));
			},
		});
		await liftLimits(server.origin, admin, partner.account.id);
		const jsonHeaders = { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" };
		// A real image, so the THUMBNAILS queue's consumer makes its thumbnail and previews draw it.
		fileId ??= await uploadReadyFile(server.origin, jsonHeaders, await realPrintFile(persistTo));
		const statementMonth = new Date(baseUnix * 1000).toISOString().slice(0, 7);
		const calls = await measureRoutes(server, { partner, ops, admin }, size, fileId, statementMonth);
		calls.push(...(await measureCronAndQueue(server, lines)));
		results.set(size, calls);
		await server.stop();
		server = undefined;
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
	console.log(
		`\nseeding: ${seeding.map((step) => `${step.size.toLocaleString("en-US")} orders in ${step.seconds.toFixed(1)} s`).join(", ")}`,
	);
	// Rows read must not grow with the data. Between the two largest sizes every page the bench asks for
	// is full (a page of 20 of the measured partner's 200 orders and more), so any growth there is the data's.
	const [smaller, largest] = SIZES.slice(-2);
	if (smaller !== undefined && largest !== undefined) {
		for (const name of names) {
			const small = results.get(smaller)?.find((call) => call.name === name)?.cost.rowsRead ?? 0;
			const large = results.get(largest)?.find((call) => call.name === name)?.cost.rowsRead ?? 0;
			if (large > 2 * small + 100) {
				console.log(`GROWS: ${name} reads ${small} rows at ${smaller} orders, ${large} at ${largest}`);
				process.exitCode = 1;
			}
		}
	}
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
