/**
 * Finished orders leave D1 for their records in R2 and read back exactly as before: which orders go, what
 * the API, the partner console and statements answer before and after, and every step repeated or cut short.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ARCHIVE_EXCLUSIONS, archiveOrder } from "../../src/order-archive/run.ts";
import { orderRecordKey } from "../../src/orders/archive-record.ts";
import { recordOfHotOrder, slimArchivedOrder, writeOrderRecord } from "../../src/orders/archive-store.ts";
import { StaleOrder, writeMove } from "../../src/orders/move-store.ts";
import type { Order } from "../../src/orders/response.ts";
import { stateOf, withState } from "../../src/orders/rows.ts";
import { findOrder } from "../../src/orders/store.ts";
import {
	ageShipment,
	damagedBody,
	deliveredOrder,
	expectCode,
	postClaim,
	postClaimOk,
} from "../claims/claim-helpers.ts";
import { consoleRequest, signedInOperator } from "../console/console-helpers.ts";
import { api, createAdminKey, createPartner, send } from "../helpers.ts";
import {
	createOrder,
	orderBody,
	partnerWithFile,
	readyFile,
	SHIP_TO,
	settleValidation,
	TRACKING,
} from "../orders/order-helpers.ts";
import { signedInUser } from "../partner-console/console-client.ts";
import { answerOf, archivedAtOf, archiveRun, childRowsOf, recordTextOf, withoutRequestId } from "./archive-helpers.ts";

/** A partner's order taken to in_production. */
async function orderInProduction(made: { key: string; file: string }): Promise<Order> {
	const created = await createOrder(made.key, orderBody(made.file));
	return settleValidation(made.key, created.id);
}

/** A partner's order shipped in one shipment and delivered. */
async function deliveredOrderOf(made: { key: string; file: string; opsKey: string }): Promise<Order> {
	const order = await orderInProduction(made);
	const shipped = await send("POST", `/v1/ops/orders/${order.id}/shipments`, made.opsKey, { ...TRACKING });
	expect(shipped.status).toBe(201);
	const shipment = (await shipped.json()) as { id: string };
	const delivered = await api(`/v1/ops/shipments/${shipment.id}/deliver`, { method: "POST", key: made.opsKey });
	expect(delivered.status).toBe(200);
	return order;
}

describe("which orders the run archives", () => {
	it("a delivered or canceled order past the age leaves D1: a slim row stays, its items, shipments and moves go", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const delivered = await deliveredOrderOf(made);
		const canceled = await createOrder(made.key, orderBody(made.file));
		expect((await api(`/v1/orders/${canceled.id}/cancel`, { method: "POST", key: made.key })).status).toBe(200);
		await archiveRun(61);
		for (const order of [delivered, canceled]) {
			expect(await archivedAtOf(order.id)).not.toBeNull();
			expect(await childRowsOf(order.id)).toEqual({ items: 0, shipments: 0, moves: 0 });
			const text = await recordTextOf(order, made.partner.account.id);
			expect(JSON.parse(text ?? "null")).toMatchObject({
				format: "framed-print.order-archive.v1",
				order: { id: order.id },
			});
		}
	});

	it("a finished order younger than the age, or one not finished, stays hot", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const young = await deliveredOrderOf(made);
		const working = await orderInProduction(made);
		await archiveRun(30);
		expect(await archivedAtOf(young.id)).toBeNull();
		await archiveRun(61);
		expect(await archivedAtOf(working.id)).toBeNull();
		expect((await childRowsOf(working.id)).items).toBe(1);
	});

	it("an order with a claim, a charge to come, or a webhook delivery still pending stays hot", async () => {
		const claimed = await deliveredOrder();
		await postClaimOk(claimed.key, claimed.order.id, damagedBody(claimed.itemId, 1, [claimed.photo]));
		const made = await partnerWithFile({ opsKey: true });
		const charging = await deliveredOrderOf(made);
		await env.DB.prepare("UPDATE orders SET awaiting_charge = 1 WHERE id = ?1").bind(charging.id).run();
		const sending = await deliveredOrderOf(made);
		await env.DB.prepare(
			`INSERT INTO deliveries (id, event_id, endpoint_id, account_id, mode, url, status, attempts, created_at)
			 SELECT 'dlv_pending_' || id, id, NULL, account_id, mode, 'https://partner.example/hooks', 'pending', 1, created_at
			 FROM events WHERE order_id = ?1 LIMIT 1`,
		)
			.bind(sending.id)
			.run();
		await archiveRun(61);
		for (const id of [claimed.order.id, charging.id, sending.id]) expect(await archivedAtOf(id)).toBeNull();
	});
});

describe("reads of an archived order", () => {
	it("GET by id, by external id, list pages across hot and archived orders and the date filters answer exactly as before", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const orders = [await deliveredOrderOf(made), await deliveredOrderOf(made), await deliveredOrderOf(made)];
		const [first, second, third] = orders;
		if (first === undefined || second === undefined || third === undefined) throw new Error("three orders");
		const paths = [
			...orders.map((order) => `/v1/orders/${order.id}`),
			...orders.map((order) => `/v1/orders/by-external-id/${encodeURIComponent(order.external_id)}`),
			"/v1/orders",
			"/v1/orders?status=delivered&limit=2",
			`/v1/orders?created_after=${encodeURIComponent(first.created_at)}`,
			`/v1/orders?created_before=${encodeURIComponent(third.created_at)}&limit=1`,
		];
		const answers = async () => {
			const found = await Promise.all(paths.map((path) => answerOf(path, made.key)));
			// Every page of one at a time, following the cursors.
			let cursor: string | null = null;
			do {
				const query: string = cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`;
				const page = await answerOf(`/v1/orders?limit=1${query}`, made.key);
				found.push(page);
				cursor = (JSON.parse(page.body) as { next_cursor: string | null }).next_cursor;
			} while (cursor !== null);
			return found;
		};
		const before = await answers();
		const counts = await env.DB.prepare("SELECT * FROM order_counts ORDER BY mode, status").all();
		// The first and the last archived, the middle one hot: each page mixes them.
		expect(await archiveOrder(env.DB, env.PRINT_FILES, first.id, new Date())).toBe(true);
		expect(await archiveOrder(env.DB, env.PRINT_FILES, third.id, new Date())).toBe(true);
		expect(await archivedAtOf(second.id)).toBeNull();
		expect(await answers()).toEqual(before);
		expect(before.every((answer) => answer.status === 200)).toBe(true);
		expect((await env.DB.prepare("SELECT * FROM order_counts ORDER BY mode, status").all()).results).toEqual(
			counts.results,
		);
	});

	it("the partner console's order page and its search by date show an archived order as before", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		const user = await signedInUser("support", made.partner);
		const day = order.created_at.slice(0, 10);
		const pages = [`/partner/orders/${order.id}`, `/partner/orders?from=${day}&to=${day}`, "/partner/orders"];
		const html = async () => Promise.all(pages.map(async (path) => (await user.get(path)).text()));
		const before = await html();
		expect(await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date())).toBe(true);
		expect(await html()).toEqual(before);
		expect(before[1]).toContain(order.external_id);
	});

	it("the operators' console order page, its history included, shows an archived order as before", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		const operator = await signedInOperator();
		const page = async () => (await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie })).text();
		const before = await page();
		expect(before).toContain("Delivered");
		expect(await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date())).toBe(true);
		expect(await page()).toBe(before);
	});

	it("a create repeated with the archived order's external_id and body is the same replay as before", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const body = orderBody(made.file);
		const created = await createOrder(made.key, body);
		await settleValidation(made.key, created.id);
		const replay = async () => {
			const response = await send("POST", "/v1/orders", made.key, body);
			return {
				status: response.status,
				replayed: response.headers.get("Idempotent-Replayed"),
				body: await response.text(),
			};
		};
		const before = await replay();
		expect(before).toMatchObject({ status: 200, replayed: "true" });
		expect(await archiveOrder(env.DB, env.PRINT_FILES, created.id, new Date())).toBe(true);
		expect(await replay()).toEqual(before);
		const changed = await send("POST", "/v1/orders", made.key, { ...body, gift_message: "Another body" });
		expect(changed.status).toBe(409);
	});

	it("the sandbox's controls on an archived test order answer as before, and the test key reads it as before", async () => {
		const partner = await createPartner("Sandbox Gallery");
		const key = partner.keys.test.key;
		expect((await send("PUT", "/v1/sandbox/settings", key, { progress: "manual" })).status).toBe(200);
		const created = await createOrder(key, orderBody(await readyFile(key, 2400, 3000)));
		for (const action of ["validate", "start", "ship", "deliver"]) {
			const moved = await send("POST", `/v1/sandbox/orders/${created.id}/simulate`, key, { action });
			expect(moved.status, await moved.text()).toBe(200);
		}
		const answers = async () => {
			const simulated = await send("POST", `/v1/sandbox/orders/${created.id}/simulate`, key, { action: "ship" });
			const read = await answerOf(`/v1/orders/${created.id}`, key);
			return [simulated.status, withoutRequestId(await simulated.text()), read];
		};
		const before = await answers();
		expect(before[0]).toBe(409);
		expect(await archiveOrder(env.DB, env.PRINT_FILES, created.id, new Date())).toBe(true);
		expect(await answers()).toEqual(before);
	});

	it("another account's key and the other mode's key cannot read an archived order", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date());
		const stranger = await createPartner("Stranger Prints");
		await expectCode(
			await api(`/v1/orders/${order.id}`, { key: stranger.keys.live.key }),
			404,
			"not_found",
			"order_not_found",
		);
		await expectCode(
			await api(`/v1/orders/${order.id}`, { key: made.partner.keys.test.key }),
			404,
			"not_found",
			"order_not_found",
		);
	});

	it("a missing or unreadable record is a retryable order_archive_unavailable in the error envelope, never a bare crash", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date());
		const key = orderRecordKey({ id: order.id, account_id: made.partner.account.id, mode: "live" });
		await env.PRINT_FILES.put(key, "{not json");
		const unreadable = await api(`/v1/orders/${order.id}`, { key: made.key });
		await expectCode(unreadable.clone(), 503, "unavailable", "order_archive_unavailable");
		expect(unreadable.headers.get("Retry-After")).toBe("30");
		await env.PRINT_FILES.delete(key);
		await expectCode(await api("/v1/orders", { key: made.key }), 503, "unavailable", "order_archive_unavailable");
	});

	it("a statement is the same before and after its month's orders are archived", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		const month = order.created_at.slice(0, 7);
		const before = await answerOf(`/v1/statements/${month}`, made.key);
		expect(before.status).toBe(200);
		await archiveRun(61);
		expect(await archivedAtOf(order.id)).not.toBeNull();
		expect(await answerOf(`/v1/statements/${month}`, made.key)).toEqual(before);
	});
});

describe("each step repeated or cut short", () => {
	it("a second run archives nothing more and leaves the record's text as it was", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		await archiveRun(61);
		const text = await recordTextOf(order, made.partner.account.id);
		const answer = await answerOf(`/v1/orders/${order.id}`, made.key);
		await archiveRun(61);
		expect(await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date())).toBe(false);
		expect(await recordTextOf(order, made.partner.account.id)).toBe(text);
		expect(await answerOf(`/v1/orders/${order.id}`, made.key)).toEqual(answer);
	});

	it("a run cut between the record's put and the D1 batch leaves the order hot and read once; the next run finishes it", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		const before = await answerOf(`/v1/orders/${order.id}`, made.key);
		const record = await recordOfHotOrder(env.DB, env.PRINT_FILES, order.id);
		if (record === null) throw new Error("the order is hot");
		await writeOrderRecord(env.PRINT_FILES, record);
		const written = await recordTextOf(order, made.partner.account.id);
		expect(await archivedAtOf(order.id)).toBeNull();
		expect(await childRowsOf(order.id)).toMatchObject({ items: 1, shipments: 1 });
		expect(await answerOf(`/v1/orders/${order.id}`, made.key)).toEqual(before);
		await archiveRun(61);
		expect(await archivedAtOf(order.id)).not.toBeNull();
		expect(await recordTextOf(order, made.partner.account.id)).toBe(written);
		expect(await answerOf(`/v1/orders/${order.id}`, made.key)).toEqual(before);
	});

	it("an order of an account moving between databases is left hot for a later run, the others archived", async () => {
		const moving = await partnerWithFile({ opsKey: true });
		const staying = await partnerWithFile({ opsKey: true });
		const held = await deliveredOrderOf(moving);
		const other = await deliveredOrderOf(staying);
		const fenced = moving.partner.account.id;
		await env.DB.prepare("INSERT INTO account_fences (account_id, state, updated_at) VALUES (?1, 'frozen', ?2)")
			.bind(fenced, new Date().toISOString())
			.run();
		try {
			expect(await archiveOrder(env.DB, env.PRINT_FILES, held.id, new Date())).toBe(false);
			expect(await archiveOrder(env.DB, env.PRINT_FILES, other.id, new Date())).toBe(true);
			expect(await archivedAtOf(held.id)).toBeNull();
			const children = await childRowsOf(held.id);
			expect([children.items, children.shipments]).toEqual([1, 1]);
			expect(children.moves).toBeGreaterThan(0);
		} finally {
			await env.DB.prepare("DELETE FROM account_fences WHERE account_id = ?1").bind(fenced).run();
		}
		expect(await archiveOrder(env.DB, env.PRINT_FILES, held.id, new Date())).toBe(true);
		expect(await archivedAtOf(held.id)).not.toBeNull();
	});

	it("a move that commits between the record's read and the D1 batch wins: the batch changes nothing", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await orderInProduction(made);
		const record = await recordOfHotOrder(env.DB, env.PRINT_FILES, order.id);
		if (record === null) throw new Error("the order is hot");
		await writeOrderRecord(env.PRINT_FILES, record);
		expect((await send("POST", `/v1/ops/orders/${order.id}/shipments`, made.opsKey, { ...TRACKING })).status).toBe(201);
		expect(await slimArchivedOrder(env.DB, record, ARCHIVE_EXCLUSIONS, new Date())).toBe(false);
		expect(await archivedAtOf(order.id)).toBeNull();
		const after = (await (await api(`/v1/orders/${order.id}`, { key: made.key })).json()) as Order;
		expect(after.status).toBe("shipped");
		expect(after.shipments).toHaveLength(1);
	});

	it("a move read before the order was archived never writes to its slim row", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await orderInProduction(made);
		const stored = await findOrder(env.DB, order.id, env.PRINT_FILES);
		if (stored === null) throw new Error("the order exists");
		expect(await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date())).toBe(true);
		const held = withState(
			stored.order,
			{ ...stateOf(stored.order), status: "on_hold", holdReason: "operator_hold" },
			new Date(),
		);
		const step = {
			after: held,
			event: null,
			itemUpdates: [],
			made: { move: { kind: "start" as const }, actor: "operator" as const },
		};
		await expect(writeMove(env.DB, stored.order, [step], new Date())).rejects.toBeInstanceOf(StaleOrder);
		expect(await childRowsOf(order.id)).toEqual({ items: 0, shipments: 0, moves: 0 });
	});

	it("a move through the order's machine on an archived order brings it back first, and the move lands", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await orderInProduction(made);
		expect(await archiveOrder(env.DB, env.PRINT_FILES, order.id, new Date())).toBe(true);
		expect((await send("POST", `/v1/ops/orders/${order.id}/shipments`, made.opsKey, { ...TRACKING })).status).toBe(201);
		expect(await archivedAtOf(order.id)).toBeNull();
		const after = (await (await api(`/v1/orders/${order.id}`, { key: made.key })).json()) as Order;
		expect(after).toMatchObject({ status: "shipped", items: order.items });
		expect(await childRowsOf(order.id)).toMatchObject({ items: 1, shipments: 1 });
	});
});

describe("writes on an archived order", () => {
	it("a claim within the window brings the order back and is created", async () => {
		const { key, order, itemId, photo } = await deliveredOrder();
		const before = await answerOf(`/v1/orders/${order.id}`, key);
		await archiveRun(2, 1);
		expect(await archivedAtOf(order.id)).not.toBeNull();
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		expect(claim.items).toEqual([{ item_id: itemId, quantity: 1 }]);
		expect(await archivedAtOf(order.id)).toBeNull();
		expect((await childRowsOf(order.id)).items).toBe(1);
		expect(await answerOf(`/v1/orders/${order.id}`, key)).toEqual(before);
	});

	it("a claim past the window, a cancel and a change are refused exactly as before archiving", async () => {
		const { key, order, shipment, itemId, photo } = await deliveredOrder();
		await ageShipment(shipment.id, 40);
		const attempts = () => [
			postClaim(key, order.id, damagedBody(itemId, 1, [photo])),
			api(`/v1/orders/${order.id}/cancel`, { method: "POST", key }),
			send("PATCH", `/v1/orders/${order.id}`, key, { ship_to: { ...SHIP_TO, name: "Grace Hopper" } }),
		];
		const answers = async () =>
			Promise.all(
				attempts().map(async (answer) => {
					const response = await answer;
					return { status: response.status, body: withoutRequestId(await response.text()) };
				}),
			);
		const before = await answers();
		expect(before.map((answer) => answer.status).every((status) => status >= 400)).toBe(true);
		await archiveRun(61);
		expect(await archivedAtOf(order.id)).not.toBeNull();
		expect(await answers()).toEqual(before);
	});
});

describe("POST /v1/admin/order-archive/run", () => {
	it("runs a bounded batch at the operator's age and answers its counts", async () => {
		const made = await partnerWithFile({ opsKey: true });
		const order = await deliveredOrderOf(made);
		const admin = await createAdminKey();
		const young = await send("POST", "/v1/admin/order-archive/run", admin, { days: 30 });
		expect(young.status).toBe(200);
		expect(await archivedAtOf(order.id)).toBeNull();
		await env.DB.prepare("UPDATE orders SET delivered_at = '2020-01-01T00:00:00.000Z' WHERE id = ?1")
			.bind(order.id)
			.run();
		const run = await send("POST", "/v1/admin/order-archive/run", admin, { days: 30, limit: 100 });
		expect(run.status).toBe(200);
		expect(((await run.json()) as { archived: number }).archived).toBeGreaterThanOrEqual(1);
		expect(await archivedAtOf(order.id)).not.toBeNull();
		const bad = await send("POST", "/v1/admin/order-archive/run", admin, { days: 0 });
		expect(bad.status).toBe(422);
	});
});
