/** `PATCH /v1/orders/{id}` and `GET /v1/orders/{id}/actions`: what a partner may still change, and until when. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import type { Quote } from "../../src/quotes/schema.ts";
import { api, expectError, send } from "../helpers.ts";
import { BERLIN, quote } from "../quotes/quote-helpers.ts";
import {
	closeWindow,
	createOrder,
	eventsOf,
	insertRawOrder,
	opsMove,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	partnerWithWindow,
	readOrder,
	SHIP_TO,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

type UpdatedOrder = Order & {
	costs_changed: { shipping: { from: number; to: number }; total: { from: number; to: number } } | null;
};
type Availability = { available: boolean; until: string | null; reason: string | null };
type Actions = Record<
	"cancel" | "update_recipient" | "update_shipping_method" | "update_items" | "update_metadata" | "claim",
	Availability
>;

/** The item every order here carries, and the same piece as a quote takes it. */
const PIECE = { width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" };

function patch(key: string, id: string, body: unknown): Promise<Response> {
	return send("PATCH", `/v1/orders/${id}`, key, body);
}

async function patchOk(key: string, id: string, body: unknown): Promise<UpdatedOrder> {
	const response = await patch(key, id, body);
	if (response.status !== 200) throw new Error(`expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as UpdatedOrder;
}

async function actionsOf(key: string, id: string): Promise<Actions> {
	const response = await api(`/v1/orders/${id}/actions`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Actions;
}

/** An order of a new partner, validated: in production, within a `minutes` edit window. */
async function orderInProduction(minutes = 60, overrides: Record<string, unknown> = {}) {
	const made = await partnerWithWindow(minutes);
	const created = await createOrder(made.key, orderBody(made.file, overrides));
	const order = await settleValidation(made.key, created.id);
	expect(order.status).toBe("in_production");
	return { ...made, order };
}

const NEW_RECIPIENT = { ...SHIP_TO, name: "Grace Hopper", address1: "7 Pier Road" };

describe("PATCH /v1/orders/{id}: the recipient", () => {
	it("changes ship_to within the edit window: version grows, the costs stay, the warnings are computed again", async () => {
		const { key, order } = await orderInProduction();
		const longLine = { ...NEW_RECIPIENT, address1: "1234 Extraordinarily Long Avenue Name Building" };
		const updated = await patchOk(key, order.id, { ship_to: longLine });
		expect(updated.ship_to).toEqual(longLine);
		expect(updated.version).toBe(order.version + 1);
		expect(updated.costs).toEqual(order.costs);
		expect(updated.costs_changed).toBeNull();
		expect(updated.ship_to_warnings.map((warning) => warning.field)).toContain("ship_to.address1");
		expect(await readOrder(key, order.id)).toMatchObject({ ship_to: longLine, version: order.version + 1 });
	});

	it("records order.updated with each change from and to and the costs, in the same write", async () => {
		const { key, order } = await orderInProduction();
		await patchOk(key, order.id, { ship_to: NEW_RECIPIENT });
		const updated = (await eventsOf(order.id)).filter((event) => event.type === "order.updated");
		expect(updated).toHaveLength(1);
		expect(updated[0]?.body).toMatchObject({
			event: "order.updated",
			version: order.version + 1,
			changes: [{ field: "ship_to", from: order.ship_to, to: NEW_RECIPIENT }],
			costs: order.costs,
		});
	});

	it("refuses a new ship_to as creation would, with a 422 on ship_to.<field>", async () => {
		const { key, order } = await orderInProduction();
		await expectError(
			await patch(key, order.id, { ship_to: { ...NEW_RECIPIENT, country: "XX" } }),
			"validation_error",
			"ship_to.country",
		);
		await expectError(
			await patch(key, order.id, { ship_to: { ...NEW_RECIPIENT, zip: "not a zip" } }),
			"validation_error",
			"ship_to.zip",
		);
		expect((await readOrder(key, order.id)).version).toBe(order.version);
	});

	it("a recipient in a country the order's method does not go to is a 422 on shipping_method", async () => {
		const { key, order } = await orderInProduction(60, { shipping_method: "budget" });
		const error = await expectError(
			await patch(key, order.id, { ship_to: BERLIN }),
			"validation_error",
			"shipping_method",
		);
		expect(error.code).toBe("shipping_method_not_offered");
		expect((await readOrder(key, order.id)).ship_to).toEqual(order.ship_to);
	});

	it("is taken in production right after create, with no edit window, until the floor starts the order", async () => {
		const { key, order } = await orderInProduction(0);
		expect(order.production_started_at).toBeNull();
		const changed = await patchOk(key, order.id, { ship_to: NEW_RECIPIENT });
		expect(changed).toMatchObject({ ship_to: NEW_RECIPIENT, status: "in_production", version: order.version + 1 });
	});

	it("is a 409 once the floor started the order, saying when it started", async () => {
		const { key, order, opsKey } = await orderInProduction(0);
		const started = await opsMoveOk(opsKey, order.id, "start");
		const error = await expectError(await patch(key, order.id, { ship_to: NEW_RECIPIENT }), "conflict");
		expect(error.code).toBe("order_not_editable");
		expect(error.message).toBe(
			`The order's recipient can no longer change: the floor started it at ${started.production_started_at}. (current status: in_production)`,
		);
		expect((await readOrder(key, order.id)).ship_to).toEqual(order.ship_to);
	});

	it("is allowed on an order on hold, whatever the window", async () => {
		const { key, file } = await partnerWithWindow(0);
		const held = await settleValidation(
			key,
			(await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }))).id,
		);
		expect(held.status).toBe("on_hold");
		expect((await patchOk(key, held.id, { ship_to: NEW_RECIPIENT })).ship_to).toEqual(NEW_RECIPIENT);
	});
});

describe("PATCH /v1/orders/{id}: the shipping method", () => {
	it("prices shipping again in exact cents from the order's price book; the items keep their prices", async () => {
		const { key, order } = await orderInProduction();
		const quoted: Quote = await quote(key, { ship_to: SHIP_TO, items: [PIECE] });
		const express = quoted.shipping_options.find((option) => option.method === "express");
		if (express === undefined || order.costs === null) throw new Error("express not quoted, or the order unpriced");
		const updated = await patchOk(key, order.id, { shipping_method: "express" });
		expect(updated.shipping_method).toBe("express");
		expect(updated.costs).toEqual({
			...order.costs,
			shipping: express.cost,
			total: order.costs.items + express.cost,
		});
		expect(updated.costs_changed).toEqual({
			shipping: { from: order.costs.shipping, to: express.cost },
			total: { from: order.costs.total, to: order.costs.items + express.cost },
		});
		expect(updated.items.map((item) => item.line_total)).toEqual(order.items.map((item) => item.line_total));
	});

	it("an order charged by a quote keeps quote_id for a new street, and loses it for a new method", async () => {
		const made = await partnerWithWindow(60);
		const quoted = await quote(made.key, { ship_to: SHIP_TO, items: [PIECE] });
		const created = await createOrder(made.key, orderBody(made.file, { quote_id: quoted.id }));
		const order = await settleValidation(made.key, created.id);
		expect(order.costs?.quote_id).toBe(quoted.id);
		const street = await patchOk(made.key, order.id, { ship_to: NEW_RECIPIENT });
		expect(street.costs?.quote_id).toBe(quoted.id);
		const method = await patchOk(made.key, order.id, { shipping_method: "express" });
		expect(method.costs?.quote_id).toBeNull();
		expect(method.costs?.items).toBe(quoted.totals.items);
	});

	it("a method not offered for the order's items and destination is a 422 on shipping_method", async () => {
		const { key, order } = await orderInProduction(60, { ship_to: BERLIN, shipping_method: "standard" });
		await expectError(await patch(key, order.id, { shipping_method: "budget" }), "validation_error", "shipping_method");
	});
});

describe("PATCH /v1/orders/{id}: metadata, no-ops and what may not be set", () => {
	it("changes metadata on a shipped order; the recipient of a shipped order is a 409 saying since when", async () => {
		const { key, order, opsKey } = await orderInProduction(0);
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		const updated = await patchOk(key, order.id, { metadata: { shop_order_ref: "SO-1" } });
		expect(updated.metadata).toEqual({ shop_order_ref: "SO-1" });
		expect(updated.version).toBe(shipped.version + 1);
		expect(updated.status).toBe("shipped");
		const error = await expectError(await patch(key, order.id, { ship_to: NEW_RECIPIENT }), "conflict");
		expect(error.message).toContain(shipped.shipped_at ?? "");
	});

	it("an unpriced order takes a metadata change, even once shipped", async () => {
		const { partner, key } = await partnerWithFile();
		const unpriced = await insertRawOrder(
			{ accountId: partner.account.id, mode: "live" },
			"in_production",
			"https://files.example/a.png",
		);
		await env.DB.prepare("UPDATE orders SET status = 'shipped', shipped_at = ?2 WHERE id = ?1")
			.bind(unpriced.id, new Date().toISOString())
			.run();
		const updated = await patchOk(key, unpriced.id, { metadata: { note: "kept" } });
		expect(updated).toMatchObject({ shipping_method: "standard", costs: null, metadata: { note: "kept" } });
	});

	it("an empty PATCH, or one that sets what is already there, answers the order unchanged and records no event", async () => {
		const { key, order } = await orderInProduction(0);
		const before = (await eventsOf(order.id)).length;
		for (const body of [{}, { ship_to: order.ship_to, shipping_method: order.shipping_method }, { metadata: {} }]) {
			const same = await patchOk(key, order.id, body);
			expect(same.version).toBe(order.version);
			expect(same.costs_changed).toBeNull();
		}
		expect((await eventsOf(order.id)).length).toBe(before);
	});

	it("a field it may not set is a 422 naming it", async () => {
		const { key, order } = await orderInProduction();
		for (const field of ["status", "items", "id", "external_id", "costs", "editable_until", "callback_url"]) {
			await expectError(await patch(key, order.id, { [field]: "x" }), "validation_error", field);
		}
	});

	it("another account's order, or the other mode's, is a 404", async () => {
		const { order, partner } = await orderInProduction();
		const other = await partnerWithFile();
		await expectError(await patch(other.key, order.id, { metadata: { a: "b" } }), "not_found", "id");
		await expectError(await patch(partner.keys.test.key, order.id, { metadata: { a: "b" } }), "not_found", "id");
		await expectError(await api(`/v1/orders/${order.id}/actions`, { key: other.key }), "not_found", "id");
	});

	it("huge or hostile bodies get a clear 4xx, never a 500", async () => {
		const { key, order } = await orderInProduction();
		const bodies: unknown[] = [
			[],
			"ship_to",
			null,
			{ ship_to: "x" },
			{ ship_to: { ...NEW_RECIPIENT, name: "x".repeat(100_000) } },
			{ metadata: Object.fromEntries(Array.from({ length: 21 }, (_, index) => [`k${index}`, "v"])) },
			{ metadata: { "bad key!": "v" } },
			{ shipping_method: "teleport" },
			{ ship_to: { ...NEW_RECIPIENT, name: "line\nbreak" } },
		];
		for (const body of bodies) {
			const response = await patch(key, order.id, body);
			expect(response.status, JSON.stringify(body).slice(0, 80)).toBeLessThan(500);
		}
		const huge = await api(`/v1/orders/${order.id}`, {
			key,
			method: "PATCH",
			headers: { "Content-Type": "application/json" },
			body: `{"metadata":{"a":"${"x".repeat(2 * 1024 * 1024)}"}}`,
		});
		await expectError(huge, "bad_request");
		const prototype = await api(`/v1/orders/${order.id}`, {
			key,
			method: "PATCH",
			headers: { "Content-Type": "application/json" },
			body: '{"__proto__":{"status":"shipped"}}',
		});
		expect(prototype.status).toBeLessThan(500);
		expect(await readOrder(key, order.id)).toMatchObject({ version: order.version, status: "in_production" });
	});
});

describe("PATCH /v1/orders/{id} racing other moves", () => {
	it("racing a cancel: either the change applies before the cancel, or it is a 409; nothing half-applied", async () => {
		for (let round = 0; round < 3; round++) {
			const { key, order } = await orderInProduction();
			const [patched, canceled] = await Promise.all([
				patch(key, order.id, { ship_to: NEW_RECIPIENT, shipping_method: "express" }),
				api(`/v1/orders/${order.id}/cancel`, { key, method: "POST" }),
			]);
			expect(canceled.status).toBe(200);
			const after = await readOrder(key, order.id);
			expect(after.status).toBe("canceled");
			if (patched.status === 200) {
				expect(after).toMatchObject({ ship_to: NEW_RECIPIENT, shipping_method: "express", version: order.version + 2 });
			} else {
				expect(patched.status).toBe(409);
				expect(after).toMatchObject({ ship_to: order.ship_to, shipping_method: order.shipping_method });
				expect(after.version).toBe(order.version + 1);
			}
		}
	});

	it("racing a ship of an unstarted order: the change lands before the ship, or is a 409; nothing half-applied", async () => {
		const { key, order, opsKey } = await orderInProduction();
		await closeWindow(order.id);
		const [patched, shipped] = await Promise.all([
			patch(key, order.id, { ship_to: NEW_RECIPIENT }),
			opsMove(opsKey, order.id, "ship", TRACKING),
		]);
		expect(shipped.status).toBe(200);
		const after = await readOrder(key, order.id);
		expect(after.status).toBe("shipped");
		if (patched.status === 200) {
			expect(after.ship_to).toEqual(NEW_RECIPIENT);
		} else {
			await expectError(patched, "conflict");
			expect(after.ship_to).toEqual(order.ship_to);
		}
	});

	it("concurrent metadata changes are taken one at a time: every key lands, the version grows by each", async () => {
		const { key, order } = await orderInProduction();
		const responses = await Promise.all(
			Array.from({ length: 8 }, (_, index) => patch(key, order.id, { metadata: { [`k${index}`]: `v${index}` } })),
		);
		expect(responses.map((response) => response.status)).toEqual(Array(8).fill(200));
		const after = await readOrder(key, order.id);
		expect(Object.keys(after.metadata).sort()).toEqual(Array.from({ length: 8 }, (_, index) => `k${index}`).sort());
		expect(after.version).toBe(order.version + 8);
	});
});

describe("GET /v1/orders/{id}/actions", () => {
	it("in production, not started: every change and cancel open, with no fixed end (the floor's start ends them)", async () => {
		const { key, order } = await orderInProduction(30);
		expect(await actionsOf(key, order.id)).toEqual({
			cancel: { available: true, until: null, reason: null },
			update_recipient: { available: true, until: null, reason: null },
			update_shipping_method: { available: true, until: null, reason: null },
			update_items: { available: true, until: null, reason: null },
			update_metadata: { available: true, until: null, reason: null },
			claim: {
				available: false,
				until: null,
				reason: "Nothing has shipped yet: units are claimed once they ship.",
			},
		});
	});

	it("in production once started: only metadata; the others say the floor started it, as the PATCH's 409 does", async () => {
		const { key, order, opsKey } = await orderInProduction(0);
		const started = await opsMoveOk(opsKey, order.id, "start");
		const actions = await actionsOf(key, order.id);
		expect(actions.update_metadata.available).toBe(true);
		for (const name of ["cancel", "update_recipient", "update_shipping_method", "update_items"] as const) {
			expect(actions[name].available).toBe(false);
			expect(actions[name].reason).toContain(`the floor started it at ${started.production_started_at}`);
		}
		const refused = await expectError(await patch(key, order.id, { ship_to: NEW_RECIPIENT }), "conflict");
		expect(refused.message).toContain(actions.update_recipient.reason ?? "?");
	});

	it("on hold: the recipient, the method and the items with no fixed end", async () => {
		const { key, file } = await partnerWithWindow(0);
		const held = await settleValidation(
			key,
			(await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }))).id,
		);
		const actions = await actionsOf(key, held.id);
		for (const name of ["update_recipient", "update_shipping_method", "update_items", "cancel"] as const) {
			expect(actions[name]).toEqual({ available: true, until: null, reason: null });
		}
	});

	it("shipped: only metadata; cancel and changes say it shipped and when", async () => {
		const { key, order, opsKey } = await orderInProduction(0);
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		const actions = await actionsOf(key, order.id);
		expect(actions.update_metadata.available).toBe(true);
		for (const name of ["update_recipient", "update_shipping_method", "update_items", "cancel"] as const) {
			expect(actions[name].available).toBe(false);
			expect(actions[name].reason).not.toBeNull();
		}
		expect(actions.update_recipient.reason).toContain(shipped.shipped_at ?? "?");
	});

	it("canceled: only metadata", async () => {
		const { key, order } = await orderInProduction(0);
		await api(`/v1/orders/${order.id}/cancel`, { key, method: "POST" });
		const actions = await actionsOf(key, order.id);
		expect(
			Object.entries(actions)
				.filter(([, action]) => action.available)
				.map(([name]) => name),
		).toEqual(["update_metadata"]);
		expect(actions.update_recipient.reason).toContain("canceled");
	});
});

describe("PATCH /v1/orders/{id}/items/{item_id} until the floor starts the order", () => {
	it("fixes an item of an order in production within its window: validated again, order.updated names the item's change", async () => {
		const { key, order } = await orderInProduction(30);
		const item = order.items[0]?.id ?? "";
		const response = await send("PATCH", `/v1/orders/${order.id}/items/${item}`, key, { mat: "antique-white" });
		expect(response.status).toBe(200);
		expect(((await response.json()) as Order).status).toBe("validating");
		const settled = await settleValidation(key, order.id);
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.mat).toBe("antique-white");
		const updated = (await eventsOf(order.id)).filter((event) => event.type === "order.updated");
		expect(updated.map((event) => event.body.changes)).toEqual([
			[{ field: "items", from: { item_id: item, mat: "bright-white" }, to: { item_id: item, mat: "antique-white" } }],
		]);
	});

	it("fixes an item of an order in production with no window, the floor not having started it", async () => {
		const { key, order } = await orderInProduction(0);
		const item = order.items[0]?.id ?? "";
		const response = await send("PATCH", `/v1/orders/${order.id}/items/${item}`, key, { mat: "antique-white" });
		expect(response.status).toBe(200);
		expect(((await response.json()) as Order).status).toBe("validating");
	});

	it("is a 409 once the floor started the order, as the actions say", async () => {
		const { key, order, opsKey } = await orderInProduction(0);
		await opsMoveOk(opsKey, order.id, "start");
		const item = order.items[0]?.id ?? "";
		const error = await expectError(
			await send("PATCH", `/v1/orders/${order.id}/items/${item}`, key, { mat: "antique-white" }),
			"conflict",
		);
		expect(error.code).toBe("order_not_editable");
		expect(error.message).toContain((await actionsOf(key, order.id)).update_items.reason ?? "?");
	});

	it("the order's machine itself refuses an item fix in production once the floor started it", async () => {
		const { order, opsKey } = await orderInProduction(30);
		await closeWindow(order.id);
		await opsMoveOk(opsKey, order.id, "start");
		const machine = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(order.id));
		const outcome = await machine.move(order.id, { kind: "fix_items" }, "partner", []);
		expect(outcome).toMatchObject({ ok: false, kind: "refused", status: "in_production", floorStarted: true });
		expect(outcome.ok ? "" : outcome.message).toContain("the floor started it at");
	});
});
