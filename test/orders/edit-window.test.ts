import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { consoleRequest, htmlOf, signedInOperator, textOf } from "../console/console-helpers.ts";
import { api, createAdminKey, createKeyWithScopes, expectError, send } from "../helpers.ts";
import {
	closeWindow,
	createOrder,
	opsMove,
	orderBody,
	partnerWithFile,
	partnerWithWindow,
	readOrder,
	readyFile,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

/** PUT /v1/admin/accounts/{id}/settings with `body`, by `key`. */
function putSettings(key: string, accountId: string, body: unknown): Promise<Response> {
	return send("PUT", `/v1/admin/accounts/${accountId}/settings`, key, body);
}

describe("PUT /v1/admin/accounts/{id}/settings", () => {
	it("sets the edit window and answers the settings now in force", async () => {
		const { partner } = await partnerWithFile();
		const response = await putSettings(await createAdminKey(), partner.account.id, { edit_window_minutes: 30 });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ account_id: partner.account.id, edit_window_minutes: 30 });
	});

	it("refuses a window outside 0 to 1440 minutes, or not whole, with a 422 naming the field", async () => {
		const { partner } = await partnerWithFile();
		const admin = await createAdminKey();
		for (const minutes of [-1, 1441, 2.5, "30", null]) {
			await expectError(
				await putSettings(admin, partner.account.id, { edit_window_minutes: minutes }),
				"validation_error",
				"edit_window_minutes",
			);
		}
	});

	it("refuses any other field with a 422", async () => {
		const { partner } = await partnerWithFile();
		const response = await putSettings(await createAdminKey(), partner.account.id, {
			edit_window_minutes: 5,
			status: "x",
		});
		expect(response.status).toBe(422);
	});

	it("answers 404 for an unknown account", async () => {
		await expectError(
			await putSettings(await createAdminKey(), "acct_nope", { edit_window_minutes: 10 }),
			"not_found",
			"id",
		);
	});

	it("refuses a partner key or an ops key with 403", async () => {
		const { partner, key } = await partnerWithFile();
		await expectError(await putSettings(key, partner.account.id, { edit_window_minutes: 10 }), "forbidden");
		const ops = await createKeyWithScopes(["ops"]);
		await expectError(await putSettings(ops, partner.account.id, { edit_window_minutes: 10 }), "forbidden");
	});
});

describe("editable_until on the order", () => {
	it("is null when the account has no edit window", async () => {
		const { key, file } = await partnerWithFile();
		const order = await createOrder(key, orderBody(file));
		expect(order.editable_until).toBeNull();
	});

	it("is created_at plus the window, at once for the account's next order", async () => {
		const { partner, key, file } = await partnerWithFile();
		await putSettings(await createAdminKey(), partner.account.id, { edit_window_minutes: 45 });
		const order = await createOrder(key, orderBody(file));
		expect(order.editable_until).toBe(new Date(Date.parse(order.created_at) + 45 * 60_000).toISOString());
		expect((await readOrder(key, order.id)).editable_until).toBe(order.editable_until);
	});

	it("stays as it was when the account's window changes later", async () => {
		const { partner, key, file } = await partnerWithFile();
		const admin = await createAdminKey();
		await putSettings(admin, partner.account.id, { edit_window_minutes: 10 });
		const order = await createOrder(key, orderBody(file));
		await putSettings(admin, partner.account.id, { edit_window_minutes: 0 });
		expect((await readOrder(key, order.id)).editable_until).toBe(order.editable_until);
		const later = await createOrder(key, orderBody(file));
		expect(later.editable_until).toBeNull();
		const stored = await env.DB.prepare("SELECT edit_window_minutes FROM accounts WHERE id = ?1")
			.bind(partner.account.id)
			.first<{ edit_window_minutes: number }>();
		expect(stored?.edit_window_minutes).toBe(0);
	});
});

/** The ids of the floor's queue for one partner. */
async function queueIds(opsKey: string, accountId: string): Promise<string[]> {
	const response = await api(`/v1/ops/orders?account_id=${accountId}`, { key: opsKey });
	expect(response.status).toBe(200);
	return ((await response.json()) as { data: Order[] }).data.map((order) => order.id);
}

describe("the floor does not see an order in its edit window", () => {
	it("the ops queue leaves it out, and lists it once the window has passed", async () => {
		const { partner, key, file, opsKey } = await partnerWithWindow(60);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		expect(order.status).toBe("in_production");
		expect(await queueIds(opsKey, partner.account.id)).toEqual([]);
		await closeWindow(order.id);
		expect(await queueIds(opsKey, partner.account.id)).toEqual([order.id]);
	});

	it("a search of the queue by the order's id or external_id does not find it either", async () => {
		const { key, file, opsKey } = await partnerWithWindow(60);
		const order = await createOrder(key, orderBody(file));
		for (const q of [order.id, order.external_id]) {
			const response = await api(`/v1/ops/orders?q=${encodeURIComponent(q)}`, { key: opsKey });
			expect(((await response.json()) as { data: Order[] }).data).toEqual([]);
		}
	});

	it("ship and shipments are a 409 order_in_edit_window saying until when; both work after the window", async () => {
		const { key, file, opsKey } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		const until = order.editable_until ?? "";
		const ship = await expectError(await opsMove(opsKey, order.id, "ship", TRACKING), "conflict");
		expect(ship.code).toBe("order_in_edit_window");
		expect(ship.message).toContain(until);
		const shipment = await expectError(await opsMove(opsKey, order.id, "shipments", TRACKING), "conflict");
		expect(shipment.code).toBe("order_in_edit_window");
		expect((await readOrder(key, order.id)).status).toBe("in_production");
		await closeWindow(order.id);
		expect((await opsMove(opsKey, order.id, "shipments", TRACKING)).status).toBe(201);
		expect((await readOrder(key, order.id)).status).toBe("shipped");
	});

	it("the bulk import refuses its row, saying until when, and ships it after the window", async () => {
		const { key, file, opsKey } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		const csv = `Order Number,Carrier,Tracking Number\r\n${order.external_id},UPS,1Z999AA10123456784`;
		const post = (path: string) =>
			api(path, { key: opsKey, method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
		const preview = (await (await post("/v1/ops/shipments/import/preview")).json()) as {
			rows: { action: string; message: string }[];
		};
		expect(preview.rows[0]?.action).toBe("refused");
		expect(preview.rows[0]?.message).toContain(order.editable_until ?? "");
		const refused = (await (await post("/v1/ops/shipments/import")).json()) as { refused: number; shipped: number };
		expect(refused).toMatchObject({ refused: 1, shipped: 0 });
		await closeWindow(order.id);
		const shipped = (await (await post("/v1/ops/shipments/import")).json()) as { refused: number; shipped: number };
		expect(shipped).toMatchObject({ refused: 0, shipped: 1 });
	});

	it("a bulk import row with item_ids is refused in the window too, and ships its units after it", async () => {
		const { key, file, opsKey } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		const itemId = order.items[0]?.id ?? "";
		const csv = `order_id,carrier,tracking_number,item_ids\r\n${order.id},UPS,1Z999AA10123456784,${itemId}:1`;
		const post = (path: string) =>
			api(path, { key: opsKey, method: "POST", headers: { "Content-Type": "text/csv" }, body: csv });
		const preview = (await (await post("/v1/ops/shipments/import/preview")).json()) as {
			rows: { action: string; message: string }[];
		};
		expect(preview.rows[0]?.action).toBe("refused");
		expect(preview.rows[0]?.message).toContain(order.editable_until ?? "");
		const refused = (await (await post("/v1/ops/shipments/import")).json()) as { refused: number; shipped: number };
		expect(refused).toMatchObject({ refused: 1, shipped: 0 });
		expect((await readOrder(key, order.id)).fulfillment.shipped_units).toBe(0);
		await closeWindow(order.id);
		const shipped = (await (await post("/v1/ops/shipments/import")).json()) as { refused: number; shipped: number };
		expect(shipped).toMatchObject({ refused: 0, shipped: 1 });
		expect((await readOrder(key, order.id)).fulfillment.shipped_units).toBe(1);
	});

	it("its work ticket is a 409 and a batch of tickets leaves it out, until the window has passed", async () => {
		const { key, file, opsKey } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		const ticket = await expectError(await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: opsKey }), "conflict");
		expect(ticket.code).toBe("order_in_edit_window");
		const batch = await api("/v1/ops/work-tickets?limit=50", { key: opsKey });
		expect(await batch.text()).not.toContain(order.external_id);
		await closeWindow(order.id);
		expect((await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: opsKey })).status).toBe(200);
	});

	it("the console's order page says the order is not to be started before the window's end, and not once it has passed", async () => {
		const { key, file } = await partnerWithWindow(30);
		const operator = await signedInOperator();
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		const page = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		const until = new Date(order.editable_until ?? "").toISOString();
		expect(textOf(page)).toContain(`Not to be started before ${until.slice(0, 10)} ${until.slice(11, 16)} UTC`);
		const ticket = await consoleRequest(`/ops/orders/${order.id}/work-ticket`, { cookie: operator.cookie });
		expect(ticket.status).toBe(409);
		await closeWindow(order.id);
		const after = await htmlOf(await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie }), 200);
		expect(textOf(after)).not.toContain("Not to be started before");
	});

	it("an order of an account without a window is in the queue at once", async () => {
		const { partner, key, file, opsKey } = await partnerWithWindow(0);
		const order = await createOrder(key, orderBody(file));
		expect(await queueIds(opsKey, partner.account.id)).toEqual([order.id]);
	});
});

describe("the sandbox plays the floor", () => {
	it("a test order in its edit window is shipped by itself only once the window has passed", async () => {
		const { partner } = await partnerWithWindow(45);
		const testKey = partner.keys.test.key;
		const created = await createOrder(testKey, orderBody(await readyFile(testKey, 2400, 3000)));
		const order = await settleValidation(testKey, created.id);
		expect(order.status).toBe("in_production");
		const stub = env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(order.id));
		const [intent, alarm] = await runInDurableObject(stub, async (_machine, state) => [
			await state.storage.get<{ at: number }>("alarm_intent"),
			await state.storage.getAlarm(),
		]);
		const windowEnd = Date.parse(order.editable_until ?? "");
		expect(intent?.at).toBeGreaterThanOrEqual(windowEnd);
		expect(alarm).toBeGreaterThanOrEqual(windowEnd);
	});
});
