/**
 * `npm run bench:profile -- --route create|read|health`: V8's CPU profile of one route under load.
 * Starts `wrangler dev` on a throwaway state folder with its DevTools inspector on a free loopback
 * port, sets up a partner with lifted limits and a ready print file (as `npm run bench` does), warms
 * the route up, then connects to the Worker's inspector over the Chrome DevTools Protocol, starts V8's
 * sampling profiler, drives `--requests` requests (10 at a time), stops it and prints the self time by
 * function and by source file (the bundle's lines mapped back to the `src/` and `node_modules/` file
 * each came from). The Worker and its Durable Objects run in the one isolate profiled; D1 and R2's
 * local simulation run in other isolates and are not in the profile. `--out file.cpuprofile` keeps the
 * raw profile for Chromium's DevTools. The whole run is bounded by `--timeout` seconds; it stops its
 * server and removes its folder on success, failure and timeout.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { z } from "zod";
import { ProfileSchema, type SelfTime, type SourceLine, sourceLinesOf, summarise } from "./lib/cpu-profile.ts";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { benchPartner, createScenarioAccounts, liftLimits } from "./lib/scenario.ts";
import type { D1Target } from "./lib/wrangler.ts";

const ROUTES = ["create", "read", "health"] as const;
type RouteName = (typeof ROUTES)[number];

const { values } = parseArgs({
	options: {
		route: { type: "string", default: "create" },
		requests: { type: "string", default: "2000" },
		warmup: { type: "string", default: "300" },
		top: { type: "string", default: "25" },
		out: { type: "string" },
		timeout: { type: "string", default: "300" },
	},
});
/** A whole-number option within its bounds, or a usage error naming it. */
function wholeOption(name: string, value: string | undefined, min: number, max: number): number {
	const parsed = z.coerce.number().int().min(min).max(max).safeParse(value);
	if (!parsed.success) throw new Error(`--${name} takes a whole number from ${min} to ${max}, not "${value}"`);
	return parsed.data;
}

const route = z.enum(ROUTES, { error: `--route is one of ${ROUTES.join(", ")}` }).parse(values.route);
const requests = wholeOption("requests", values.requests, 10, 50_000);
const warmupRequests = wholeOption("warmup", values.warmup, 0, 10_000);
const top = wholeOption("top", values.top, 1, 200);
const timeoutSeconds = wholeOption("timeout", values.timeout, 30, 1_800);
const CONNECTIONS = 10;
/** V8's sampling interval, in microseconds (its default is 1,000). */
const SAMPLING_INTERVAL_US = 100;

const TargetsSchema = z.array(z.object({ webSocketDebuggerUrl: z.string(), title: z.string().optional() }));
const ReplySchema = z.object({
	id: z.number().optional(),
	method: z.string().optional(),
	params: z.unknown().optional(),
	result: z.unknown().optional(),
	error: z.object({ message: z.string() }).optional(),
});
const ScriptParsedSchema = z.object({ scriptId: z.string(), url: z.string() });

/** One DevTools Protocol session over a WebSocket: commands answered by id, events kept by method. */
type Session = {
	send(method: string, params?: Record<string, unknown>): Promise<unknown>;
	events(method: string): unknown[];
	close(): void;
};

async function openSession(url: string): Promise<Session> {
	// wrangler's inspector proxy takes only loopback origins.
	const socket = new WebSocket(url, { headers: { Origin: "http://127.0.0.1" } });
	const pending = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
	const received = new Map<string, unknown[]>();
	let nextId = 0;
	socket.addEventListener("message", (event) => {
		const reply = ReplySchema.parse(JSON.parse(String(event.data)));
		if (reply.id !== undefined) {
			const waiter = pending.get(reply.id);
			pending.delete(reply.id);
			if (reply.error !== undefined) waiter?.reject(new Error(reply.error.message));
			else waiter?.resolve(reply.result);
		} else if (reply.method !== undefined) {
			received.set(reply.method, [...(received.get(reply.method) ?? []), reply.params]);
		}
	});
	await new Promise<void>((resolve, reject) => {
		socket.addEventListener("open", () => resolve(), { once: true });
		socket.addEventListener("error", () => reject(new Error(`could not connect to ${url}`)), { once: true });
	});
	socket.addEventListener("close", () => {
		for (const waiter of pending.values()) waiter.reject(new Error("the inspector closed the connection"));
		pending.clear();
	});
	return {
		send(method, params = {}) {
			nextId += 1;
			const id = nextId;
			return new Promise((resolve, reject) => {
				pending.set(id, { resolve, reject });
				socket.send(JSON.stringify({ id, method, params }));
			});
		},
		events: (method) => received.get(method) ?? [],
		close: () => socket.close(),
	};
}

/** The Worker's inspector target: wrangler's proxy lists it once the Worker has answered a request. */
async function workerTarget(inspectorPort: number): Promise<string> {
	const deadline = Date.now() + 30_000;
	while (Date.now() < deadline) {
		const targets = await fetch(`http://127.0.0.1:${inspectorPort}/json`)
			.then(async (response) => TargetsSchema.parse(await response.json()))
			.catch(() => []);
		const first = targets[0];
		if (first !== undefined) return first.webSocketDebuggerUrl;
		await new Promise((resolve) => setTimeout(resolve, 250));
	}
	throw new Error(`no inspector target on port ${inspectorPort}`);
}

/** For each bundled script in the profile, the source file of each of its lines (sourceLinesOf). */
async function sourceFilesByLine(session: Session, scriptIds: Set<string>): Promise<Map<string, SourceLine[]>> {
	await session.send("Debugger.enable");
	const files = new Map<string, SourceLine[]>();
	for (const parsed of session.events("Debugger.scriptParsed")) {
		const script = ScriptParsedSchema.parse(parsed);
		if (!scriptIds.has(script.scriptId)) continue;
		const { scriptSource } = z
			.object({ scriptSource: z.string() })
			.parse(await session.send("Debugger.getScriptSource", { scriptId: script.scriptId }));
		files.set(script.scriptId, sourceLinesOf(scriptSource, script.url));
	}
	await session.send("Debugger.disable");
	return files;
}

function printTable(title: string, rows: SelfTime[], busy: number, completed: number): void {
	console.log(`\n${title.padEnd(72)} ms   share   µs/request`);
	for (const row of rows.slice(0, top)) {
		console.log(
			`  ${row.name.slice(0, 70).padEnd(70)} ${(row.microseconds / 1000).toFixed(1).padStart(8)} ${`${((row.microseconds / busy) * 100).toFixed(1)}%`.padStart(7)} ${(row.microseconds / completed).toFixed(1).padStart(11)}`,
		);
	}
}

type Driven = { url: string; method: "GET" | "POST"; headers: Record<string, string>; body?: () => string };

async function drive(target: Driven, amount: number): Promise<{ completed: number; non2xx: number }> {
	const { body } = target;
	const result = await autocannon({
		url: target.url,
		method: target.method,
		headers: target.headers,
		connections: CONNECTIONS,
		amount,
		...(body === undefined ? {} : { requests: [{ setupRequest: (request) => ({ ...request, body: body() }) }] }),
	});
	return { completed: result.requests.total, non2xx: result.non2xx + result.errors };
}

const persistTo = await mkdtemp(path.join(tmpdir(), "fps-profile-"));
let server: DevServer | undefined;
const deadline = setTimeout(() => {
	console.error(`bench:profile: stopped after ${timeoutSeconds} s`);
	process.exitCode = 1;
	void Promise.resolve(server?.stop()).finally(() =>
		rm(persistTo, { recursive: true, force: true }).finally(() => process.exit()),
	);
}, timeoutSeconds * 1000);
try {
	const target: D1Target = { remote: false, persistTo };
	await migrateFreshFolder(persistTo);
	const { partner, adminKey } = await createScenarioAccounts(target, "Profile");
	const inspectorPort = await freePort();
	server = await startDevServer({
		port: await freePort(),
		persistTo,
		inspectorPort,
		vars: { UPLOAD_SIGNING_SECRET: "bench-upload-signing-secret-0123456789" },
	});
	const origin = server.origin;
	await liftLimits(origin, adminKey, partner.account.id);
	const { auth, json, orderBody, orderId } = await benchPartner(
		origin,
		partner.keys.live.key,
		"PROFILE",
		"Profile Buyer",
	);

	const driven: Record<RouteName, Driven> = {
		create: { url: `${origin}/v1/orders`, method: "POST", headers: json, body: orderBody },
		read: { url: `${origin}/v1/orders/${orderId}`, method: "GET", headers: auth },
		health: { url: `${origin}/v1/health`, method: "GET", headers: {} },
	};
	if (warmupRequests > 0) await drive(driven[route], warmupRequests);

	const session = await openSession(await workerTarget(inspectorPort));
	try {
		await session.send("Profiler.enable");
		await session.send("Profiler.setSamplingInterval", { interval: SAMPLING_INTERVAL_US });
		await session.send("Profiler.start");
		const driveStarted = performance.now();
		const { completed, non2xx } = await drive(driven[route], requests);
		const driveMs = performance.now() - driveStarted;
		// The work a create sets off after its answer (validation) finishes within a moment.
		await new Promise((resolve) => setTimeout(resolve, 1_000));
		const { profile: raw } = z.object({ profile: z.unknown() }).parse(await session.send("Profiler.stop"));
		const profile = ProfileSchema.parse(raw);
		if (values.out !== undefined) await writeFile(values.out, JSON.stringify(raw));
		const scriptIds = new Set(profile.nodes.map((node) => node.callFrame.scriptId));
		const summary = summarise(profile, await sourceFilesByLine(session, scriptIds));
		console.log(
			`${route}: ${completed} requests (${non2xx} not 2xx) in ${(driveMs / 1000).toFixed(1)} s, ${CONNECTIONS} at a time, after ${warmupRequests} warm-up requests`,
		);
		console.log(
			`profiled isolate: ${(summary.busy / 1000).toFixed(0)} ms busy (${(summary.busy / completed).toFixed(0)} µs per request), ${(summary.idle / 1000).toFixed(0)} ms idle; sampled every ${SAMPLING_INTERVAL_US} µs`,
		);
		printTable("self time by function", summary.byFunction, summary.busy, completed);
		printTable("self time by source file", summary.byFile, summary.busy, completed);
		printTable("total time (self and callees) of the service's functions", summary.inclusive, summary.busy, completed);
		if (non2xx > 0) process.exitCode = 1;
	} finally {
		session.close();
	}
} finally {
	clearTimeout(deadline);
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
}
