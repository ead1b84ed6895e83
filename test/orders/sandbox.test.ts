import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, expectError, ISO_UTC } from "../helpers.ts";
import { waitFor } from "../polling.ts";
import { partnerFileServer } from "../print-files/file-hosting.ts";
import {
	createOrder,
	eventBody,
	eventTypes,
	insertRawOrder,
	readOrder,
	runOrderAlarm,
	settleValidation,
	urlItem,
	urlOrderBody,
} from "./order-helpers.ts";

const { sharpFileUrl } = partnerFileServer("sandbox");

/**
 * Waits for validation's verdict by reading the order, without running alarms: validation's alarm
 * fires at once by itself, and running an alarm by hand while it does could run the sandbox's next
 * step early.
 */
function awaitVerdict(key: string, orderId: string): Promise<Order> {
	return waitFor(
		() => readOrder(key, orderId),
		(order) => order.status !== "received" && order.status !== "validating",
		{ intervalMs: 10, failure: () => `order ${orderId} never left validation` },
	);
}

/** POST /v1/sandbox/orders/{id}/advance. */
function advance(key: string, orderId: string): Promise<Response> {
	return api(`/v1/sandbox/orders/${orderId}/advance`, { method: "POST", key });
}

/** An advance that must succeed: the order after the step. */
async function advanceOk(key: string, orderId: string): Promise<Order> {
	const response = await advance(key, orderId);
	if (response.status !== 200)
		throw new Error(`advance: expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Order;
}

/** Checks the sandbox's shipping: a tracking number nobody could take for a real one. */
function expectSandboxTracking(order: Order): void {
	expect(order.tracking).toEqual({
		carrier: "Sandbox Parcel Co.",
		number: expect.stringMatching(/^SANDBOX-[A-Z0-9]{12}$/),
		url: expect.stringMatching(/^https:\/\/sandbox\.invalid\/track\/SANDBOX-/),
	});
	expect(order.shipped_at).toMatch(ISO_UTC);
}

/** A test-mode order written straight to D1 as `received`, its Durable Object never woken (so no alarm). */
async function insertReceivedTestOrder(accountId: string): Promise<string> {
	return (await insertRawOrder({ accountId, mode: "test" }, "received", await sharpFileUrl())).id;
}

describe("a test-mode order", () => {
	it("reaches delivered by itself through its alarms: in_production, started, shipped with fake tracking, delivered", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"));
		expect(created.mode).toBe("test");

		const inProduction = await awaitVerdict(key, created.id);
		expect(inProduction.status).toBe("in_production");
		expect(inProduction.tracking).toBeNull();
		expect(inProduction.production_started_at).toBeNull();

		// Each later step waits for its alarm (a delay away), and running the alarm takes it. The sandbox
		// starts the order as the floor would, then ships it a step later.
		expect(await runOrderAlarm(created.id)).toBe(true);
		const started = await readOrder(key, created.id);
		expect(started.status).toBe("in_production");
		expect(started.production_started_at).toMatch(ISO_UTC);
		expect(started.updated_at).toBe(inProduction.updated_at);

		expect(await runOrderAlarm(created.id)).toBe(true);
		const shipped = await readOrder(key, created.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.production_started_at).toBe(started.production_started_at);
		expectSandboxTracking(shipped);

		expect(await runOrderAlarm(created.id)).toBe(true);
		const delivered = await readOrder(key, created.id);
		expect(delivered.status).toBe("delivered");
		expect(delivered.delivered_at).toMatch(ISO_UTC);
		expect(delivered.tracking).toEqual(shipped.tracking);

		// Delivered is the end: no alarm is left.
		expect(await runOrderAlarm(created.id)).toBe(false);
		expect((await readOrder(key, created.id)).status).toBe("delivered");

		expect(await eventTypes(created.id)).toEqual([
			"order.received",
			"order.in_production",
			"shipment.created",
			"order.shipped",
			"shipment.delivered",
			"order.delivered",
		]);
		expect(await eventBody(created.id, "order.shipped")).toMatchObject({
			status: "shipped",
			tracking: shipped.tracking,
			shipped_at: shipped.shipped_at,
		});
		expect(await eventBody(created.id, "order.delivered")).toMatchObject({
			status: "delivered",
			delivered_at: delivered.delivered_at,
		});
	});

	it("that fails validation stays on_hold: its alarms do not move it", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX", { frame: "no-such-frame" }));
		const held = await awaitVerdict(key, created.id);
		expect(held.status).toBe("on_hold");
		expect(held.hold_reason).toBe("frame_not_found");
		await runOrderAlarm(created.id);
		expect((await readOrder(key, created.id)).status).toBe("on_hold");
	});
});

describe("POST /v1/sandbox/orders/{id}/advance", () => {
	it("steps a received order through validation (once), shipping and delivery, one step per call", async () => {
		const partner = await createPartner();
		const key = partner.keys.test.key;
		const orderId = await insertReceivedTestOrder(partner.account.id);

		const validated = await advanceOk(key, orderId);
		expect(validated.status).toBe("in_production");
		expect(validated.items[0]?.effective_dpi).toBe(300);
		const fileId = validated.items[0]?.print_file_id;
		expect(fileId).toMatch(/^pf_/);

		const shipped = await advanceOk(key, orderId);
		expect(shipped.status).toBe("shipped");
		expectSandboxTracking(shipped);

		const delivered = await advanceOk(key, orderId);
		expect(delivered.status).toBe("delivered");
		expect(delivered.delivered_at).toMatch(ISO_UTC);
		expect(await readOrder(key, orderId)).toEqual(delivered);

		expect(await eventTypes(orderId)).toEqual([
			"order.received",
			"order.in_production",
			"shipment.created",
			"order.shipped",
			"shipment.delivered",
			"order.delivered",
		]);
		// The item's file was fetched once: validation ran once, not also from an alarm alongside the advance.
		const fetched = await env.DB.prepare("SELECT id FROM print_files WHERE account_id = ?1")
			.bind(partner.account.id)
			.all<{ id: string }>();
		expect(fetched.results.map((row) => row.id)).toEqual([fileId]);
	});

	it("steps an order created through the API from in_production to shipped to delivered", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"));
		expect((await awaitVerdict(key, created.id)).status).toBe("in_production");
		const shipped = await advanceOk(key, created.id);
		expect(shipped.status).toBe("shipped");
		// The advance ships at once, and the ship starts the order no one started.
		expect(shipped.production_started_at).toBe(shipped.shipped_at);
		expect((await advanceOk(key, created.id)).status).toBe("delivered");
		// The alarm the shipping step had set is gone or harmless.
		await runOrderAlarm(created.id);
		expect((await readOrder(key, created.id)).status).toBe("delivered");
		expect((await eventTypes(created.id)).filter((type) => type === "order.delivered")).toHaveLength(1);
	});

	it("ships a test order as one shipment per framed unit and one for the unframed prints, then delivers them all", async () => {
		const key = (await createPartner()).keys.test.key;
		const url = await sharpFileUrl();
		const created = await createOrder(key, {
			...urlOrderBody(url, "SBX", { frame: "walnut-flat-075", quantity: 2 }),
			items: [urlItem(url, { frame: "walnut-flat-075", quantity: 2 }), urlItem(url, { quantity: 3 })],
		});
		expect((await awaitVerdict(key, created.id)).status).toBe("in_production");
		const [framed, prints] = created.items.map((item) => item.id);
		const shipped = await advanceOk(key, created.id);
		expect(shipped.status).toBe("shipped");
		expect(shipped.shipments.map((shipment) => shipment.items)).toEqual([
			[{ item_id: framed, quantity: 1 }],
			[{ item_id: framed, quantity: 1 }],
			[{ item_id: prints, quantity: 3 }],
		]);
		expect(shipped.shipments.map((shipment) => shipment.packages.length)).toEqual([1, 1, 1]);
		expect(new Set(shipped.shipments.map((shipment) => shipment.tracking.number)).size).toBe(3);
		expect(shipped.tracking).toEqual(shipped.shipments[0]?.tracking);
		const delivered = await advanceOk(key, created.id);
		expect(delivered.shipments.every((shipment) => shipment.status === "delivered")).toBe(true);
		expect(delivered.fulfillment).toEqual({ units: 5, shipped_units: 5, delivered_units: 5 });
		expect((await eventTypes(created.id)).slice(2)).toEqual([
			"shipment.created",
			"shipment.created",
			"shipment.created",
			"order.shipped",
			"shipment.delivered",
			"shipment.delivered",
			"shipment.delivered",
			"order.delivered",
		]);
	});

	it("is a 409 naming on_hold for an order on hold", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(
			key,
			urlOrderBody(await sharpFileUrl(), "SBX", { frame: "walnut-flat-075", mat: "no-such-mat" }),
		);
		expect((await awaitVerdict(key, created.id)).status).toBe("on_hold");
		const error = await expectError(await advance(key, created.id), "conflict");
		expect(error.message).toContain("on_hold");
		expect((await readOrder(key, created.id)).status).toBe("on_hold");
	});

	it("is a 409 naming delivered for a delivered order", async () => {
		const key = (await createPartner()).keys.test.key;
		const orderId = (await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"))).id;
		expect((await awaitVerdict(key, orderId)).status).toBe("in_production");
		for (const status of ["shipped", "delivered"]) {
			expect((await advanceOk(key, orderId)).status).toBe(status);
		}
		const error = await expectError(await advance(key, orderId), "conflict");
		expect(error.message).toContain("delivered");
	});

	it("is a 409 naming canceled for a canceled order", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"));
		expect((await api(`/v1/orders/${created.id}/cancel`, { method: "POST", key })).status).toBe(200);
		const error = await expectError(await advance(key, created.id), "conflict");
		expect(error.message).toContain("canceled");
	});

	it("is a 403 for a live key", async () => {
		const partner = await createPartner();
		const live = await createOrder(partner.keys.live.key, urlOrderBody(await sharpFileUrl(), "SBX"));
		await expectError(await advance(partner.keys.live.key, live.id), "forbidden");
		// A test key does not see the live order at all.
		await expectError(await advance(partner.keys.test.key, live.id), "not_found", "id");
	});

	it("is a 404 for another account's test order", async () => {
		const key = (await createPartner()).keys.test.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"));
		const strangerKey = (await createPartner("Other Gallery")).keys.test.key;
		await expectError(await advance(strangerKey, created.id), "not_found", "id");
	});
});

describe("a live-mode order", () => {
	it("never ships by itself: running its alarm leaves it in_production", async () => {
		const key = (await createPartner()).keys.live.key;
		const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "SBX"));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		// No sandbox step is scheduled for a live order...
		expect(await runOrderAlarm(created.id)).toBe(false);
		// ...and even an alarm that does fire does not move it.
		const machine = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(created.id));
		await runInDurableObject(machine, (_instance, state) => state.storage.setAlarm(Date.now() + 60_000));
		expect(await runOrderAlarm(created.id)).toBe(true);
		const after = await readOrder(key, created.id);
		expect(after.status).toBe("in_production");
		expect(after.tracking).toBeNull();
		expect(await eventTypes(created.id)).toEqual(["order.received", "order.in_production"]);
	});
});
