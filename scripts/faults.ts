/**
 * `npm run faults`: crash the server in the middle of a load and show nothing paid for is lost.
 *  1. A throwaway `wrangler dev` on loopback; orders name a webhook receiver that is down at first.
 *  2. 10 clients create orders (10% repeats); after 150 answers the server is killed with SIGKILL.
 *  3. It is started again on the same state; the clients resend what got no answer (as a partner
 *     would: same external_id, same body) and finish; the receiver comes up.
 *  4. The cron is triggered through the local scheduled endpoint until everything settles (the
 *     fault test shortens the stall and overdue thresholds to 5 s).
 * Checks: every order that got a 201 is there, no external_id has two orders, every order is past
 * validation, and every webhook event is delivered. One-line summary; non-zero exit on a violation.
 */

import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { createScenarioAccounts, liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { applyMigrations, type D1Target, queryRows } from "./lib/wrangler.ts";

const CREATES = 400;
const CLIENTS = 10;
const KILL_AFTER = 150;
const SHIP_TO = scenarioShipTo("Fault Buyer");

const folder = await mkdtemp(path.join(tmpdir(), "fps-faults-"));
const target: D1Target = { remote: false, persistTo: folder };
const violations: string[] = [];
let server: DevServer | undefined;
const receiver = createServer((request, response) => {
	request.resume();
	request.on("end", () => response.writeHead(200).end("ok"));
});
let receiverUp = false;
let received = 0;
receiver.on("request", () => {
	received += 1;
});
try {
	await applyMigrations(target);
	const { partner, adminKey } = await createScenarioAccounts(target, "Fault");
	const port = await freePort();
	const receiverPort = await freePort();
	const vars = {
		UPLOAD_SIGNING_SECRET: "fault-upload-signing-secret-0123456789",
		ENVIRONMENT: "development",
		STALLED_ORDER_SECONDS: "5",
		WEBHOOK_SWEEP_OVERDUE_SECONDS: "5",
	};
	server = await startDevServer({ port, persistTo: folder, vars });
	const origin = server.origin;
	const json = { Authorization: `Bearer ${partner.keys.live.key}`, "Content-Type": "application/json" };
	await liftLimits(origin, adminKey, partner.account.id);
	const fileId = await uploadReadyFile(origin, json);

	const bodies = Array.from({ length: CREATES }, (_, index) => {
		// Every tenth request repeats the one before it: a partner's retry.
		const id = index % 10 === 9 ? index - 1 : index;
		return {
			externalId: `FAULT-${id}`,
			body: JSON.stringify({
				external_id: `FAULT-${id}`,
				callback_url: `http://127.0.0.1:${receiverPort}/hooks`,
				ship_to: SHIP_TO,
				items: [{ print_file_id: fileId, width_in: 8, height_in: 10 }],
			}),
		};
	});
	const answered = new Map<string, Set<string>>();
	const got201: string[] = [];
	let answers = 0;
	let unanswered = 0;
	let killing: Promise<void> | null = null;
	let next = 0;
	const currentOrigin = () => server?.origin ?? origin;

	/** Sends one create until it gets an answer: after the crash the same request is sent again. */
	async function send(item: { externalId: string; body: string }): Promise<void> {
		for (;;) {
			try {
				const response = await fetch(`${currentOrigin()}/v1/orders`, {
					method: "POST",
					headers: json,
					body: item.body,
				});
				const body = (await response.json()) as { id?: string };
				if (response.status >= 500) violations.push(`${item.externalId} answered ${response.status}`);
				if (typeof body.id === "string") {
					const ids = answered.get(item.externalId) ?? new Set<string>();
					ids.add(body.id);
					answered.set(item.externalId, ids);
					if (response.status === 201) got201.push(body.id);
				}
				answers += 1;
				if (answers === KILL_AFTER && killing === null) killing = restart();
				return;
			} catch {
				unanswered += 1;
				await (killing ?? new Promise((resolve) => setTimeout(resolve, 200)));
			}
		}
	}

	async function restart(): Promise<void> {
		await server?.kill();
		server = await startDevServer({ port, persistTo: folder, vars });
		receiver.listen(receiverPort, "127.0.0.1");
		await once(receiver, "listening");
		receiverUp = true;
	}

	const started = performance.now();
	await Promise.all(
		Array.from({ length: CLIENTS }, async () => {
			for (;;) {
				const item = bodies[next++];
				if (item === undefined) return;
				await send(item);
			}
		}),
	);
	if (killing !== null) await killing;
	if (!receiverUp) violations.push("the server was never killed");

	// Let the cron finish what the crash interrupted.
	const distinct = answered.size;
	const deadline = Date.now() + 240_000;
	let settled = { orders: 0, unvalidated: 0, deliveries: 0, undelivered: 0 };
	while (Date.now() < deadline) {
		await fetch(`${currentOrigin()}/cdn-cgi/local/scheduled`).catch(() => undefined);
		const [state] = await queryRows<typeof settled>(
			`SELECT (SELECT count(*) FROM orders WHERE account_id = '${partner.account.id}') AS orders,
			        (SELECT count(*) FROM orders WHERE account_id = '${partner.account.id}' AND status IN ('received', 'validating')) AS unvalidated,
			        (SELECT count(*) FROM deliveries WHERE account_id = '${partner.account.id}' AND url IS NOT NULL) AS deliveries,
			        (SELECT count(*) FROM deliveries WHERE account_id = '${partner.account.id}' AND url IS NOT NULL AND status != 'delivered') AS undelivered`,
			target,
		);
		if (state !== undefined) settled = state;
		if (settled.unvalidated === 0 && settled.deliveries >= settled.orders && settled.undelivered === 0) break;
		await new Promise((resolve) => setTimeout(resolve, 5000));
	}
	const seconds = (performance.now() - started) / 1000;

	for (const [externalId, ids] of answered)
		if (ids.size !== 1) violations.push(`${externalId} answered with ${ids.size} orders`);
	for (const id of got201) {
		const read = await fetch(`${currentOrigin()}/v1/orders/${id}`, { headers: json });
		if (read.status !== 200) violations.push(`order ${id} answered 201 but reads ${read.status}`);
	}
	if (settled.orders !== distinct)
		violations.push(`database holds ${settled.orders} orders for ${distinct} external ids`);
	if (settled.unvalidated > 0) violations.push(`${settled.unvalidated} orders still unvalidated`);
	if (settled.undelivered > 0 || settled.deliveries < settled.orders) {
		violations.push(`${settled.undelivered} of ${settled.deliveries} webhook deliveries not delivered`);
	}
	console.log(
		`faults: ${CREATES} creates from ${CLIENTS} clients, server SIGKILLed after ${KILL_AFTER} answers and restarted; ` +
			`${unanswered} requests lost in the crash and resent; ${distinct} external ids, ${settled.orders} orders, ${got201.length} answered 201; ` +
			`receiver down until the restart, then ${settled.deliveries - settled.undelivered}/${settled.deliveries} deliveries delivered (${received} requests received); ` +
			`${seconds.toFixed(0)} s; violations: ${violations.length}`,
	);
	for (const violation of violations.slice(0, 20)) console.error(`  violation: ${violation}`);
	if (violations.length > 0) process.exitCode = 1;
} finally {
	if (receiverUp) await new Promise<void>((resolve) => receiver.close(() => resolve()));
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}
