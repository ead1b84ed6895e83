import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, expectError, send } from "../helpers.ts";
import { hookUrl, waitForReceived } from "../webhooks/webhook-helpers.ts";
import {
	countOrders,
	createOrder,
	eventsOf,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	postOrder,
	readOrder,
	settleValidation,
	TRACKING,
} from "./order-helpers.ts";

/** Metadata a shop keeps with an order: its own reference, a customer id, a channel. */
const SHOP_METADATA = { shop_order_ref: "SO-48213", customer_id: "cus_8842", channel: "etsy" };

/** The metadata column of an order as stored, parsed. */
async function storedMetadata(orderId: string): Promise<unknown> {
	const row = await env.DB.prepare("SELECT metadata FROM orders WHERE id = ?1")
		.bind(orderId)
		.first<{ metadata: string }>();
	return row === null ? undefined : JSON.parse(row.metadata);
}

/** `count` keys `k0`… to `v0`…. */
function keys(count: number): Record<string, string> {
	return Object.fromEntries(Array.from({ length: count }, (_, index) => [`k${index}`, `v${index}`]));
}

describe("POST /v1/orders: metadata is stored and returned", () => {
	it("is on the 201, on GET, by external_id, in the list and in the database, as sent", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { metadata: SHOP_METADATA });
		const created = await createOrder(key, body);
		expect(created.metadata).toEqual(SHOP_METADATA);
		expect((await readOrder(key, created.id)).metadata).toEqual(SHOP_METADATA);
		const byExternalId = await api(`/v1/orders/by-external-id/${encodeURIComponent(body.external_id)}`, { key });
		expect(((await byExternalId.json()) as Order).metadata).toEqual(SHOP_METADATA);
		const list = (await (await api("/v1/orders", { key })).json()) as { data: Order[] };
		expect(list.data.find((order) => order.id === created.id)?.metadata).toEqual(SHOP_METADATA);
		expect(await storedMetadata(created.id)).toEqual(SHOP_METADATA);
	});

	it("keeps the keys in the order sent", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, { metadata: { zeta: "1", alpha: "2", "m.i-d_x": "3" } }));
		expect(Object.keys((await readOrder(key, created.id)).metadata)).toEqual(["zeta", "alpha", "m.i-d_x"]);
	});

	it("is {} on an order created without it, and on one created with {}", async () => {
		const { key, file } = await partnerWithFile();
		const without = await createOrder(key, orderBody(file));
		expect(without.metadata).toEqual({});
		expect(await storedMetadata(without.id)).toEqual({});
		const empty = await createOrder(key, orderBody(file, { metadata: {} }));
		expect((await readOrder(key, empty.id)).metadata).toEqual({});
	});

	it("keeps unicode values exactly: emoji, accents, other scripts, right-to-left text, 500 emoji", async () => {
		const { key, file } = await partnerWithFile();
		const metadata = {
			greeting: "Félicitations 🎉 おめでとう",
			hebrew: "שלום עולם",
			flags: "🇫🇷🇯🇵👩🏽‍🎨",
			long: "🎁".repeat(500),
		};
		const created = await createOrder(key, orderBody(file, { metadata }));
		expect((await readOrder(key, created.id)).metadata).toEqual(metadata);
	});

	it("keeps 20 keys of 40 characters with values of 500 characters", async () => {
		const { key, file } = await partnerWithFile();
		const metadata = Object.fromEntries(
			Array.from({ length: 20 }, (_, index) => [`${String(index).padStart(2, "0")}${"k".repeat(38)}`, "v".repeat(500)]),
		);
		const created = await createOrder(key, orderBody(file, { metadata }));
		expect((await readOrder(key, created.id)).metadata).toEqual(metadata);
	});

	it("keeps a key named __proto__ as an ordinary key, through the database and back", async () => {
		const { key, file } = await partnerWithFile();
		const body = JSON.stringify(orderBody(file)).replace(/}$/, ',"metadata":{"__proto__":"kept","constructor":"too"}}');
		const response = await api("/v1/orders", {
			key,
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body,
		});
		expect(response.status).toBe(201);
		const created = (await response.json()) as Order;
		const readBack = await api(`/v1/orders/${created.id}`, { key });
		expect(await readBack.text()).toContain('"metadata":{"__proto__":"kept","constructor":"too"}');
	});

	it("is not visible to another account or to the account's test key", async () => {
		const { key, file, partner } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, { metadata: SHOP_METADATA }));
		const other = await createPartner("Other Gallery");
		await expectError(await api(`/v1/orders/${created.id}`, { key: other.keys.live.key }), "not_found", "id");
		await expectError(await api(`/v1/orders/${created.id}`, { key: partner.keys.test.key }), "not_found", "id");
	});
});

describe("POST /v1/orders: metadata that breaks a rule is a 422 on its field, and stores nothing", () => {
	const cases: Array<{ name: string; metadata: unknown; code: string; field: string }> = [
		{ name: "21 keys", metadata: keys(21), code: "metadata_too_many_keys", field: "metadata" },
		{
			name: "a 41-character key",
			metadata: { ["k".repeat(41)]: "v" },
			code: "metadata_key_invalid",
			field: `metadata.${"k".repeat(41)}`,
		},
		{
			name: "a key with a space",
			metadata: { "order ref": "v" },
			code: "metadata_key_invalid",
			field: "metadata.order ref",
		},
		{
			name: "a key of 50,000 characters",
			metadata: { ["k".repeat(50_000)]: "v" },
			code: "metadata_key_invalid",
			field: `metadata.${"k".repeat(50_000)}`,
		},
		{
			name: "a control character in a value",
			metadata: { note: "a\u0007b" },
			code: "metadata_value_invalid",
			field: "metadata.note",
		},
		{
			name: "a line break in a value",
			metadata: { note: "a\r\nb" },
			code: "metadata_value_invalid",
			field: "metadata.note",
		},
		{
			name: "a 501-character value",
			metadata: { note: "v".repeat(501) },
			code: "metadata_value_invalid",
			field: "metadata.note",
		},
		{
			name: "a nested object",
			metadata: { customer: { id: "cus_1" } },
			code: "metadata_value_invalid",
			field: "metadata.customer",
		},
		{ name: "an array value", metadata: { tags: ["a", "b"] }, code: "metadata_value_invalid", field: "metadata.tags" },
		{ name: "a number value", metadata: { count: 3 }, code: "metadata_value_invalid", field: "metadata.count" },
		{ name: "a boolean value", metadata: { gift: true }, code: "metadata_value_invalid", field: "metadata.gift" },
		{ name: "a null value", metadata: { ref: null }, code: "metadata_value_invalid", field: "metadata.ref" },
		{ name: "null metadata", metadata: null, code: "metadata_not_object", field: "metadata" },
		{ name: "an array as metadata", metadata: [{ ref: "1" }], code: "metadata_not_object", field: "metadata" },
		{ name: "a string as metadata", metadata: "ref=1", code: "metadata_not_object", field: "metadata" },
		{
			name: "half an emoji in a value",
			metadata: { mood: "\ud83c" },
			code: "text_not_well_formed",
			field: "metadata.mood",
		},
	];
	for (const { name, metadata, code, field } of cases) {
		it(`${name} is a 422 ${code} on ${field.length > 60 ? `${field.slice(0, 40)}…` : field}`, async () => {
			const { key, file, partner } = await partnerWithFile();
			const body = orderBody(file, { metadata });
			const error = await expectError(await postOrder(key, body), "validation_error", field);
			expect(error.code).toBe(code);
			expect(await countOrders(partner.account.id, body.external_id)).toBe(0);
		});
	}

	it("names the first key at fault and says why", async () => {
		const { key, file } = await partnerWithFile();
		const error = await expectError(
			await postOrder(key, orderBody(file, { metadata: { fine: "ok", count: 3, "bad key": "x" } })),
			"validation_error",
			"metadata.count",
		);
		expect(error.message).toBe(
			"metadata.count: must be a string, not a number: metadata holds flat string values only",
		);
	});
});

describe("POST /v1/orders: metadata and idempotency", () => {
	it("a repeat with the same metadata, keys in another order, is a 200 replay of the first order", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { metadata: { a: "1", b: "2" } });
		const first = await createOrder(key, body);
		const replay = await postOrder(key, { ...body, metadata: { b: "2", a: "1" } });
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		const replayed = (await replay.json()) as Order;
		expect(replayed.id).toBe(first.id);
		expect(Object.keys(replayed.metadata)).toEqual(["a", "b"]);
	});

	it("a repeat with a changed value is a 409 on external_id, and the order keeps its metadata", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file, { metadata: { a: "1" } });
		const first = await createOrder(key, body);
		await expectError(await postOrder(key, { ...body, metadata: { a: "2" } }), "conflict", "external_id");
		expect((await readOrder(key, first.id)).metadata).toEqual({ a: "1" });
	});

	it("adding metadata to a repeat of an order without it is a 409, and so is leaving it out", async () => {
		const { key, file } = await partnerWithFile();
		const plain = orderBody(file);
		await createOrder(key, plain);
		await expectError(await postOrder(key, { ...plain, metadata: { a: "1" } }), "conflict", "external_id");
		const without = orderBody(file);
		await createOrder(key, { ...without, metadata: { a: "1" } });
		await expectError(await postOrder(key, without), "conflict", "external_id");
	});

	it("{} and no metadata are the same order: a repeat with either replays", async () => {
		const { key, file } = await partnerWithFile();
		const plain = orderBody(file);
		const first = await createOrder(key, plain);
		const replay = await postOrder(key, { ...plain, metadata: {} });
		expect(replay.status).toBe(200);
		expect(((await replay.json()) as Order).id).toBe(first.id);
	});

	it("concurrent creates with the same metadata, keys in any order, make one order", async () => {
		const { key, file, partner } = await partnerWithFile();
		const body = orderBody(file, { metadata: { a: "1", b: "2", c: "3" } });
		const orders = [
			{ a: "1", b: "2", c: "3" },
			{ c: "3", b: "2", a: "1" },
			{ b: "2", a: "1", c: "3" },
		];
		const responses = await Promise.all(orders.map((metadata) => postOrder(key, { ...body, metadata })));
		expect(responses.map((response) => response.status).sort()).toEqual([200, 200, 201]);
		const ids = await Promise.all(responses.map(async (response) => ((await response.json()) as Order).id));
		expect(new Set(ids).size).toBe(1);
		expect(await countOrders(partner.account.id, body.external_id)).toBe(1);
	});

	it("a repeat that changes a __proto__ key's value is a 409, not a replay", async () => {
		const { key, file } = await partnerWithFile();
		const base = JSON.stringify(orderBody(file));
		const withProto = (value: string) => base.replace(/}$/, `,"metadata":{"__proto__":"${value}"}}`);
		const post = (text: string) =>
			api("/v1/orders", { key, method: "POST", headers: { "Content-Type": "application/json" }, body: text });
		expect((await post(withProto("one"))).status).toBe(201);
		expect((await post(withProto("one"))).status).toBe(200);
		await expectError(await post(withProto("two")), "conflict", "external_id");
	});
});

describe("metadata in event bodies", () => {
	it("every event of an order, received to delivered, its shipment's included, carries its metadata, in the log and in GET /v1/events", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const created = await createOrder(key, orderBody(file, { metadata: SHOP_METADATA }));
		expect((await settleValidation(key, created.id)).status).toBe("in_production");
		await opsMoveOk(opsKey, created.id, "ship", TRACKING);
		await opsMoveOk(opsKey, created.id, "deliver");
		const events = await eventsOf(created.id);
		expect(events.map((event) => event.type)).toEqual([
			"order.received",
			"order.in_production",
			"shipment.created",
			"order.shipped",
			"shipment.delivered",
			"order.delivered",
		]);
		for (const event of events) expect(event.body.metadata).toEqual(SHOP_METADATA);
		const listed = (await (await api(`/v1/events?order_id=${created.id}`, { key })).json()) as {
			data: Array<{ type: string; body: Record<string, unknown> }>;
		};
		expect(listed.data.length).toBeGreaterThanOrEqual(4);
		for (const event of listed.data) expect(event.body.metadata).toEqual(SHOP_METADATA);
	});

	it("order.on_hold and order.canceled carry it, and an order without metadata sends {}", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const created = await createOrder(key, orderBody(file, { metadata: { ref: "R-1" } }));
		await settleValidation(key, created.id);
		await opsMoveOk(opsKey, created.id, "hold", { message: "The moulding is back-ordered." });
		await opsMoveOk(opsKey, created.id, "cancel");
		const events = await eventsOf(created.id);
		expect(events.map((event) => event.type)).toContain("order.on_hold");
		expect(events.map((event) => event.type)).toContain("order.canceled");
		for (const event of events) expect(event.body.metadata).toEqual({ ref: "R-1" });
		const plain = await createOrder(key, orderBody(file));
		await settleValidation(key, plain.id);
		for (const event of await eventsOf(plain.id)) expect(event.body.metadata).toEqual({});
	});

	it("the signed webhook a receiver gets carries the metadata", async () => {
		const { key, file } = await partnerWithFile();
		const callbackUrl = hookUrl("ok");
		const created = await createOrder(key, orderBody(file, { callback_url: callbackUrl, metadata: SHOP_METADATA }));
		await settleValidation(key, created.id);
		const requests = await waitForReceived(callbackUrl);
		const body = JSON.parse(requests[0]?.body ?? "{}") as Record<string, unknown>;
		expect(body.event).toBe("order.in_production");
		expect(body.metadata).toEqual(SHOP_METADATA);
	});

	it("ops move answers show the order's metadata like a partner's read", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const created = await createOrder(key, orderBody(file, { metadata: SHOP_METADATA }));
		await settleValidation(key, created.id);
		const response = await send("POST", `/v1/ops/orders/${created.id}/hold`, opsKey, { message: "Checking." });
		expect(response.status).toBe(200);
		expect(((await response.json()) as Order).metadata).toEqual(SHOP_METADATA);
	});
});
