/**
 * The floor's start: `POST /v1/ops/orders/{id}/start` marks an order in production started, which ends
 * the partner's changes and cancel; the account's edit window is the least time the floor waits before
 * it; and a ship of an order no one started starts it in the same write.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { listOrderMoves } from "../../src/orders/history.ts";
import { api, expectError, ISO_UTC, send } from "../helpers.ts";
import {
	closeWindow,
	createOrder,
	eventTypes,
	opsMove,
	opsMoveOk,
	orderBody,
	partnerWithWindow,
	readOrder,
	SHIP_TO,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

/** An order of a new partner with a `minutes` edit window, validated: in production, not started. */
async function orderInProduction(minutes = 0) {
	const made = await partnerWithWindow(minutes);
	const order = await settleValidation(made.key, (await createOrder(made.key, orderBody(made.file))).id);
	expect(order.status).toBe("in_production");
	expect(order.production_started_at).toBeNull();
	return { ...made, order };
}

const NEW_RECIPIENT = { ...SHIP_TO, name: "Grace Hopper", address1: "7 Pier Road" };

describe("POST /v1/ops/orders/{id}/start", () => {
	it("records production_started_at at a new version, keeps the status and its time, tells no event, writes history", async () => {
		const { key, order, opsKey } = await orderInProduction();
		const before = await eventTypes(order.id);
		const started = await opsMoveOk(opsKey, order.id, "start");
		expect(started).toMatchObject({
			status: "in_production",
			version: order.version + 1,
			updated_at: order.updated_at,
		});
		expect(started.production_started_at).toMatch(ISO_UTC);
		expect(await readOrder(key, order.id)).toEqual(started);
		expect(await eventTypes(order.id)).toEqual(before);
		expect((await listOrderMoves(env.DB, order.id)).at(-1)).toMatchObject({
			version: started.version,
			move: "start",
			actor: "operator",
			from_status: "in_production",
			to_status: "in_production",
			note: null,
			created_at: started.production_started_at,
		});
	});

	it("is a 409 order_in_edit_window before editable_until, saying when; the floor starts it once the window has passed", async () => {
		const { order, opsKey } = await orderInProduction(30);
		const refused = await expectError(await opsMove(opsKey, order.id, "start"), "conflict");
		expect(refused.code).toBe("order_in_edit_window");
		expect(refused.message).toContain(order.editable_until ?? "?");
		await closeWindow(order.id);
		expect((await opsMoveOk(opsKey, order.id, "start")).production_started_at).toMatch(ISO_UTC);
	});

	it("a second start is a 409 order_move_refused saying when the floor started it", async () => {
		const { order, opsKey } = await orderInProduction();
		const started = await opsMoveOk(opsKey, order.id, "start");
		const again = await expectError(await opsMove(opsKey, order.id, "start"), "conflict");
		expect(again.code).toBe("order_move_refused");
		expect(again.message).toContain(`The floor started this order at ${started.production_started_at}`);
	});

	it("an order not in production is a 409, an unknown order a 404, and a partner key a 403", async () => {
		const made = await partnerWithWindow(0);
		const held = await settleValidation(
			made.key,
			(await createOrder(made.key, orderBody(made.file, {}, { frame: "no-such-frame" }))).id,
		);
		expect(held.status).toBe("on_hold");
		const refused = await expectError(await opsMove(made.opsKey, held.id, "start"), "conflict");
		expect(refused.code).toBe("order_move_refused");
		await expectError(await opsMove(made.opsKey, "ord_nope", "start"), "not_found", "id");
		await expectError(await opsMove(made.key, held.id, "start"), "forbidden");
	});
});

describe("the partner's changes end when the floor starts the order", () => {
	it("a PATCH is taken in production until the start, then refused with order_not_editable saying when", async () => {
		const { key, order, opsKey } = await orderInProduction();
		expect((await send("PATCH", `/v1/orders/${order.id}`, key, { ship_to: NEW_RECIPIENT })).status).toBe(200);
		const started = await opsMoveOk(opsKey, order.id, "start");
		const refused = await expectError(
			await send("PATCH", `/v1/orders/${order.id}`, key, { shipping_method: "express" }),
			"conflict",
		);
		expect(refused.code).toBe("order_not_editable");
		expect(refused.message).toContain(`the floor started it at ${started.production_started_at}`);
		// The metadata is the partner's own at any time.
		expect((await send("PATCH", `/v1/orders/${order.id}`, key, { metadata: { shelf: "B4" } })).status).toBe(200);
	});

	it("a cancel is the partner's until the start, then a 409 order_not_editable; the floor may still cancel", async () => {
		const { key, order, opsKey } = await orderInProduction();
		const started = await opsMoveOk(opsKey, order.id, "start");
		const refused = await expectError(await api(`/v1/orders/${order.id}/cancel`, { key, method: "POST" }), "conflict");
		expect(refused.code).toBe("order_not_editable");
		expect(refused.message).toBe(
			`The order can no longer be canceled: the floor started it at ${started.production_started_at}. (current status: in_production)`,
		);
		expect((await readOrder(key, order.id)).status).toBe("in_production");
		expect((await opsMoveOk(opsKey, order.id, "cancel")).status).toBe("canceled");
	});

	it("an item fix after the start is a 409 order_not_editable, and the order stays as it was", async () => {
		const { key, order, opsKey } = await orderInProduction();
		await opsMoveOk(opsKey, order.id, "start");
		const item = order.items[0]?.id ?? "";
		const refused = await expectError(
			await send("PATCH", `/v1/orders/${order.id}/items/${item}`, key, { mat: "antique-white" }),
			"conflict",
		);
		expect(refused.code).toBe("order_not_editable");
		expect(refused.message).toContain("the floor started it at");
		expect((await readOrder(key, order.id)).items[0]?.mat).toBe(order.items[0]?.mat);
	});

	it("a hold takes the order off the floor: unstarted again, the partner may change it, and the floor starts it anew", async () => {
		const { key, order, opsKey } = await orderInProduction();
		await opsMoveOk(opsKey, order.id, "start");
		const held = await opsMoveOk(opsKey, order.id, "hold", { message: "Paper jam; back tomorrow." });
		expect(held.production_started_at).toBeNull();
		await opsMoveOk(opsKey, order.id, "release");
		expect((await settleValidation(key, order.id)).production_started_at).toBeNull();
		expect((await send("PATCH", `/v1/orders/${order.id}`, key, { ship_to: NEW_RECIPIENT })).status).toBe(200);
		expect((await opsMoveOk(opsKey, order.id, "start")).production_started_at).toMatch(ISO_UTC);
	});
});

describe("a ship of an order no one started starts it in the same write", () => {
	it("the one-step ship: started at the shipping time, with a start in the history before the ship", async () => {
		const { key, order, opsKey } = await orderInProduction();
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		expect(shipped).toMatchObject({ status: "shipped", version: order.version + 2 });
		expect(shipped.production_started_at).toBe(shipped.shipped_at);
		const moves = (await listOrderMoves(env.DB, order.id)).slice(-2);
		expect(moves.map((row) => [row.move, row.actor, row.note])).toEqual([
			["start", "operator", "with its first shipment"],
			["ship", "operator", `${TRACKING.carrier} ${TRACKING.number}`],
		]);
		expect(await readOrder(key, order.id)).toEqual(shipped);
	});

	it("a shipment of some units: the order is started and stays in production", async () => {
		const { key, file, opsKey } = await partnerWithWindow(0);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file, {}, { quantity: 2 }))).id);
		const response = await opsMove(opsKey, order.id, "shipments", {
			...TRACKING,
			items: [{ item_id: order.items[0]?.id ?? "", quantity: 1 }],
		});
		expect(response.status).toBe(201);
		const after = await readOrder(key, order.id);
		expect(after).toMatchObject({ status: "in_production", updated_at: order.updated_at });
		expect(after.production_started_at).toMatch(ISO_UTC);
		expect((await listOrderMoves(env.DB, order.id)).slice(-2).map((row) => row.move)).toEqual([
			"start",
			"ship_partial",
		]);
	});

	it("a shipments import row ships and starts an order no one started", async () => {
		const { key, order, opsKey } = await orderInProduction();
		const csv = `order_id,carrier,tracking_number\r\n${order.id},UPS,1Z999AA10123456784`;
		const imported = await api("/v1/ops/shipments/import", {
			key: opsKey,
			method: "POST",
			headers: { "Content-Type": "text/csv" },
			body: csv,
		});
		expect(((await imported.json()) as { shipped: number }).shipped).toBe(1);
		const shipped = await readOrder(key, order.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.production_started_at).toBe(shipped.shipped_at);
	});
});
