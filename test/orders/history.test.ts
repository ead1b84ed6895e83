import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listOrderMoves, type OrderMoveRow } from "../../src/orders/history.ts";
import { StaleOrder, writeMove } from "../../src/orders/move-store.ts";
import { stateOf, withState } from "../../src/orders/rows.ts";
import { api, createKeyWithScopes, createPartner, ISO_UTC, send } from "../helpers.ts";
import {
	createOrder,
	insertReceivedOrder,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	readOrder,
	readyFile,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

const HOLD_MESSAGE = "The moulding arrived cracked; waiting for a new length.";

/** What a history row says, without its order id and time. */
type MoveSummary = Pick<OrderMoveRow, "version" | "move" | "actor" | "from_status" | "to_status" | "note">;

function summaries(rows: OrderMoveRow[]): MoveSummary[] {
	return rows.map(({ version, move, actor, from_status, to_status, note }) => ({
		version,
		move,
		actor,
		from_status,
		to_status,
		note,
	}));
}

/** The order's version as stored. */
async function storedVersion(orderId: string): Promise<number> {
	const row = await env.DB.prepare("SELECT version FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ version: number }>();
	if (row === null) throw new Error(`no order ${orderId}`);
	return row.version;
}

const CREATED: MoveSummary = {
	version: 1,
	move: "create",
	actor: "partner",
	from_status: null,
	to_status: "received",
	note: null,
};

describe("listOrderMoves: an order's history of moves", () => {
	it("starts with the creation: version 1, by the partner, to received, at the order's created_at", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		// Read before the machine can have moved it: the create's own row is written with the order.
		const [first] = await listOrderMoves(env.DB, order.id);
		expect(first).toEqual({ ...CREATED, order_id: order.id, created_at: order.created_at });
	});

	it("lists create → validation → in_production → operator hold → release → in_production → start (by the ship) → ship → deliver in version order", async () => {
		const { key, file } = await partnerWithFile();
		const opsKey = await createKeyWithScopes(["ops"]);
		const created = await createOrder(key, orderBody(file));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		expect((await opsMoveOk(opsKey, created.id, "hold", { message: HOLD_MESSAGE })).status).toBe("on_hold");
		expect((await opsMoveOk(opsKey, created.id, "release")).status).toBe("validating");
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		expect((await opsMoveOk(opsKey, created.id, "ship", TRACKING)).status).toBe("shipped");
		const delivered = await opsMoveOk(opsKey, created.id, "deliver");
		expect(delivered.status).toBe("delivered");

		const history = await listOrderMoves(env.DB, created.id);
		expect(summaries(history)).toEqual([
			CREATED,
			{
				version: 2,
				move: "start_validation",
				actor: "system",
				from_status: "received",
				to_status: "validating",
				note: null,
			},
			{
				version: 3,
				move: "pass_validation",
				actor: "system",
				from_status: "validating",
				to_status: "in_production",
				note: null,
			},
			{
				version: 4,
				move: "hold",
				actor: "operator",
				from_status: "in_production",
				to_status: "on_hold",
				note: HOLD_MESSAGE,
			},
			{ version: 5, move: "release", actor: "operator", from_status: "on_hold", to_status: "validating", note: null },
			{
				version: 6,
				move: "pass_validation",
				actor: "system",
				from_status: "validating",
				to_status: "in_production",
				note: null,
			},
			// No one started the order: its ship starts it in the same write, on the record.
			{
				version: 7,
				move: "start",
				actor: "operator",
				from_status: "in_production",
				to_status: "in_production",
				note: "with its first shipment",
			},
			{
				version: 8,
				move: "ship",
				actor: "operator",
				from_status: "in_production",
				to_status: "shipped",
				note: "UPS 1Z999AA10123456784",
			},
			{ version: 9, move: "deliver", actor: "operator", from_status: "shipped", to_status: "delivered", note: null },
		]);
		// One row per version, the last one the order's current version, each move at its own time, in order.
		expect(await storedVersion(created.id)).toBe(9);
		for (const row of history) {
			expect(row.order_id).toBe(created.id);
			expect(row.created_at).toMatch(ISO_UTC);
		}
		const times = history.map((row) => row.created_at);
		expect([...times].sort()).toEqual(times);
		expect(history.at(-1)?.created_at).toBe(delivered.updated_at);
		expect(history.find((row) => row.move === "ship")?.created_at).toBe(delivered.shipped_at);
	});

	it("records a failed validation with its hold reason, the partner's fix and the partner's cancel", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }));
		const held = await settleValidation(key, created.id);
		expect(held.hold_reason).toBe("frame_not_found");
		const itemId = held.items[0]?.id ?? "";
		const fixed = await send("PATCH", `/v1/orders/${created.id}/items/${itemId}`, key, { frame: "walnut-flat-075" });
		expect(fixed.status).toBe(200);
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		const canceled = await api(`/v1/orders/${created.id}/cancel`, { method: "POST", key });
		expect(canceled.status).toBe(200);

		expect(summaries(await listOrderMoves(env.DB, created.id))).toEqual([
			CREATED,
			{
				version: 2,
				move: "start_validation",
				actor: "system",
				from_status: "received",
				to_status: "validating",
				note: null,
			},
			{
				version: 3,
				move: "fail_validation",
				actor: "system",
				from_status: "validating",
				to_status: "on_hold",
				note: "frame_not_found",
			},
			{ version: 4, move: "fix_items", actor: "partner", from_status: "on_hold", to_status: "validating", note: null },
			{
				version: 5,
				move: "pass_validation",
				actor: "system",
				from_status: "validating",
				to_status: "in_production",
				note: null,
			},
			{ version: 6, move: "cancel", actor: "partner", from_status: "in_production", to_status: "canceled", note: null },
		]);
	});

	it("records an operator's cancel as the operator's", async () => {
		const { key, file } = await partnerWithFile();
		const opsKey = await createKeyWithScopes(["ops"]);
		const created = await createOrder(key, orderBody(file));
		await settleValidation(key, created.id);
		await opsMoveOk(opsKey, created.id, "cancel");
		const last = (await listOrderMoves(env.DB, created.id)).at(-1);
		expect(last).toMatchObject({
			move: "cancel",
			actor: "operator",
			from_status: "in_production",
			to_status: "canceled",
		});
	});

	it("records the sandbox's own start, shipping and delivery of a test order as the system's", async () => {
		const partner = await createPartner();
		const testKey = partner.keys.test.key;
		const created = await createOrder(testKey, orderBody(await readyFile(testKey, 2400, 3000)));
		// Each advance moves it one step (validation, production, shipping, delivery) however far its alarms got.
		for (let step = 0; step < 5 && (await readOrder(testKey, created.id)).status !== "delivered"; step++) {
			const advanced = await api(`/v1/sandbox/orders/${created.id}/advance`, { method: "POST", key: testKey });
			expect(advanced.status).toBe(200);
		}
		const shipped = await readOrder(testKey, created.id);
		const history = summaries(await listOrderMoves(env.DB, created.id));
		expect(shipped.status).toBe("delivered");
		// Started by its alarm, or by the advance's ship: the system's start either way, before the ship.
		expect(history.at(-3)).toMatchObject({
			version: 4,
			move: "start",
			actor: "system",
			from_status: "in_production",
			to_status: "in_production",
		});
		expect(history.slice(-2)).toEqual([
			{
				version: 5,
				move: "ship",
				actor: "system",
				from_status: "in_production",
				to_status: "shipped",
				note: `${shipped.tracking?.carrier} ${shipped.tracking?.number}`,
			},
			{ version: 6, move: "deliver", actor: "system", from_status: "shipped", to_status: "delivered", note: null },
		]);
	});

	it("an idempotent replay and a conflicting repeat of the create add no row", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		const created = await createOrder(key, body);
		await settleValidation(key, created.id);
		const before = await listOrderMoves(env.DB, created.id);
		expect((await send("POST", "/v1/orders", key, body)).status).toBe(200);
		expect((await send("POST", "/v1/orders", key, { ...body, gift_message: "Changed my mind" })).status).toBe(409);
		expect(await listOrderMoves(env.DB, created.id)).toEqual(before);
		expect(before.filter((row) => row.move === "create")).toHaveLength(1);
	});

	it("a refused move (ship from on_hold) writes no row", async () => {
		const { key, file } = await partnerWithFile();
		const opsKey = await createKeyWithScopes(["ops"]);
		const created = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }));
		await settleValidation(key, created.id);
		const before = await listOrderMoves(env.DB, created.id);
		const refused = await send("POST", `/v1/ops/orders/${created.id}/ship`, opsKey, TRACKING);
		expect(refused.status).toBe(409);
		expect(await listOrderMoves(env.DB, created.id)).toEqual(before);
	});

	it("is written in the move's batch: a stale write (the version moved on) adds no row, a current one adds one", async () => {
		const now = new Date();
		const order = await insertReceivedOrder("HIST");
		const validating = withState(order, { ...stateOf(order), status: "validating" }, now);
		await writeMove(
			env.DB,
			order,
			[
				{
					after: validating,
					event: null,
					itemUpdates: [],
					made: { move: { kind: "start_validation" }, actor: "system" },
				},
			],
			now,
		);

		// A second writer that read the order at version 1 and wants to cancel it.
		const stale = withState(order, { ...stateOf(order), status: "canceled", canceledAt: now.toISOString() }, now);
		await expect(
			writeMove(
				env.DB,
				order,
				[
					{
						after: stale,
						event: "order.canceled",
						itemUpdates: [],
						made: { move: { kind: "cancel" }, actor: "partner" },
					},
				],
				now,
			),
		).rejects.toBeInstanceOf(StaleOrder);

		expect(summaries(await listOrderMoves(env.DB, order.id))).toEqual([
			CREATED,
			{
				version: 2,
				move: "start_validation",
				actor: "system",
				from_status: "received",
				to_status: "validating",
				note: null,
			},
		]);
		const events = await env.DB.prepare("SELECT type FROM events WHERE order_id = ?1")
			.bind(order.id)
			.all<{ type: string }>();
		expect(events.results.map((row) => row.type)).toEqual(["order.received"]);
	});

	it("is empty for an unknown order, and one order's moves never appear in another's", async () => {
		expect(await listOrderMoves(env.DB, "ord_doesnotexist")).toEqual([]);
		const { key, file } = await partnerWithFile();
		const first = await createOrder(key, orderBody(file));
		const second = await createOrder(key, orderBody(file));
		await settleValidation(key, first.id);
		for (const row of await listOrderMoves(env.DB, second.id)) expect(row.order_id).toBe(second.id);
		for (const row of await listOrderMoves(env.DB, first.id)) expect(row.order_id).toBe(first.id);
	});
});
