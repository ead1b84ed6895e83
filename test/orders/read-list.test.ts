import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createKeyWithScopes, createPartner, expectError } from "../helpers.ts";
import { createOrder, orderBody, partnerWithFile, readOrder, settleValidation } from "./order-helpers.ts";

type OrderPage = { data: Order[]; next_cursor: string | null };

/** partnerWithFile here: a partner whose order bucket holds enough for a listing's worth of creates. */
const LISTING_PARTNER = { orderBurst: 100 };

/** `count` orders, created one after another; returned oldest first. */
async function createOrders(key: string, file: string, count: number): Promise<Order[]> {
	const orders: Order[] = [];
	for (let index = 0; index < count; index++) orders.push(await createOrder(key, orderBody(file)));
	return orders;
}

async function listPage(key: string, query = ""): Promise<OrderPage> {
	const response = await api(`/v1/orders${query}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as OrderPage;
}

/** Sets an order's creation time directly in D1, so the time filters are tested on known instants. */
async function setCreatedAt(orderId: string, createdAt: string): Promise<void> {
	await env.DB.prepare("UPDATE orders SET created_at = ?2 WHERE id = ?1").bind(orderId, createdAt).run();
}

/** Ids newest first, as the listing orders them: created_at descending, then id descending. */
function newestFirst(orders: { id: string; created_at: string }[]): string[] {
	return [...orders]
		.sort((a, b) => (a.created_at === b.created_at ? (a.id < b.id ? 1 : -1) : a.created_at < b.created_at ? 1 : -1))
		.map((order) => order.id);
}

/** Follows next_cursor to the end; returns every id in the order seen. */
async function walk(key: string, limit: number, firstCursor: string | null = null): Promise<string[]> {
	const seen: string[] = [];
	let cursor = firstCursor;
	for (let pages = 0; pages < 50; pages++) {
		const page = await listPage(
			key,
			`?limit=${limit}${cursor === null ? "" : `&cursor=${encodeURIComponent(cursor)}`}`,
		);
		expect(page.data.length).toBeLessThanOrEqual(limit);
		seen.push(...page.data.map((order) => order.id));
		if (page.next_cursor === null) return seen;
		cursor = page.next_cursor;
	}
	throw new Error("the listing did not end within 50 pages");
}

describe("GET /v1/orders/{id}", () => {
	it("is a 200 with the order", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const created = await createOrder(key, orderBody(file));
		const response = await api(`/v1/orders/${created.id}`, { key });
		expect(response.status).toBe(200);
		const read = (await response.json()) as Order;
		expect(read).toMatchObject({
			id: created.id,
			external_id: created.external_id,
			created_at: created.created_at,
			tracking: null,
			shipped_at: null,
			items: created.items.map((item) => ({ id: item.id, width_in: item.width_in, height_in: item.height_in })),
		});
	});

	it("an unknown id is a 404 on id", async () => {
		const { key } = await partnerWithFile(LISTING_PARTNER);
		await expectError(await api("/v1/orders/ord_doesnotexist0000000000000", { key }), "not_found", "id");
	});
});

describe("GET /v1/orders/by-external-id/{external_id}", () => {
	it("finds an order by a URL-encoded external_id with a slash, spaces, % and +", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const externalId = ` Shop 12/PO ${Date.now()} #A?&%20+ `;
		const created = await createOrder(key, orderBody(file, { external_id: externalId }));
		const response = await api(`/v1/orders/by-external-id/${encodeURIComponent(externalId)}`, { key });
		expect(response.status).toBe(200);
		const read = (await response.json()) as Order;
		expect(read.id).toBe(created.id);
		expect(read.external_id).toBe(externalId);
	});

	it("an unknown external_id is a 404", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		await createOrder(key, orderBody(file, { external_id: "PO-known" }));
		const response = await api(`/v1/orders/by-external-id/${encodeURIComponent("PO-unknown")}`, { key });
		await expectError(response, "not_found", "external_id");
	});
});

describe("GET /v1/orders", () => {
	it("lists newest first, 20 by default, with a cursor for the rest", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const orders = await createOrders(key, file, 25);
		const page = await listPage(key);
		expect(page.data).toHaveLength(20);
		expect(page.data.map((order) => order.id)).toEqual(newestFirst(orders).slice(0, 20));
		expect(page.next_cursor).toEqual(expect.any(String));
		// The page holds whole orders, items included.
		expect(page.data[0]?.items).toHaveLength(1);
	});

	it("takes limit 1 and 100; 0 and 101 are a 422 on limit", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const orders = await createOrders(key, file, 3);
		const one = await listPage(key, "?limit=1");
		expect(one.data.map((order) => order.id)).toEqual(newestFirst(orders).slice(0, 1));
		expect(one.next_cursor).not.toBeNull();
		const hundred = await listPage(key, "?limit=100");
		expect(hundred.data).toHaveLength(3);
		expect(hundred.next_cursor).toBeNull();
		await expectError(await api("/v1/orders?limit=0", { key }), "validation_error", "limit");
		await expectError(await api("/v1/orders?limit=101", { key }), "validation_error", "limit");
	});

	it("filters by status", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const passing = await createOrder(key, orderBody(file));
		const held = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame" }));
		expect((await settleValidation(key, passing.id)).status).toBe("in_production");
		expect((await settleValidation(key, held.id)).status).toBe("on_hold");

		const onHold = await listPage(key, "?status=on_hold");
		expect(onHold.data.map((order) => order.id)).toEqual([held.id]);
		const inProduction = await listPage(key, "?status=in_production");
		expect(inProduction.data.map((order) => order.id)).toEqual([passing.id]);
		expect((await listPage(key, "?status=shipped")).data).toEqual([]);
		await expectError(await api("/v1/orders?status=lost", { key }), "validation_error", "status");
	});

	it("filters by created_after and created_before (both exclusive)", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const [january, february, march] = await createOrders(key, file, 3);
		if (january === undefined || february === undefined || march === undefined) throw new Error("3 orders");
		await setCreatedAt(january.id, "2026-01-01T00:00:00.000Z");
		await setCreatedAt(february.id, "2026-02-01T00:00:00.000Z");
		await setCreatedAt(march.id, "2026-03-01T00:00:00.000Z");
		const ids = async (query: string) => (await listPage(key, query)).data.map((order) => order.id);

		expect(await ids("?created_after=2026-01-15T00:00:00.000Z")).toEqual([march.id, february.id]);
		expect(await ids("?created_before=2026-02-15T00:00:00Z")).toEqual([february.id, january.id]);
		expect(await ids("?created_after=2026-01-01T00:00:00.000Z&created_before=2026-03-01T00:00:00.000Z")).toEqual([
			february.id,
		]);
		await expectError(await api("/v1/orders?created_after=yesterday", { key }), "validation_error", "created_after");
	});

	it("compares created_after and created_before as instants, whether or not the query writes milliseconds", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const [order] = await createOrders(key, file, 1);
		if (order === undefined) throw new Error("1 order");
		// Half a second after midnight: after 00:00:00Z and before 00:00:01Z, however those are written.
		await setCreatedAt(order.id, "2026-02-01T00:00:00.500Z");
		const ids = async (query: string) => (await listPage(key, query)).data.map((found) => found.id);

		expect(await ids("?created_after=2026-02-01T00:00:00.000Z")).toEqual([order.id]);
		expect(await ids("?created_after=2026-02-01T00:00:00Z")).toEqual([order.id]);
		expect(await ids("?created_before=2026-02-01T00:00:00Z")).toEqual([]);
		expect(await ids("?created_before=2026-02-01T00:00:01Z")).toEqual([order.id]);
	});

	it("an invalid cursor is a 422 on cursor", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		await createOrders(key, file, 1);
		await expectError(await api("/v1/orders?cursor=not-a-cursor", { key }), "validation_error", "cursor");
		await expectError(
			await api(`/v1/orders?cursor=${btoa(JSON.stringify({ created_at: 1 }))}`, { key }),
			"validation_error",
			"cursor",
		);
	});

	it("pages through 25 orders with limit 7, each exactly once, newest first", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const orders = await createOrders(key, file, 25);
		const seen = await walk(key, 7);
		expect(seen).toEqual(newestFirst(orders));
		expect(new Set(seen).size).toBe(25);
	});

	it("pages through orders that share one created_at, each exactly once", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const orders = await createOrders(key, file, 9);
		const instant = "2026-05-05T05:05:05.005Z";
		for (const order of orders) await setCreatedAt(order.id, instant);
		const seen = await walk(key, 4);
		expect(seen).toEqual(newestFirst(orders.map((order) => ({ id: order.id, created_at: instant }))));
	});

	it("is stable under concurrent inserts: orders created after page 1 are not in the rest, and nothing repeats", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const old = await createOrders(key, file, 25);
		const first = await listPage(key, "?limit=7");
		expect(first.next_cursor).not.toBeNull();

		const added = await createOrders(key, file, 5);
		const rest = await walk(key, 7, first.next_cursor);

		const firstIds = first.data.map((order) => order.id);
		expect([...firstIds, ...rest]).toEqual(newestFirst(old));
		for (const order of added) expect(rest).not.toContain(order.id);
		expect(new Set([...firstIds, ...rest]).size).toBe(25);
	});

	it("lists only the caller's orders", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const mine = await createOrder(key, orderBody(file));
		const empty = await createPartner("Newcomer");
		expect(await listPage(empty.keys.live.key)).toEqual({ data: [], next_cursor: null });
		expect((await listPage(key)).data.map((order) => order.id)).toEqual([mine.id]);
	});
});

describe("orders:read", () => {
	it("a key with only files:write cannot read or list orders (403)", async () => {
		const { key, file } = await partnerWithFile(LISTING_PARTNER);
		const order = await createOrder(key, orderBody(file));
		const filesOnly = await createKeyWithScopes(["files:write"]);
		await expectError(await api("/v1/orders", { key: filesOnly }), "forbidden");
		await expectError(await api(`/v1/orders/${order.id}`, { key: filesOnly }), "forbidden");
		await expectError(
			await api(`/v1/orders/by-external-id/${encodeURIComponent(order.external_id)}`, { key: filesOnly }),
			"forbidden",
		);
		// The owner still reads it.
		expect((await readOrder(key, order.id)).id).toBe(order.id);
	});
});
