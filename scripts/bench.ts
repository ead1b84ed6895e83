/**
 * `npm run bench`: starts the API with `wrangler dev` on a throwaway local state folder and measures
 * throughput and p99 latency with autocannon, on loopback, for a bounded time per endpoint:
 *   GET /v1/health  - the floor: routing and one trivial D1 query, no auth;
 *   GET /v1/catalog - bearer auth (D1), the per-key rate limiter (a Durable Object) and the catalog (D1);
 *   GET /v1/orders/{id} - auth, rate limit, the order and its items (one D1 batch);
 *   POST /v1/orders - auth, rate limit, the order-creation bucket, validation, the file check, the
 *     insert batch and the order's Durable Object (distinct external ids, so every request creates);
 * and the time from a state change to a loopback webhook receiver's 2xx, median and p99: for lone events,
 * for a stream of 200, and for the same stream while a second account's receiver hangs.
 * Each figure is printed with its ratio to health measured in the same run. The bench account gets a
 * rate-limit override through the admin route so the limiter's cost is measured but not its allowance.
 * Beside throughput, each endpoint's workerd CPU per request (from /proc): the CPU the workerd processes
 * spent from the start of the measured stretch until they are idle again (so a create's validation,
 * which runs after its answer, counts), less their idle CPU over that time, divided by the requests
 * completed in the stretch. The warm-up and whatever it set off are over before the stretch starts.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { createAccount } from "./lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { processCpuAvailable, workerdCpuSeconds } from "./lib/process-cpu.ts";
import { benchPartner, createScenarioAccounts, liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./lib/webhook-receiver.ts";
import type { D1Target } from "./lib/wrangler.ts";

const { values } = parseArgs({
	options: {
		duration: { type: "string", default: "10" },
		connections: { type: "string", default: "10" },
		warmup: { type: "string", default: "3" },
	},
});
const durationSeconds = Math.min(60, Math.max(1, Number(values.duration)));
const connections = Math.min(100, Math.max(1, Number(values.connections)));
const warmupSeconds = Math.min(30, Math.max(0, Number(values.warmup)));

type Endpoint = {
	name: string;
	url: string;
	headers: Record<string, string>;
	method?: "GET" | "POST";
	/** A fresh body per request (autocannon's setupRequest). */
	body?: () => string;
};

type Measurement = {
	name: string;
	requestsPerSecond: number;
	p99Ms: number;
	non2xx: number;
	errors: number;
	total: number;
	/** workerd's CPU milliseconds per request completed, or null where /proc cannot be read. */
	cpuMsPerRequest: number | null;
	/** workerd's idle CPU before the stretch, as a share of one core (taken off the stretch's), or null. */
	idleCpuShare: number | null;
};

async function measure(endpoint: Endpoint, seconds: number): Promise<Measurement> {
	const { body } = endpoint;
	const result = await autocannon({
		url: endpoint.url,
		method: endpoint.method ?? "GET",
		headers: endpoint.headers,
		connections,
		duration: seconds,
		...(body === undefined ? {} : { requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] }),
	});
	return {
		name: endpoint.name,
		requestsPerSecond: result.requests.average,
		p99Ms: result.latency.p99,
		non2xx: result.non2xx,
		errors: result.errors,
		total: result.requests.total,
		cpuMsPerRequest: null,
		idleCpuShare: null,
	};
}

/** How long workerd must stay (almost) idle to count as settled, and the CPU it may use meanwhile. */
const SETTLE_WINDOW_MS = 500;
const SETTLE_IDLE_CPU_SECONDS = 0.01;
/** The longest wait for workerd to settle; past it the figure includes whatever still runs. */
const SETTLE_LIMIT_MS = 15_000;
/** How long workerd's idle CPU is sampled before each stretch, to be taken off the stretch's. */
const IDLE_SAMPLE_MS = 3_000;

/** workerd's CPU seconds so far, and when they were read (performance.now(), ms). */
type CpuReading = { cpuSeconds: number; at: number };

async function cpuReading(pid: number): Promise<CpuReading> {
	return { cpuSeconds: await workerdCpuSeconds(pid), at: performance.now() };
}

/**
 * Waits until the workerd processes below `pid` use (almost) no CPU over a window: the work a stretch of
 * requests set off after answering (validation, webhooks) is then over.
 */
async function settledCpu(pid: number): Promise<CpuReading> {
	const deadline = Date.now() + SETTLE_LIMIT_MS;
	let last = await cpuReading(pid);
	for (;;) {
		await new Promise((resolve) => setTimeout(resolve, SETTLE_WINDOW_MS));
		const now = await cpuReading(pid);
		if (now.cpuSeconds - last.cpuSeconds <= SETTLE_IDLE_CPU_SECONDS || Date.now() > deadline) return now;
		last = now;
	}
}

/**
 * One endpoint's warm-up, then its measured stretch with workerd's CPU read from the settled state before
 * to the settled state after, less what workerd uses when idle (timers, the webhook retries of the
 * hanging receiver, Durable Objects being evicted) over the same time, per request completed in the
 * stretch. Without that, a slow stretch on a busy machine would spread the same idle CPU over fewer
 * requests.
 */
async function measureWithCpu(endpoint: Endpoint, workerdPid: number | null): Promise<Measurement> {
	if (warmupSeconds > 0) await measure(endpoint, warmupSeconds);
	if (workerdPid === null) return measure(endpoint, durationSeconds);
	const settled = await settledCpu(workerdPid);
	await new Promise((resolve) => setTimeout(resolve, IDLE_SAMPLE_MS));
	const before = await cpuReading(workerdPid);
	const idlePerMs = Math.max(0, before.cpuSeconds - settled.cpuSeconds) / (before.at - settled.at);
	const measured = await measure(endpoint, durationSeconds);
	const after = await settledCpu(workerdPid);
	const busySeconds = Math.max(0, after.cpuSeconds - before.cpuSeconds - idlePerMs * (after.at - before.at));
	const cpuMsPerRequest = measured.total > 0 ? (busySeconds * 1000) / measured.total : null;
	return { ...measured, cpuMsPerRequest, idleCpuShare: idlePerMs * 1000 };
}

const WEBHOOK_EVENTS = 200;
const LONE_EVENTS = 20;
const HANGING_EVENTS = 20;

const BENCH_SHIP_TO = scenarioShipTo("Bench Buyer");

/** A partner's way to create orders: its headers, a ready file, and a name for its external ids. */
type OrderSource = { headers: Record<string, string>; fileId: string; label: string };

let createdOrders = 0;
/** Each order's `created_at` as its 201 gave it (ms since epoch), by order id. */
const answeredAt = new Map<string, number>();

/** Creates one order whose `order.in_production` webhook goes to `callbackUrl`. */
async function createHookedOrder(origin: string, source: OrderSource, callbackUrl: string): Promise<void> {
	createdOrders += 1;
	const response = await fetch(`${origin}/v1/orders`, {
		method: "POST",
		headers: source.headers,
		body: JSON.stringify({
			external_id: `HOOK-${source.label}-${process.pid}-${createdOrders}`,
			callback_url: callbackUrl,
			ship_to: BENCH_SHIP_TO,
			items: [{ print_file_id: source.fileId, width_in: 8, height_in: 10 }],
		}),
	});
	if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
	const order = (await response.json()) as { id: string; created_at: string };
	answeredAt.set(order.id, Date.parse(order.created_at));
}

/**
 * Median and p99 of the time from each order's creation (the `created_at` its 201 carries) to its
 * move to `in_production` (that event's `created_at`), in ms, both by the service's clock: how long
 * the validation pipeline takes. (By the client's clock the move often comes before the 201 has
 * travelled back through wrangler's proxy, since validation starts while the answer is sent.)
 */
function toInProduction(receiver: WebhookReceiver): { median: number; p99: number; orders: number } {
	const times = [...receiver.arrivals.values()]
		.flatMap((arrival) => {
			const answered = answeredAt.get(arrival.orderId);
			return answered === undefined ? [] : [arrival.createdAt - answered];
		})
		.sort((a, b) => a - b);
	const at = (fraction: number) => times[Math.min(times.length - 1, Math.floor(fraction * times.length))] ?? Number.NaN;
	return { median: at(0.5), p99: at(0.99), orders: times.length };
}

/** Median and p99 of the receiver's latencies (state change, the event's `created_at`, to arrival), in ms. */
function latencySummary(
	receiver: WebhookReceiver,
	expected: number,
): { median: number; p99: number; received: number } {
	const latencies = [...receiver.arrivals.values()]
		.map((arrival) => arrival.arrivedAt - arrival.createdAt)
		.sort((a, b) => a - b);
	const at = (fraction: number) =>
		latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))] ?? Number.NaN;
	if (latencies.length < expected) process.exitCode = 1;
	return { median: at(0.5), p99: at(0.99), received: latencies.length };
}

async function waitForArrivals(receiver: WebhookReceiver, count: number, timeoutMs = 120_000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (receiver.arrivals.size < count && Date.now() < deadline) {
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
}

/** A steady stream of `count` orders, 10 every half second (about 20 a second), to `receiver`. */
async function streamOrders(origin: string, source: OrderSource, receiver: WebhookReceiver, count: number) {
	for (let sent = 0; sent < count; sent += 10) {
		await Promise.all(Array.from({ length: 10 }, () => createHookedOrder(origin, source, receiver.url)));
		await new Promise((resolve) => setTimeout(resolve, 500));
	}
	await waitForArrivals(receiver, count);
	return latencySummary(receiver, count);
}

/**
 * Time from a state change to the receiver's 2xx, three ways:
 * - lone events: one order at a time, the next only after the last one's webhook arrived, so no
 *   stream fills the queue's batches;
 * - a stream: 200 orders, about 20 a second;
 * - isolation: the same stream from one account while another account's receiver hangs (it reads
 *   each webhook and never answers) on 20 events sent just before and during the stream.
 */
async function measureWebhookLatency(origin: string, source: OrderSource, stuck: OrderSource): Promise<void> {
	const lone = await startWebhookReceiver();
	const stream = await startWebhookReceiver();
	const disturbed = await startWebhookReceiver();
	const hanging = await startWebhookReceiver({ hang: true });
	try {
		for (let sent = 0; sent < LONE_EVENTS; sent++) {
			await createHookedOrder(origin, source, lone.url);
			await waitForArrivals(lone, sent + 1, 30_000);
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		const loneFigures = latencySummary(lone, LONE_EVENTS);
		const streamFigures = await streamOrders(origin, source, stream, WEBHOOK_EVENTS);
		const validation = toInProduction(stream);

		// The stuck account's events: half before the stream, half during it.
		const half = HANGING_EVENTS / 2;
		await Promise.all(Array.from({ length: half }, () => createHookedOrder(origin, stuck, hanging.url)));
		const during = Promise.all(Array.from({ length: half }, () => createHookedOrder(origin, stuck, hanging.url)));
		const disturbedFigures = await streamOrders(origin, source, disturbed, WEBHOOK_EVENTS);
		await during;

		console.log(
			`
webhooks, state change to receiver 2xx:` +
				`
  lone events (one at a time):  ${loneFigures.received}/${LONE_EVENTS} received, median ${loneFigures.median} ms, p99 ${loneFigures.p99} ms` +
				`
  stream (about 20 a second):   ${streamFigures.received}/${WEBHOOK_EVENTS} received, median ${streamFigures.median} ms, p99 ${streamFigures.p99} ms` +
				`
  the same stream while another account's receiver hangs on ${HANGING_EVENTS} events (${hanging.arrivals.size} reached it):` +
				`
                                ${disturbedFigures.received}/${WEBHOOK_EVENTS} received, median ${disturbedFigures.median} ms, p99 ${disturbedFigures.p99} ms` +
				` (${(disturbedFigures.median / streamFigures.median).toFixed(2)}× the undisturbed median)` +
				`
from a 201 to in_production (the stream's ${validation.orders} orders): median ${validation.median} ms, p99 ${validation.p99} ms`,
		);
	} finally {
		await Promise.all([lone.close(), stream.close(), disturbed.close(), hanging.close()]);
	}
}

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-"));
let server: DevServer | undefined;
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { partner, adminKey } = await createScenarioAccounts(target, "Bench");
	const stuckPartner = await createAccount(target, "Bench Stuck Partner", PARTNER_SCOPES);

	// The development setting lets orders name the loopback receiver as their callback_url.
	server = await startDevServer({
		port: await freePort(),
		persistTo,
		vars: { UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789", ENVIRONMENT: "development" },
	});
	const origin = server.origin;
	await liftLimits(origin, adminKey, partner.account.id);
	await liftLimits(origin, adminKey, stuckPartner.account.id);

	const { auth, json, fileId, orderBody, orderId } = await benchPartner(
		origin,
		partner.keys.live.key,
		"BENCH",
		"Bench Buyer",
	);

	const endpoints: Endpoint[] = [
		{ name: "GET /v1/health", url: `${origin}/v1/health`, headers: {} },
		{ name: "GET /v1/catalog", url: `${origin}/v1/catalog`, headers: auth },
		{ name: "GET /v1/orders/{id}", url: `${origin}/v1/orders/${orderId}`, headers: auth },
		{ name: "POST /v1/orders", url: `${origin}/v1/orders`, headers: json, method: "POST", body: orderBody },
	];
	console.log(
		`autocannon: ${connections} connections, ${warmupSeconds} s warm-up, ${durationSeconds} s measured per endpoint`,
	);
	// First, on a quiet server: the orders created by the POST measurement validate for a while after it.
	const stuckJson = { Authorization: `Bearer ${stuckPartner.keys.live.key}`, "Content-Type": "application/json" };
	await measureWebhookLatency(
		origin,
		{ headers: json, fileId, label: "A" },
		{ headers: stuckJson, fileId: await uploadReadyFile(origin, stuckJson), label: "B" },
	);
	const workerdPid = server.pid !== undefined && (await processCpuAvailable()) ? server.pid : null;
	const results: Measurement[] = [];
	for (const endpoint of endpoints) results.push(await measureWithCpu(endpoint, workerdPid));
	const floor = results[0];
	if (floor === undefined || floor.requestsPerSecond === 0) throw new Error("health measured no requests");
	console.log(
		"\nendpoint              req/s    p99 ms  non-2xx  errors  ratio to health (req/s)  CPU ms/req  CPU ratio to health",
	);
	for (const result of results) {
		const ratio = result.requestsPerSecond / floor.requestsPerSecond;
		const cpu = result.cpuMsPerRequest === null ? "n/a" : result.cpuMsPerRequest.toFixed(3);
		const cpuRatio =
			result.cpuMsPerRequest === null || floor.cpuMsPerRequest === null || floor.cpuMsPerRequest === 0
				? "n/a"
				: `${(result.cpuMsPerRequest / floor.cpuMsPerRequest).toFixed(2)}×`;
		console.log(
			`${result.name.padEnd(20)} ${result.requestsPerSecond.toFixed(0).padStart(6)} ${String(result.p99Ms).padStart(9)} ${String(result.non2xx).padStart(8)} ${String(result.errors).padStart(7)}  ${`${(ratio * 100).toFixed(1)}%`.padStart(23)}  ${cpu.padStart(10)}  ${cpuRatio.padStart(19)}`,
		);
	}
	if (workerdPid === null) console.log("(CPU per request needs Linux's /proc: not measured here.)");
	else {
		const idle = results.map((result) => `${((result.idleCpuShare ?? 0) * 100).toFixed(1)}%`).join(", ");
		console.log(`workerd's idle CPU before each stretch, taken off it (share of one core): ${idle}`);
	}
	const failed = results.some((result) => result.non2xx > 0 || result.errors > 0);
	if (failed) {
		console.error("\nSome requests failed: the figures above do not measure successful requests only.");
		process.exitCode = 1;
	}
} finally {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
