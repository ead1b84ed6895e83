import { runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listOrderMoves } from "../../src/orders/history.ts";
import { orderMachine } from "../../src/orders/machine.ts";
import { type MoveStep, StaleOrder, writeMove } from "../../src/orders/move-store.ts";
import { type OrderRow, stateOf, withState } from "../../src/orders/rows.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { createOrder, insertReceivedOrder, orderBody, partnerWithFile, rawOrder, readOrder } from "./order-helpers.ts";

/** Validation started and passed, as the machine writes them for an order of uploaded files. */
function startAndPass(order: OrderRow, now: Date): MoveStep[] {
	const validating = withState(order, { ...stateOf(order), status: "validating" }, now);
	const inProduction = withState(validating, { ...stateOf(validating), status: "in_production" }, now);
	return [
		{ after: validating, event: null, itemUpdates: [], made: { move: { kind: "start_validation" }, actor: "system" } },
		{
			after: inProduction,
			event: "order.in_production",
			itemUpdates: [],
			made: { move: { kind: "pass_validation" }, actor: "system" },
		},
	];
}

async function storedRow(orderId: string): Promise<{ status: string; version: number }> {
	const row = await env.DB.prepare("SELECT status, version FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ status: string; version: number }>();
	if (row === null) throw new Error(`no order ${orderId}`);
	return row;
}

async function eventTypes(orderId: string): Promise<string[]> {
	const { results } = await env.DB.prepare("SELECT type FROM events WHERE order_id = ?1 ORDER BY created_at, rowid")
		.bind(orderId)
		.all<{ type: string }>();
	return results.map((row) => row.type);
}

/** Reads the order until it leaves received and validating (the create's own machine call validates it). */
async function settledByItself(key: string, orderId: string): Promise<string> {
	for (let attempt = 0; attempt < 100; attempt++) {
		const { status } = await readOrder(key, orderId);
		if (status !== "received" && status !== "validating") return status;
		await new Promise((resolve) => setTimeout(resolve, 20));
	}
	return (await readOrder(key, orderId)).status;
}

/** What the order's machine keeps in its own storage: the order id and alarm it set, if any. */
function machineStorage(orderId: string): Promise<{ orderId: unknown; alarm: number | null }> {
	return runInDurableObject(orderMachine(env, orderId), async (_machine, state) => ({
		orderId: await state.storage.get("order_id"),
		alarm: await state.storage.getAlarm(),
	}));
}

describe("validation written in one batch", () => {
	it("two moves in one write: validation's start and verdict both get their version, history row and event", async () => {
		const order = await insertReceivedOrder("ONE");
		const { eventId } = await writeMove(env.DB, order, startAndPass(order, new Date()), new Date());

		expect(await storedRow(order.id)).toEqual({ status: "in_production", version: 3 });
		const moves = await listOrderMoves(env.DB, order.id);
		expect(
			moves.map(({ version, move, from_status, to_status }) => ({ version, move, from_status, to_status })),
		).toEqual([
			{ version: 1, move: "create", from_status: null, to_status: "received" },
			{ version: 2, move: "start_validation", from_status: "received", to_status: "validating" },
			{ version: 3, move: "pass_validation", from_status: "validating", to_status: "in_production" },
		]);
		expect(await eventTypes(order.id)).toEqual(["order.received", "order.in_production"]);
		const event = await env.DB.prepare("SELECT type FROM events WHERE id = ?1").bind(eventId).first<{ type: string }>();
		expect(event?.type).toBe("order.in_production");
	});

	it("two moves from a version that moved on write nothing at all: no step, no history row, no event", async () => {
		const order = await insertReceivedOrder("ONE", "https://hooks.example.com/orders");
		const canceled = withState(
			order,
			{ ...stateOf(order), status: "canceled", canceledAt: new Date().toISOString() },
			new Date(),
		);
		await writeMove(
			env.DB,
			order,
			[
				{
					after: canceled,
					event: "order.canceled",
					itemUpdates: [],
					made: { move: { kind: "cancel" }, actor: "partner" },
				},
			],
			new Date(),
		);

		await expect(writeMove(env.DB, order, startAndPass(order, new Date()), new Date())).rejects.toBeInstanceOf(
			StaleOrder,
		);
		expect(await storedRow(order.id)).toEqual({ status: "canceled", version: 2 });
		expect((await listOrderMoves(env.DB, order.id)).map((row) => row.move)).toEqual(["create", "cancel"]);
		expect(await eventTypes(order.id)).toEqual(["order.received", "order.canceled"]);
		const deliveries = await env.DB.prepare(
			"SELECT COUNT(*) AS n FROM deliveries JOIN events ON events.id = deliveries.event_id WHERE events.order_id = ?1 AND events.type = 'order.in_production'",
		)
			.bind(order.id)
			.first<{ n: number }>();
		expect(deliveries?.n).toBe(0);
	});

	it("an order of uploaded files is validated by its create's machine call: in_production, no alarm and nothing stored", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));

		expect(await settledByItself(key, order.id)).toBe("in_production");
		expect(await machineStorage(order.id)).toEqual({ orderId: undefined, alarm: null });
		const moves = await listOrderMoves(env.DB, order.id);
		expect(moves.map((row) => row.move)).toEqual(["create", "start_validation", "pass_validation"]);
		// One write: the start and the verdict carry the same time.
		expect(moves[1]?.created_at).toBe(moves[2]?.created_at);
	});

	it("an order whose file is fetched from a URL is validated from its machine's alarm, which stays its retry", async () => {
		const { key } = await partnerWithFile();
		const body = orderBody("unused");
		const order = await createOrder(key, {
			...body,
			items: [{ ...body.items[0], print_file_id: undefined, print_file_url: "https://files.example.com/print.png" }],
		});

		// The tests' outside world answers 502 for that host: the fetch fails and the order is held.
		expect(await settledByItself(key, order.id)).toBe("on_hold");
		expect((await machineStorage(order.id)).orderId).toBe(order.id);
	});

	it("a first validation that fails hands the order to the alarm, whose retry validates it", async () => {
		const { partner, file } = await partnerWithFile();
		const raw = rawOrder({ accountId: partner.account.id, mode: "live" }, "received", "unused");
		const [item] = raw.items;
		if (item === undefined) throw new Error("no item");
		// Unpriced on an order with a method: validation prices it, which reads the price book from D1.
		const order = { ...raw.order, shipping_method: "standard" as const };
		const items = [{ ...item, print_file_url: null, print_file_id: file }];
		await insertOrder(env.DB, order, items, new Date());
		const checked = await findPrintFileById(env.DB, file);
		if (checked === null) throw new Error("no file row");

		const machine = orderMachine(env, order.id);
		await runInDurableObject(machine, async (instance, state) => {
			// D1 refuses the machine's first batch (the price book's read), as an outage would.
			const fields = instance as unknown as { env: Env };
			const real = fields.env;
			let refused = false;
			const flaky = new Proxy(real.DB, {
				get(target, property) {
					if (property === "batch" && !refused) {
						refused = true;
						return () => Promise.reject(new Error("D1 is unavailable"));
					}
					const value: unknown = Reflect.get(target, property);
					return typeof value === "function" ? value.bind(target) : value;
				},
			});
			fields.env = { ...real, DB: flaky };
			try {
				await instance.begin(order.id, { order: { order, items, shipments: [] }, files: [checked] });
			} finally {
				fields.env = real;
			}
			expect(refused).toBe(true);
			expect(await state.storage.get("order_id")).toBe(order.id);
			expect(await state.storage.getAlarm()).not.toBeNull();
		});
		// The alarm was set for now: it runs by itself (or here, should it not have yet), reads the order
		// back from D1 and validates it.
		await runDurableObjectAlarm(machine);
		for (let attempt = 0; attempt < 50 && (await storedRow(order.id)).status === "received"; attempt++) {
			await new Promise((resolve) => setTimeout(resolve, 20));
		}
		expect(await storedRow(order.id)).toEqual({ status: "in_production", version: 3 });
	});
});
