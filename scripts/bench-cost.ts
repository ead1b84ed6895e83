/**
 * `npm run bench:cost`: what each route, the cron and a queue batch cost at 1,000, 20,000 and 100,000
 * orders, in the units Cloudflare's latency and D1's bill are made of: sequential round trips by kind
 * (D1, Durable Object, R2, queue) and D1 rows read and written.
 *
 * A throwaway local state folder gets the migrations, 100 partner accounts and an ops account, then
 * orders seeded straight in SQL (scripts/lib/cost-seed.ts: items, history, events, deliveries, print
 * files, quotes). At each size `wrangler dev` runs with `--var COST_TRACE:1`, which makes every
 * response carry `X-Cost` and the cron and each queue batch log theirs (src/dev-tools/); each
 * route is called once to warm the isolate and once measured, on loopback, one request at a time. The
 * server is stopped before the next range is seeded into the same folder, and the folder is removed
 * at the end. `-- --sizes 1000,5000` measures other sizes.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { inlineStatement } from "../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import type { NewAccount } from "../src/admin/provisioning.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { createAccountWithKeys } from "./lib/accounts.ts";
import { DROP_SEED_ACCOUNTS_SQL, seedAccountsSql, seedCronWorkSql, seedOrdersSql } from "./lib/cost-seed.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { applyMigrations, type D1Target, executeSql } from "./lib/wrangler.ts";

const { values } = parseArgs({ options: { sizes: { type: "string", default: "1000,20000,100000" } } });
const SIZES = values.sizes
	.split(",")
	.map(Number)
	.filter((size) => Number.isInteger(size) && size >= 100 && size <= 1_000_000)
	.sort((a, b) => a - b);
const ACCOUNTS = 100;

/** What one call cost, as X-Cost (or the logged line) says. */
type Cost = {
	d1: number;
	do: number;
	r2: number;
	queue: number;
	innerD1: number;
	rowsRead: number;
	rowsWritten: number;
	/** Every call, side-by-side ones included: "d1:5,do:3,r2:0,queue:1". */
	calls: string;
};

function parseCost(header: string | null): Cost {
	if (header === null) throw new Error("no X-Cost header: is COST_TRACE on?");
	const fields = new Map(
		header
			.split(";")
			.map((pair) => pair.split("="))
			.filter((pair): pair is [string, string] => pair.length === 2 && pair[0] !== undefined && pair[1] !== undefined),
	);
	const number = (name: string) => Number(fields.get(name) ?? Number.NaN);
	return {
		d1: number("d1"),
		do: number("do"),
		r2: number("r2"),
		queue: number("queue"),
		innerD1: number("inner_d1"),
		rowsRead: number("rows_read"),
		rowsWritten: number("rows_written"),
		calls: fields.get("calls") ?? "",
	};
}

type Call = { name: string; status: number; cost: Cost };

/** The ops account's key and a partner's keys, kept across sizes. */
type Keys = { partner: NewAccount; ops: string; admin: string };

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

async function json<T>(response: Response, expected: number): Promise<T> {
	const text = await response.text();
	if (response.status !== expected)
		throw new Error(`expected ${expected}, got ${response.status}: ${text.slice(0, 500)}`);
	return JSON.parse(text) as T;
}

/** Measures every route once warm; returns the calls in table order. */
async function measureRoutes(server: DevServer, keys: Keys, size: number, fileId: string): Promise<Call[]> {
	const origin = server.origin;
	const partnerKey = keys.partner.keys.live.key;
	const auth = { Authorization: `Bearer ${partnerKey}` };
	const jsonHeaders = { ...auth, "Content-Type": "application/json" };
	const ops = { Authorization: `Bearer ${keys.ops}` };
	const calls: Call[] = [];

	/** Calls `request()` twice (warm-up, then measured), or once when `once`. */
	async function measure(
		name: string,
		request: () => Promise<Response>,
		options: { once?: boolean; expect?: number } = {},
	): Promise<Response> {
		if (options.once !== true) await (await request()).arrayBuffer();
		const response = await request();
		const cost = parseCost(response.headers.get("X-Cost"));
		if (response.status !== (options.expect ?? 200)) {
			throw new Error(`${name}: ${response.status} ${(await response.text()).slice(0, 500)}`);
		}
		calls.push({ name, status: response.status, cost });
		return response;
	}
	const get =
		(url: string, headers: Record<string, string> = auth) =>
		() =>
			fetch(`${origin}${url}`, { headers });

	// Targets among the seeded orders of the measured partner (account 0), found without measuring.
	const onHold = (
		await json<{ data: { id: string; items: { id: string }[] }[] }>(
			await fetch(`${origin}/v1/orders?status=on_hold&limit=1`, { headers: auth }),
			200,
		)
	).data[0];
	const inProduction = (
		await json<{ data: { id: string; external_id: string }[] }>(
			await fetch(`${origin}/v1/orders?status=in_production&limit=2`, { headers: auth }),
			200,
		)
	).data;
	const event = (
		await json<{ data: { id: string }[] }>(
			await fetch(`${origin}/v1/events?delivery_status=delivered&limit=1`, { headers: auth }),
			200,
		)
	).data[0];
	const cancelTarget = inProduction[0];
	const readTarget = inProduction[1];
	const onHoldItem = onHold?.items[0];
	if (onHold === undefined || onHoldItem === undefined || cancelTarget === undefined || readTarget === undefined) {
		throw new Error("the seeded partner has no on-hold or in-production orders");
	}
	if (event === undefined) throw new Error("the seeded partner has no events");

	const item = { print_file_id: fileId, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };
	const shipTo = scenarioShipTo("Cost Bench Buyer");
	let sequence = 0;
	const createBody = () => {
		sequence += 1;
		return JSON.stringify({ external_id: `COST-${size}-${process.pid}-${sequence}`, ship_to: shipTo, items: [item] });
	};

	await measure("GET /v1/health", get("/v1/health", {}));
	await measure("GET /v1/catalog", get("/v1/catalog"));
	await measure("GET /v1/price-book", get("/v1/price-book"));
	await measure(
		"POST /v1/quotes",
		() =>
			fetch(`${origin}/v1/quotes`, {
				method: "POST",
				headers: jsonHeaders,
				body: JSON.stringify({ ship_to: shipTo, items: [item] }),
			}),
		{ expect: 201 },
	);
	await measure("GET /v1/orders/{id}", get(`/v1/orders/${readTarget.id}`));
	await measure(
		"GET /v1/orders/by-external-id/{id}",
		get(`/v1/orders/by-external-id/${encodeURIComponent(readTarget.external_id)}`),
	);
	await measure("GET /v1/orders (a page of 20)", get("/v1/orders?limit=20"));
	await measure("GET /v1/orders?status=on_hold (a page of 5)", get("/v1/orders?status=on_hold&limit=5"));
	const created = await measure(
		"POST /v1/orders",
		() => fetch(`${origin}/v1/orders`, { method: "POST", headers: jsonHeaders, body: createBody() }),
		{ expect: 201 },
	);
	const createdOrder = (await created.json()) as { id: string };
	await measure(
		"PATCH /v1/orders/{id}/items/{item_id}",
		() =>
			fetch(`${origin}/v1/orders/${onHold.id}/items/${onHoldItem.id}`, {
				method: "PATCH",
				headers: jsonHeaders,
				body: JSON.stringify({ print_file_id: fileId }),
			}),
		{ once: true },
	);
	await measure(
		"POST /v1/orders/{id}/cancel",
		() => fetch(`${origin}/v1/orders/${cancelTarget.id}/cancel`, { method: "POST", headers: auth }),
		{ once: true },
	);
	await measure("GET /v1/events (a page of 20)", get("/v1/events?limit=20"));
	await measure("GET /v1/events?delivery_status=failed", get("/v1/events?delivery_status=failed&limit=20"));
	await measure("GET /v1/events?type=order.on_hold", get("/v1/events?type=order.on_hold&limit=20"));
	await measure(
		"POST /v1/events/{id}/redeliver",
		() => fetch(`${origin}/v1/events/${event.id}/redeliver`, { method: "POST", headers: auth }),
		{ once: true },
	);
	await measure("GET /v1/ops/orders (a page of 50)", get("/v1/ops/orders", ops));
	await measure("GET /v1/ops/orders?status=on_hold", get("/v1/ops/orders?status=on_hold", ops));
	await measure(
		"GET /v1/ops/orders?account_id=&status=on_hold (a page of 5)",
		get(`/v1/ops/orders?account_id=${keys.partner.account.id}&status=on_hold&limit=5`, ops),
	);
	await measure(
		"GET /v1/ops/orders?q=<external id>",
		get(`/v1/ops/orders?q=${encodeURIComponent(readTarget.external_id)}`, ops),
	);
	await measure(
		"GET /v1/ops/orders?q=<partner name>",
		get(`/v1/ops/orders?q=${encodeURIComponent("Seed Partner 000")}`, ops),
	);

	// The created order, once validated (it has a real file in R2), for the floor's views of one order.
	await waitForStatus(origin, auth, createdOrder.id, "in_production");
	await measure("GET /v1/ops/orders/{id}", get(`/v1/ops/orders/${createdOrder.id}`, ops));
	await measure("GET /v1/ops/orders/{id}/work-ticket", get(`/v1/ops/orders/${createdOrder.id}/work-ticket`, ops));

	const cookie = await signIn(origin, keys.ops);
	const session = { Cookie: cookie };
	await measure("GET /ops/orders (console queue)", get("/ops/orders", session));
	await measure("GET /ops/orders/{id} (console order page)", get(`/ops/orders/${createdOrder.id}`, session));
	return calls;
}

async function waitForStatus(
	origin: string,
	headers: Record<string, string>,
	id: string,
	status: string,
): Promise<void> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const order = await json<{ status: string }>(await fetch(`${origin}/v1/orders/${id}`, { headers }), 200);
		if (order.status === status) return;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	throw new Error(`order ${id} did not reach ${status}`);
}

async function signIn(origin: string, key: string): Promise<string> {
	const response = await fetch(`${origin}/ops/sign-in`, {
		method: "POST",
		headers: { "Content-Type": "application/x-www-form-urlencoded", Origin: origin, "Sec-Fetch-Site": "same-origin" },
		body: new URLSearchParams({ key }).toString(),
		redirect: "manual",
	});
	const pair = response.headers.getSetCookie()[0]?.split(";")[0];
	if (response.status !== 303 || pair === undefined) throw new Error(`sign-in failed: ${response.status}`);
	return pair;
}

/** Triggers the cron and waits for its logged cost and the first queue batch's after it. */
async function measureCronAndQueue(server: DevServer, lines: string[]): Promise<Call[]> {
	const logged = (kind: (job: string) => boolean, after: number) =>
		lines
			.slice(after)
			.map((line) => {
				try {
					return JSON.parse(line) as { cost_trace?: string; cost?: string; messages?: number };
				} catch {
					return {};
				}
			})
			.find((entry) => entry.cost_trace !== undefined && kind(entry.cost_trace));
	const start = lines.length;
	const triggered = await fetch(`${server.origin}/cdn-cgi/local/scheduled`);
	await triggered.arrayBuffer();
	const deadline = Date.now() + 30_000;
	let cron: ReturnType<typeof logged>;
	let queue: ReturnType<typeof logged>;
	while (Date.now() < deadline) {
		cron = logged((job) => job === "scheduled", start);
		queue = logged((job) => job.startsWith("queue:") && !job.endsWith("-dlq"), start);
		if (cron !== undefined && queue !== undefined) break;
		await new Promise((resolve) => setTimeout(resolve, 200));
	}
	if (cron?.cost === undefined) throw new Error("the cron logged no cost");
	const calls: Call[] = [
		{ name: "cron (restart stalled orders, sweep deliveries)", status: 0, cost: parseCost(cron.cost) },
	];
	if (queue?.cost !== undefined) {
		calls.push({ name: `queue batch (${queue.messages ?? "?"} messages)`, status: 0, cost: parseCost(queue.cost) });
	}
	return calls;
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
		fileId ??= await uploadReadyFile(server.origin, jsonHeaders);
		const calls = await measureRoutes(server, { partner, ops, admin }, size, fileId);
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
