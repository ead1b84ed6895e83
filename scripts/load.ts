/**
 * `npm run load`: 1,000 order creates from 20 concurrent clients against a throwaway `wrangler dev`
 * on loopback, 10% of them repeating an earlier `external_id` and 5% with invalid bodies, mixed with
 * reads and lists. Then it checks, against the API and the database: exactly one order per distinct
 * `external_id` (every repeat answered with that order), every 201 readable, no 5xx, every invalid
 * body a 4xx in the error envelope, and every event delivered to a local webhook receiver. Prints a
 * one-line summary; exits non-zero on any violation. Bounded: 1,000 creates, 3 minutes of waiting.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { createScenarioAccounts, liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { startWebhookReceiver, type WebhookReceiver } from "./lib/webhook-receiver.ts";
import { type D1Target, queryRows } from "./lib/wrangler.ts";

const CREATES = 1000;
const CLIENTS = 20;
const SHIP_TO = scenarioShipTo("Load Buyer");

type Planned = { kind: "create" | "repeat" | "invalid"; externalId: string; body: string };

/** A small seeded PRNG (mulberry32), so a run's mix is the same every time. */
function prng(seed: number): () => number {
	let state = seed;
	return () => {
		state = (state + 0x6d2b79f5) | 0;
		let t = Math.imul(state ^ (state >>> 15), 1 | state);
		t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function plan(fileId: string, callbackUrl: string): Planned[] {
	const random = prng(20261121);
	const invalidBodies = [
		(id: string) => ({ external_id: id, items: [] }),
		(id: string) => ({
			external_id: id,
			ship_to: SHIP_TO,
			items: [{ print_file_id: fileId, width_in: 0, height_in: 10 }],
		}),
		(id: string) => ({
			external_id: id,
			ship_to: SHIP_TO,
			status: "shipped",
			items: [{ print_file_id: fileId, width_in: 8, height_in: 10 }],
		}),
		(id: string) => ({
			external_id: id,
			ship_to: { ...SHIP_TO, zip: "ABCDE" },
			items: [{ print_file_id: fileId, width_in: 8, height_in: 10 }],
		}),
	];
	const planned: Planned[] = [];
	const bodies: Array<{ externalId: string; body: string }> = [];
	for (let index = 0; index < CREATES; index++) {
		const roll = random();
		if (roll < 0.05) {
			const externalId = `LOAD-BAD-${index}`;
			const make = invalidBodies[index % invalidBodies.length];
			planned.push({ kind: "invalid", externalId, body: make === undefined ? "{" : JSON.stringify(make(externalId)) });
		} else if (roll < 0.15 && bodies.length > 0) {
			const earlier = bodies[Math.floor(random() * bodies.length)];
			if (earlier !== undefined) planned.push({ kind: "repeat", ...earlier });
		} else {
			const externalId = `LOAD-${index}`;
			const body = JSON.stringify({
				external_id: externalId,
				callback_url: callbackUrl,
				ship_to: SHIP_TO,
				items: [{ print_file_id: fileId, width_in: 8, height_in: 10, quantity: 1 + (index % 3) }],
			});
			bodies.push({ externalId, body });
			planned.push({ kind: "create", externalId, body });
		}
	}
	return planned;
}

const folder = await mkdtemp(path.join(tmpdir(), "fps-load-"));
const target: D1Target = { remote: false, persistTo: folder };
let server: DevServer | undefined;
let receiver: WebhookReceiver | undefined;
const violations: string[] = [];
try {
	await migrateFreshFolder(folder);
	const { partner, adminKey } = await createScenarioAccounts(target, "Load");
	server = await startDevServer({
		port: await freePort(),
		persistTo: folder,
		vars: { UPLOAD_SIGNING_SECRET: "load-upload-signing-secret-0123456789", ENVIRONMENT: "development" },
	});
	const origin = server.origin;
	const key = partner.keys.live.key;
	const json = { Authorization: `Bearer ${key}`, "Content-Type": "application/json" };
	await liftLimits(origin, adminKey, partner.account.id);
	const fileId = await uploadReadyFile(origin, json);
	receiver = await startWebhookReceiver();

	const planned = plan(fileId, receiver.url);
	const orderIdsByExternalId = new Map<string, Set<string>>();
	const created: string[] = [];
	let fiveHundreds = 0;
	let reads = 0;
	let next = 0;
	const started = performance.now();
	async function client(): Promise<void> {
		for (;;) {
			const item = planned[next++];
			if (item === undefined) return;
			const response = await fetch(`${origin}/v1/orders`, { method: "POST", headers: json, body: item.body });
			const body = (await response.json()) as {
				id?: string;
				error?: { type?: string; message?: string; request_id?: string };
			};
			if (response.status >= 500) fiveHundreds += 1;
			if (item.kind === "invalid") {
				if (
					response.status < 400 ||
					response.status >= 500 ||
					typeof body.error?.type !== "string" ||
					typeof body.error.request_id !== "string"
				) {
					violations.push(`invalid body for ${item.externalId} answered ${response.status}`);
				}
				continue;
			}
			if (response.status !== 201 && response.status !== 200) {
				violations.push(`${item.kind} ${item.externalId} answered ${response.status}: ${JSON.stringify(body)}`);
				continue;
			}
			if (typeof body.id !== "string") continue;
			const ids = orderIdsByExternalId.get(item.externalId) ?? new Set<string>();
			ids.add(body.id);
			orderIdsByExternalId.set(item.externalId, ids);
			if (response.status === 201) created.push(body.id);
			// Mixed in: a read of the order, and now and then a list.
			const read = await fetch(`${origin}/v1/orders/${body.id}`, { headers: json });
			reads += 1;
			if (read.status !== 200) violations.push(`order ${body.id} not readable: ${read.status}`);
			if (next % 10 === 0) {
				const list = await fetch(`${origin}/v1/orders?limit=5`, { headers: json });
				reads += 1;
				if (list.status !== 200) violations.push(`list answered ${list.status}`);
			}
		}
	}
	await Promise.all(Array.from({ length: CLIENTS }, () => client()));
	const seconds = (performance.now() - started) / 1000;

	for (const [externalId, ids] of orderIdsByExternalId) {
		if (ids.size !== 1) violations.push(`${externalId} answered with ${ids.size} different orders`);
	}
	const distinct = orderIdsByExternalId.size;
	if (created.length !== distinct)
		violations.push(`${created.length} creates answered 201 for ${distinct} distinct external ids`);
	const [stored] = await queryRows<{ orders: number; external_ids: number }>(
		`SELECT count(*) AS orders, count(DISTINCT external_id) AS external_ids FROM orders WHERE account_id = '${partner.account.id}'`,
		target,
	);
	if (stored?.orders !== distinct || stored.external_ids !== distinct) {
		violations.push(
			`database holds ${stored?.orders} orders for ${stored?.external_ids} external ids; expected ${distinct}`,
		);
	}
	if (fiveHundreds > 0) violations.push(`${fiveHundreds} responses were 5xx`);

	// Every event with a callback is delivered: each order's order.in_production, at least.
	const deadline = Date.now() + 180_000;
	let expectedEvents = 0;
	while (Date.now() < deadline) {
		const [pending] = await queryRows<{ sent: number; open: number }>(
			`SELECT count(*) AS sent, sum(status != 'delivered') AS open FROM deliveries WHERE account_id = '${partner.account.id}' AND url IS NOT NULL`,
			target,
		);
		expectedEvents = pending?.sent ?? 0;
		if (expectedEvents >= distinct && (pending?.open ?? 1) === 0 && receiver.arrivals.size >= expectedEvents) break;
		await new Promise((resolve) => setTimeout(resolve, 1000));
	}
	if (expectedEvents < distinct)
		violations.push(`only ${expectedEvents} webhook events recorded for ${distinct} orders`);
	if (receiver.arrivals.size < expectedEvents) {
		violations.push(`receiver got ${receiver.arrivals.size} of ${expectedEvents} events`);
	}
	const invalid = planned.filter((item) => item.kind === "invalid").length;
	const repeats = planned.filter((item) => item.kind === "repeat").length;
	console.log(
		`load: ${planned.length} creates (${repeats} repeats, ${invalid} invalid) + ${reads} reads from ${CLIENTS} clients in ${seconds.toFixed(1)} s ` +
			`(${(planned.length / seconds).toFixed(0)} creates/s); ${distinct} orders for ${distinct} external ids; ` +
			`${receiver.arrivals.size}/${expectedEvents} webhooks delivered; 5xx: ${fiveHundreds}; violations: ${violations.length}`,
	);
	for (const violation of violations.slice(0, 20)) console.error(`  violation: ${violation}`);
	if (violations.length > 0) process.exitCode = 1;
} finally {
	await receiver?.close();
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}
