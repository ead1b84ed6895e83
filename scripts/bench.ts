/**
 * `npm run bench`: starts the API with `wrangler dev` on a throwaway local state folder and measures
 * throughput and p99 latency with autocannon, on loopback, for a bounded time per endpoint:
 *   GET /v1/health  - the floor: routing and one trivial D1 query, no auth;
 *   GET /v1/catalog - bearer auth (D1), the per-key rate limiter (a Durable Object) and the catalog (D1);
 *   GET /v1/orders/{id} - auth, rate limit, the order and its items (one D1 batch);
 *   POST /v1/orders - auth, rate limit, the order-creation bucket, validation, the file check, the
 *     insert batch and the order's Durable Object (distinct external ids, so every request creates);
 * and the time from a state change to a loopback webhook receiver's 2xx, median and p99 over 200 events.
 * Each figure is printed with its ratio to health measured in the same run. The bench account gets a
 * rate-limit override through the admin route so the limiter's cost is measured but not its allowance.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { createScenarioAccounts, liftLimits, uploadReadyFile } from "./lib/scenario.ts";
import { startWebhookReceiver } from "./lib/webhook-receiver.ts";
import { applyMigrations, type D1Target } from "./lib/wrangler.ts";

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
	};
}

const WEBHOOK_EVENTS = 200;

/**
 * Time from a state change to the receiver's 2xx: 200 orders (10 every half second) with the loopback
 * receiver as callback_url; each one's `order.in_production` event is timed from its `created_at`
 * (the moment of the state change, written in the same batch) to its arrival.
 */
async function measureWebhookLatency(origin: string, headers: Record<string, string>, fileId: string): Promise<void> {
	const receiver = await startWebhookReceiver();
	try {
		for (let sent = 0; sent < WEBHOOK_EVENTS; sent += 10) {
			await Promise.all(
				Array.from({ length: 10 }, async (_, index) => {
					const response = await fetch(`${origin}/v1/orders`, {
						method: "POST",
						headers,
						body: JSON.stringify({
							external_id: `HOOK-${process.pid}-${sent + index}`,
							callback_url: receiver.url,
							ship_to: {
								name: "Bench Buyer",
								address1: "1 Main St",
								city: "Portland",
								state: "OR",
								zip: "97201",
								country: "US",
							},
							items: [{ print_file_id: fileId, width_in: 8, height_in: 10 }],
						}),
					});
					if (response.status !== 201) throw new Error(`create failed: ${response.status} ${await response.text()}`);
				}),
			);
			// A steady stream (about 20 orders a second), so the figure is delivery latency, not a backlog.
			await new Promise((resolve) => setTimeout(resolve, 500));
		}
		const deadline = Date.now() + 120_000;
		while (receiver.arrivals.size < WEBHOOK_EVENTS && Date.now() < deadline) {
			await new Promise((resolve) => setTimeout(resolve, 200));
		}
		const latencies = [...receiver.arrivals.values()]
			.map((arrival) => arrival.arrivedAt - arrival.createdAt)
			.sort((a, b) => a - b);
		const at = (fraction: number) =>
			latencies[Math.min(latencies.length - 1, Math.floor(fraction * latencies.length))] ?? Number.NaN;
		console.log(
			`\nwebhooks: ${latencies.length}/${WEBHOOK_EVENTS} events received; state change to receiver 2xx: median ${at(0.5)} ms, p99 ${at(0.99)} ms`,
		);
		if (latencies.length < WEBHOOK_EVENTS) process.exitCode = 1;
	} finally {
		await receiver.close();
	}
}

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-"));
let server: DevServer | undefined;
try {
	const target: D1Target = { remote: false, persistTo };
	await applyMigrations(target);
	const { partner, adminKey } = await createScenarioAccounts(target, "Bench");

	// The development setting lets orders name the loopback receiver as their callback_url.
	server = await startDevServer({
		port: await freePort(),
		persistTo,
		vars: { UPLOAD_SIGNING_SECRET: "bench-secret", ENVIRONMENT: "development" },
	});
	const origin = server.origin;
	await liftLimits(origin, adminKey, partner.account.id);

	const auth = { Authorization: `Bearer ${partner.keys.live.key}` };
	const json = { ...auth, "Content-Type": "application/json" };
	const fileId = await uploadReadyFile(origin, json);
	let sequence = 0;
	const orderBody = () => {
		sequence += 1;
		return JSON.stringify({
			external_id: `BENCH-${process.pid}-${sequence}`,
			ship_to: {
				name: "Bench Buyer",
				address1: "1 Main St",
				city: "Portland",
				state: "OR",
				zip: "97201",
				country: "US",
			},
			items: [{ print_file_id: fileId, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" }],
		});
	};
	const seeded = await fetch(`${origin}/v1/orders`, { method: "POST", headers: json, body: orderBody() });
	if (seeded.status !== 201) throw new Error(`order create failed: ${seeded.status} ${await seeded.text()}`);
	const orderId = ((await seeded.json()) as { id: string }).id;

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
	await measureWebhookLatency(origin, json, fileId);
	const results: Measurement[] = [];
	for (const endpoint of endpoints) {
		if (warmupSeconds > 0) await measure(endpoint, warmupSeconds);
		results.push(await measure(endpoint, durationSeconds));
	}
	const floor = results[0];
	if (floor === undefined || floor.requestsPerSecond === 0) throw new Error("health measured no requests");
	console.log("\nendpoint              req/s    p99 ms  non-2xx  errors  ratio to health (req/s)");
	for (const result of results) {
		const ratio = result.requestsPerSecond / floor.requestsPerSecond;
		console.log(
			`${result.name.padEnd(20)} ${result.requestsPerSecond.toFixed(0).padStart(6)} ${String(result.p99Ms).padStart(9)} ${String(result.non2xx).padStart(8)} ${String(result.errors).padStart(7)}  ${(ratio * 100).toFixed(1)}%`,
		);
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
