/**
 * `npm run faults`: crash the server in the middle of a load and show nothing paid for is lost.
 *  1. A throwaway `wrangler dev` on loopback; orders name a webhook receiver that is down at first.
 *  2. 10 clients create orders (10% repeats); after 150 answers the server is killed with SIGKILL.
 *  3. It is started again on the same state; the clients resend what got no answer (as a partner
 *     would: same external_id, same body) and finish; the receiver comes up.
 *  4. The cron is triggered through the local scheduled endpoint until everything settles (the
 *     fault test shortens the stall and overdue thresholds to 5 s).
 * The account has a one-minute edit window: one order in twenty is canceled as soon as it is created
 * (before its release: nothing charged), the others are charged when their window ends (the order's
 * alarm or the cron's sweep), and one in twenty is canceled once charged (a cancellation credit).
 * Checks: every order that got a 201 is there, no external_id has two orders, every order is past
 * validation, every webhook event is delivered, and the ledger holds exactly one charge per released
 * order, one cancellation credit per canceled charged order and nothing else. One-line summary;
 * non-zero exit on a violation.
 */

import { once } from "node:events";
import { mkdtemp, rm } from "node:fs/promises";
import { createServer } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { type DevServer, freePort, startDevServer } from "./lib/dev-server.ts";
import { migrateFreshFolder } from "./lib/migrated-template.ts";
import { createScenarioAccounts, liftLimits, scenarioShipTo, uploadReadyFile } from "./lib/scenario.ts";
import { type D1Target, queryRows } from "./lib/wrangler.ts";

const CREATES = 400;
const CLIENTS = 10;
const KILL_AFTER = 150;
const SHIP_TO = scenarioShipTo("Fault Buyer");
/** The external ids (their number modulo 20) canceled before their release and after it. */
const CANCEL_EARLY = 3;
const CANCEL_CHARGED = 13;

/** SQLite's now, in the ISO form the service writes (`2026-11-24T08:01:02.345Z`), for comparing stored instants. */
const NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')";

/** The number in `FAULT-<n>`. */
function externalNumber(externalId: string): number {
	return Number(externalId.slice("FAULT-".length));
}

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
	await migrateFreshFolder(folder);
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
	await setEditWindow(origin, adminKey, partner.account.id, 1);
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
	let earlyCancels = 0;
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
					if (response.status === 201 && externalNumber(item.externalId) % 20 === CANCEL_EARLY)
						await cancelOnce(body.id);
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

	/** Cancels an order inside its edit window; a cancel lost in the crash leaves the order to be charged. */
	async function cancelOnce(id: string): Promise<void> {
		try {
			const response = await fetch(`${currentOrigin()}/v1/orders/${id}/cancel`, { method: "POST", headers: json });
			if (response.status >= 500) violations.push(`cancel of ${id} answered ${response.status}`);
			else if (response.status === 200) earlyCancels += 1;
		} catch {
			unanswered += 1;
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
	let settled = { orders: 0, unvalidated: 0, deliveries: 0, undelivered: 0, windowOpen: 0, uncharged: 0 };
	while (Date.now() < deadline) {
		await fetch(`${currentOrigin()}/cdn-cgi/local/scheduled`).catch(() => undefined);
		const [state] = await queryRows<typeof settled>(
			`SELECT (SELECT count(*) FROM orders WHERE account_id = '${partner.account.id}') AS orders,
			        (SELECT count(*) FROM orders WHERE account_id = '${partner.account.id}' AND status IN ('received', 'validating')) AS unvalidated,
			        (SELECT count(*) FROM deliveries WHERE account_id = '${partner.account.id}' AND url IS NOT NULL) AS deliveries,
			        (SELECT count(*) FROM deliveries WHERE account_id = '${partner.account.id}' AND url IS NOT NULL AND status != 'delivered') AS undelivered,
			        (SELECT count(*) FROM orders WHERE account_id = '${partner.account.id}' AND status != 'canceled' AND editable_until > ${NOW}) AS windowOpen,
			        (SELECT count(*) FROM orders o WHERE o.account_id = '${partner.account.id}' AND o.status IN ('in_production', 'shipped', 'delivered')
			           AND NOT EXISTS (SELECT 1 FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'charge')) AS uncharged`,
			target,
		);
		if (state !== undefined) settled = state;
		const webhooksDone = settled.deliveries >= settled.orders && settled.undelivered === 0;
		if (settled.unvalidated === 0 && webhooksDone && settled.windowOpen === 0 && settled.uncharged === 0) break;
		await new Promise((resolve) => setTimeout(resolve, 5000));
	}
	// Cancel one order in twenty now that it is charged: each gets its charge back, once.
	let chargedCancels = 0;
	for (const [externalId, ids] of answered) {
		const [id] = ids;
		if (id === undefined || externalNumber(externalId) % 20 !== CANCEL_CHARGED) continue;
		const response = await fetch(`${currentOrigin()}/v1/orders/${id}/cancel`, { method: "POST", headers: json });
		if (response.status === 200) chargedCancels += 1;
		else violations.push(`cancel of charged order ${id} answered ${response.status}`);
	}
	const ledger = await checkLedger(partner.account.id, target, violations);
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
			`ledger: ${earlyCancels} canceled before release, ${chargedCancels} after; ${ledger.released} orders released, ${ledger.charges} charges, ` +
			`${ledger.canceledCharged} canceled charged orders, ${ledger.credits} cancellation credits, ${ledger.others} other entries; ` +
			`${seconds.toFixed(0)} s; violations: ${violations.length}`,
	);
	for (const violation of violations.slice(0, 20)) console.error(`  violation: ${violation}`);
	if (violations.length > 0) process.exitCode = 1;
} finally {
	if (receiverUp) await new Promise<void>((resolve) => receiver.close(() => resolve()));
	await server?.stop();
	await rm(folder, { recursive: true, force: true });
}

/** Sets the account's edit window through the admin route, so its orders are charged when the window ends. */
async function setEditWindow(origin: string, adminKey: string, accountId: string, minutes: number): Promise<void> {
	const response = await fetch(`${origin}/v1/admin/accounts/${accountId}/settings`, {
		method: "PUT",
		headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
		body: JSON.stringify({ edit_window_minutes: minutes }),
	});
	if (response.status !== 200) throw new Error(`settings failed: ${response.status} ${await response.text()}`);
}

type LedgerOrder = {
	id: string;
	status: string;
	released: number;
	total: number | null;
	charges: number;
	charged_cents: number;
	credits: number;
	credited_cents: number;
	others: number;
};

/**
 * Reads each order's ledger entries from the local D1 and checks them against the order: a released order
 * (in production past its window, shipped, delivered, or canceled after it reached production past its
 * window) has exactly one charge of its total; a canceled charged order exactly one credit of minus that
 * charge; nothing else, and no entry of an order the account does not hold.
 */
async function checkLedger(accountId: string, target: D1Target, violations: string[]) {
	const orders = await queryRows<LedgerOrder>(
		`SELECT o.id, o.status, json_extract(o.costs, '$.total') AS total,
		        CASE WHEN o.status IN ('in_production', 'shipped', 'delivered') THEN (o.editable_until IS NULL OR o.editable_until <= ${NOW})
		             WHEN o.status = 'canceled' THEN EXISTS (SELECT 1 FROM order_moves m WHERE m.order_id = o.id AND m.to_status = 'in_production')
		                  AND (o.editable_until IS NULL OR o.editable_until <= o.canceled_at)
		             ELSE 0 END AS released,
		        (SELECT count(*) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'charge') AS charges,
		        (SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'charge') AS charged_cents,
		        (SELECT count(*) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'cancellation_credit') AS credits,
		        (SELECT coalesce(sum(amount_cents), 0) FROM ledger_entries l WHERE l.order_id = o.id AND l.type = 'cancellation_credit') AS credited_cents,
		        (SELECT count(*) FROM ledger_entries l WHERE l.order_id = o.id AND l.type NOT IN ('charge', 'cancellation_credit')) AS others
		   FROM orders o WHERE o.account_id = '${accountId}'`,
		target,
	);
	const [stray] = await queryRows<{ count: number }>(
		`SELECT count(*) AS count FROM ledger_entries l
		  WHERE l.account_id = '${accountId}' AND (l.order_id IS NULL OR NOT EXISTS (SELECT 1 FROM orders o WHERE o.id = l.order_id AND o.account_id = l.account_id))`,
		target,
	);
	const sum = { released: 0, charges: 0, canceledCharged: 0, credits: 0, others: stray?.count ?? 0 };
	if (sum.others > 0) violations.push(`${sum.others} ledger entries name no order of the account`);
	for (const order of orders) {
		const released = order.released === 1;
		sum.released += released ? 1 : 0;
		sum.charges += order.charges;
		sum.credits += order.credits;
		sum.others += order.others;
		if (released && order.charges !== 1) violations.push(`released order ${order.id} has ${order.charges} charges`);
		if (!released && order.charges > 0)
			violations.push(`order ${order.id}, never released, has ${order.charges} charges`);
		if (order.charges === 1 && order.charged_cents !== order.total)
			violations.push(`order ${order.id} charged ${order.charged_cents} for a total of ${order.total}`);
		const owesCredit = order.status === "canceled" && order.charges > 0;
		sum.canceledCharged += owesCredit ? 1 : 0;
		if (owesCredit && order.credits !== 1)
			violations.push(`canceled charged order ${order.id} has ${order.credits} credits`);
		if (!owesCredit && order.credits > 0) violations.push(`order ${order.id} has a credit it is not owed`);
		if (owesCredit && order.credits === 1 && order.credited_cents !== -order.charged_cents)
			violations.push(`order ${order.id} credited ${order.credited_cents} for a charge of ${order.charged_cents}`);
		if (order.others > 0)
			violations.push(`order ${order.id} has ${order.others} entries other than its charge and credit`);
	}
	return sum;
}
