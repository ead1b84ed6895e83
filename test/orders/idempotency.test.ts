import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { api, createAdminKey, expectError, jsonWithRawBytes, send, sendBytes } from "../helpers.ts";
import {
	countOrders,
	createOrder,
	externalId,
	orderBody,
	partnerWithFile,
	postOrder,
	readyFile,
	SHIP_TO,
	settleValidation,
} from "./order-helpers.ts";

async function countReceivedEvents(accountId: string, externalIdValue: string): Promise<number> {
	const row = await env.DB.prepare(
		`SELECT COUNT(*) AS n FROM events e JOIN orders o ON o.id = e.order_id
		  WHERE o.account_id = ?1 AND o.external_id = ?2 AND e.type = 'order.received'`,
	)
		.bind(accountId, externalIdValue)
		.first<{ n: number }>();
	return row?.n ?? -1;
}

describe("POST /v1/orders: a repeat with the same external_id", () => {
	it("with the same content is a 200 replay of the first order, equal to a GET of it", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		const first = await createOrder(key, body);
		// Let validation finish first, so the order cannot move between the replay and the GET compared with it.
		await settleValidation(key, first.id);

		const replay = await postOrder(key, body);
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		const replayed = (await replay.json()) as Order;
		expect(replayed.id).toBe(first.id);
		expect(replayed.created_at).toBe(first.created_at);
		expect(replayed.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));

		const read = await api(`/v1/orders/${first.id}`, { key });
		expect(read.status).toBe(200);
		expect(replayed).toEqual(await read.json());
	});

	it("with the keys in another order and quantity 1 written out is still a replay", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		const first = await createOrder(key, body);
		const [item] = body.items;
		const reordered = {
			items: [
				{
					quantity: 1,
					mat: item?.mat,
					frame: item?.frame,
					height_in: item?.height_in,
					width_in: item?.width_in,
					print_file_id: file,
				},
			],
			ship_to: {
				country: SHIP_TO.country,
				zip: SHIP_TO.zip,
				state: SHIP_TO.state,
				city: SHIP_TO.city,
				address1: SHIP_TO.address1,
				name: SHIP_TO.name,
			},
			external_id: body.external_id,
		};
		const replay = await postOrder(key, reordered);
		expect(replay.status).toBe(200);
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		expect(((await replay.json()) as Order).id).toBe(first.id);
	});

	it("with different content is a 409 on external_id naming the existing order", async () => {
		const { partner, key, file } = await partnerWithFile();
		const body = orderBody(file);
		const first = await createOrder(key, body);
		const changed = orderBody(file, { external_id: body.external_id }, { quantity: 2 });
		const error = await expectError(await postOrder(key, changed), "conflict", "external_id");
		expect(error.message).toContain(first.id);
		expect(await countOrders(partner.account.id, body.external_id)).toBe(1);
		// The first order is untouched by the refused repeat.
		const read = (await (await api(`/v1/orders/${first.id}`, { key })).json()) as Order;
		expect(read.items[0]?.quantity).toBe(1);
	});

	it("in the other mode (a test key) creates a separate order", async () => {
		const { partner, key, file } = await partnerWithFile();
		const live = await createOrder(key, orderBody(file));
		const testKey = partner.keys.test.key;
		const testFile = await readyFile(testKey, 2400, 3000);
		const test = await createOrder(testKey, orderBody(testFile, { external_id: live.external_id }));
		expect(test.id).not.toBe(live.id);
		expect(test.external_id).toBe(live.external_id);
		expect(test.mode).toBe("test");
	});

	it("from another account creates a separate order", async () => {
		const owner = await partnerWithFile();
		const other = await partnerWithFile();
		const body = orderBody(owner.file);
		const first = await createOrder(owner.key, body);
		const second = await createOrder(other.key, orderBody(other.file, { external_id: body.external_id }));
		expect(second.id).not.toBe(first.id);
		expect(second.external_id).toBe(first.external_id);
	});
});

describe("POST /v1/orders: an external_id that is not valid UTF-8", () => {
	/** The create body of `file` whose external_id is `PO-` followed by the raw `bytes`. */
	function bodyWithRawExternalId(file: string, bytes: readonly number[]): Uint8Array {
		return jsonWithRawBytes(JSON.stringify(orderBody(file, { external_id: "PO-<>" })), "<>", bytes);
	}

	it("holding the byte 0xFF is a 400 bad_request in the error envelope, and makes no order", async () => {
		const { partner, key, file } = await partnerWithFile();
		const response = await sendBytes("POST", "/v1/orders", key, bodyWithRawExternalId(file, [0xff]));
		const error = await expectError(response, "bad_request");
		expect(error.message).toContain("UTF-8");
		expect(await countOrders(partner.account.id, "PO-\ufffd")).toBe(0);
	});

	it("two bodies differing only in invalid bytes are both refused, never a replay of one another", async () => {
		const { partner, key, file } = await partnerWithFile();
		const first = await sendBytes("POST", "/v1/orders", key, bodyWithRawExternalId(file, [0xff]));
		const second = await sendBytes("POST", "/v1/orders", key, bodyWithRawExternalId(file, [0xfe]));
		await expectError(first, "bad_request");
		await expectError(second, "bad_request");
		expect(second.headers.get("Idempotent-Replayed")).toBeNull();
		expect(await countOrders(partner.account.id, "PO-\ufffd")).toBe(0);
	});
});

describe("POST /v1/orders: concurrent creates with one external_id", () => {
	it("50 identical creates make one order: one 201 and 49 replays of it", async () => {
		const { partner, key, file } = await partnerWithFile({ orderBurst: 100 });
		const body = orderBody(file);
		const responses = await Promise.all(Array.from({ length: 50 }, () => postOrder(key, body)));
		const statuses = responses.map((response) => response.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(1);
		expect(statuses.filter((status) => status === 200)).toHaveLength(49);
		for (const response of responses) {
			if (response.status === 200) expect(response.headers.get("Idempotent-Replayed")).toBe("true");
		}
		const ids = new Set(await Promise.all(responses.map(async (response) => ((await response.json()) as Order).id)));
		expect(ids.size).toBe(1);
		expect(await countOrders(partner.account.id, body.external_id)).toBe(1);
		expect(await countReceivedEvents(partner.account.id, body.external_id)).toBe(1);
	});

	it("50 creates with 50 different bodies make one order: one 201 and 49 conflicts", async () => {
		const { partner, key, file } = await partnerWithFile({ orderBurst: 100 });
		const external = externalId();
		const responses = await Promise.all(
			Array.from({ length: 50 }, (_, index) =>
				postOrder(key, orderBody(file, { external_id: external }, { quantity: index + 1 })),
			),
		);
		const statuses = responses.map((response) => response.status);
		expect(statuses.filter((status) => status === 201)).toHaveLength(1);
		expect(statuses.filter((status) => status === 409)).toHaveLength(49);
		const winner = responses.find((response) => response.status === 201);
		if (winner === undefined) throw new Error("no 201 among the creates");
		const winnerId = ((await winner.json()) as Order).id;
		for (const response of responses) {
			if (response.status !== 409) continue;
			const error = await expectError(response, "conflict", "external_id");
			expect(error.message).toContain(winnerId);
		}
		expect(await countOrders(partner.account.id, external)).toBe(1);
		expect(await countReceivedEvents(partner.account.id, external)).toBe(1);
	});
});

describe("POST /v1/orders: the order-creation bucket", () => {
	it("with the default burst of 30, the 31st immediate create is a 429 naming the order-creation limit", async () => {
		const { partner, key } = await partnerWithFile();
		// The burst stays the default 30; only the refill is slowed, so a token earned while 30 real creates
		// run (they can take over a second together) cannot let the 31st through and make this test flaky.
		// Through the admin route, which makes the key's limiter read the new limits on its next request.
		const slowed = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			orders_per_second: 0.001,
		});
		expect(slowed.status).toBe(200);
		// print_file_url items: no file is checked at creation.
		const body = () => ({
			external_id: externalId(),
			ship_to: SHIP_TO,
			items: [{ print_file_url: "https://files.partner.example/art/harbour.png", width_in: 8, height_in: 10 }],
		});
		const burst = await Promise.all(Array.from({ length: 30 }, () => postOrder(key, body())));
		expect(burst.map((response) => response.status)).toEqual(Array(30).fill(201));

		const over = await postOrder(key, body());
		const error = await expectError(over, "rate_limited");
		expect(error.message).toMatch(/order creation limit/i);
		expect(error.message).toContain("burst of 30");
		expect(Number(over.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
		expect(over.headers.get("Retry-After")).toMatch(/^\d+$/);
	});
});
