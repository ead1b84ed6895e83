/**
 * `npm run bench`: starts the API with `wrangler dev` on a throwaway local state folder and measures
 * throughput and p99 latency with autocannon, on loopback, for a bounded time per endpoint:
 *   GET /v1/health  - the floor: routing and one trivial D1 query, no auth;
 *   GET /v1/catalog - bearer auth (D1), the per-key rate limiter (a Durable Object) and the catalog (D1).
 * Each figure is printed with its ratio to health measured in the same run. The bench account gets a
 * rate-limit override through the admin route so the limiter's cost is measured but not its allowance.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { PARTNER_SCOPES } from "../src/accounts/scopes.ts";
import { createAccount, createAccountWithKeys } from "./lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
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

type Measurement = {
	name: string;
	requestsPerSecond: number;
	p99Ms: number;
	non2xx: number;
	errors: number;
	total: number;
};

async function measure(
	name: string,
	url: string,
	headers: Record<string, string>,
	seconds: number,
): Promise<Measurement> {
	const result = await autocannon({ url, headers, connections, duration: seconds });
	return {
		name,
		requestsPerSecond: result.requests.average,
		p99Ms: result.latency.p99,
		non2xx: result.non2xx,
		errors: result.errors,
		total: result.requests.total,
	};
}

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-bench-"));
let server: DevServer | undefined;
try {
	const target: D1Target = { remote: false, persistTo };
	await applyMigrations(target);
	const partner = await createAccount(target, "Bench Partner", PARTNER_SCOPES);
	const team = await createAccountWithKeys(target, "Bench service team", [{ mode: "live", scopes: ["admin"] }]);
	const adminKey = team.keys[0]?.key;
	if (adminKey === undefined) throw new Error("no admin key");

	server = await startDevServer({ port: await freePort(), persistTo });
	const override = await fetch(`${server.origin}/v1/admin/accounts/${partner.account.id}/limits`, {
		method: "PUT",
		headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
		body: JSON.stringify({ requests_per_minute: 1_000_000 }),
	});
	if (override.status !== 200) throw new Error(`limit override failed: ${override.status} ${await override.text()}`);

	const endpoints: Array<{ name: string; url: string; headers: Record<string, string> }> = [
		{ name: "GET /v1/health", url: `${server.origin}/v1/health`, headers: {} },
		{
			name: "GET /v1/catalog",
			url: `${server.origin}/v1/catalog`,
			headers: { Authorization: `Bearer ${partner.keys.live.key}` },
		},
	];
	console.log(
		`autocannon: ${connections} connections, ${warmupSeconds} s warm-up, ${durationSeconds} s measured per endpoint`,
	);
	const results: Measurement[] = [];
	for (const endpoint of endpoints) {
		if (warmupSeconds > 0) await measure(endpoint.name, endpoint.url, endpoint.headers, warmupSeconds);
		results.push(await measure(endpoint.name, endpoint.url, endpoint.headers, durationSeconds));
	}
	const floor = results[0];
	if (floor === undefined || floor.requestsPerSecond === 0) throw new Error("health measured no requests");
	console.log("\nendpoint          req/s    p99 ms  non-2xx  errors  ratio to health (req/s)");
	for (const result of results) {
		const ratio = result.requestsPerSecond / floor.requestsPerSecond;
		console.log(
			`${result.name.padEnd(16)} ${result.requestsPerSecond.toFixed(0).padStart(6)} ${String(result.p99Ms).padStart(9)} ${String(result.non2xx).padStart(8)} ${String(result.errors).padStart(7)}  ${(ratio * 100).toFixed(1)}%`,
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
