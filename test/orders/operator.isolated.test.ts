import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";
import { api, createKeyWithScopes, createPartner, expectError, ISO_UTC } from "../helpers.ts";
import { FILE_HOST, partnerFileServer } from "../print-files/file-hosting.ts";
import { sharpPng } from "../print-files/upload-helpers.ts";
import {
	createOrder,
	eventsOf,
	insertRawOrder,
	opsMove,
	opsMoveOk,
	readOrder,
	settleValidation,
	TRACKING,
	urlOrderBody,
} from "./order-helpers.ts";

const { sharpFileUrl } = partnerFileServer("operator");

/** An order of `key` created and validated: in_production, or on_hold when `item` names an unknown frame. */
async function validatedOrder(key: string, item: Record<string, unknown> = {}): Promise<Order> {
	const created = await createOrder(key, urlOrderBody(await sharpFileUrl(), "OPS", item));
	return settleValidation(key, created.id);
}

type QueuePage = { data: Order[]; next_cursor: string | null };

/** Every order of the production queue, page by page. */
async function wholeQueue(opsKey: string, query: string): Promise<{ orders: Order[]; pages: number }> {
	const orders: Order[] = [];
	let cursor: string | null = null;
	let pages = 0;
	do {
		const params = new URLSearchParams(query);
		if (cursor !== null) params.set("cursor", cursor);
		const response = await api(`/v1/ops/orders?${params}`, { key: opsKey });
		expect(response.status).toBe(200);
		const page = (await response.json()) as QueuePage;
		orders.push(...page.data);
		cursor = page.next_cursor;
		pages += 1;
	} while (cursor !== null && pages < 50);
	return { orders, pages };
}

describe("GET /v1/ops/orders", () => {
	it("lists every account's orders, oldest first, page by page, filtered by status", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const first = await createPartner("First Gallery");
		const second = await createPartner("Second Gallery");
		const a = await validatedOrder(first.keys.live.key);
		const b = await validatedOrder(second.keys.live.key, { frame: "no-such-frame" });
		// A test-mode order, left to its sandbox alarms: only its place in the queue matters here.
		const c = await createOrder(first.keys.test.key, urlOrderBody(await sharpFileUrl(), "OPS"));
		const d = await validatedOrder(second.keys.live.key);
		expect([a.status, b.status, d.status]).toEqual(["in_production", "on_hold", "in_production"]);

		const { orders, pages } = await wholeQueue(opsKey, "limit=2");
		expect(pages).toBeGreaterThanOrEqual(2);
		const ids = orders.map((order) => order.id);
		expect(new Set(ids).size).toBe(ids.length);
		// Live orders only by default: the test-mode one is listed when asked for.
		expect(ids).not.toContain(c.id);
		const positions = [a, b, d].map((order) => ids.indexOf(order.id));
		expect(positions.every((position) => position >= 0)).toBe(true);
		expect([...positions].sort((x, y) => x - y)).toEqual(positions);
		for (let index = 1; index < orders.length; index++) {
			const before = orders[index - 1];
			const after = orders[index];
			if (before === undefined || after === undefined) continue;
			expect(before.created_at <= after.created_at).toBe(true);
		}
		const testMode = await wholeQueue(opsKey, "mode=test&limit=100");
		expect(testMode.orders.map((order) => order.id)).toContain(c.id);
		expect(testMode.orders.every((order) => order.mode === "test")).toBe(true);

		const held = await wholeQueue(opsKey, "status=on_hold&limit=100");
		expect(held.orders.every((order) => order.status === "on_hold")).toBe(true);
		expect(held.orders.map((order) => order.id)).toContain(b.id);
		expect(held.orders.map((order) => order.id)).not.toContain(a.id);
	});

	it("finds an order by its id, by the partner's external_id, or by part of the partner's name", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const partner = await createPartner(`Quay 50% Prints ${crypto.randomUUID().slice(0, 8)}`);
		const other = await createPartner("Another Shop");
		const order = await validatedOrder(partner.keys.live.key);
		const elsewhere = await validatedOrder(other.keys.live.key);
		const ids = async (query: string) => (await wholeQueue(opsKey, query)).orders.map((found) => found.id);
		expect(await ids(`q=${order.id}`)).toEqual([order.id]);
		expect(await ids(`q=${encodeURIComponent(order.external_id)}`)).toEqual([order.id]);
		const byName = await ids("q=quay%2050%25");
		expect(byName).toContain(order.id);
		expect(byName).not.toContain(elsewhere.id);
		// % and _ are taken literally, not as wildcards.
		expect(await ids("q=Quay%2050_")).toEqual([]);
		expect(await ids(`account_id=${other.account.id}`)).toEqual([elsewhere.id]);
		expect(await ids(`account_id=${other.account.id}&q=${order.id}`)).toEqual([]);
	});

	it("is a 403 for a partner key", async () => {
		const partner = await createPartner();
		await expectError(await api("/v1/ops/orders", { key: partner.keys.live.key }), "forbidden");
	});

	it("is a 422 on a limit over 100 or an unknown status", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		await expectError(await api("/v1/ops/orders?limit=101", { key: opsKey }), "validation_error", "limit");
		await expectError(await api("/v1/ops/orders?status=lost", { key: opsKey }), "validation_error", "status");
		await expectError(await api("/v1/ops/orders?mode=sandbox", { key: opsKey }), "validation_error", "mode");
		await expectError(await api(`/v1/ops/orders?q=${"x".repeat(129)}`, { key: opsKey }), "validation_error", "q");
	});
});

describe("operator moves", () => {
	it("hold puts an in_production order on_hold with operator_hold and the message", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const held = await opsMoveOk(opsKey, order.id, "hold", { message: "The frame moulding is back-ordered." });
		expect(held.status).toBe("on_hold");
		expect(held.hold_reason).toBe("operator_hold");
		expect(held.hold_details).toEqual([
			{ item_id: null, field: "order", code: "operator_hold", message: "The frame moulding is back-ordered." },
		]);
		expect(await readOrder(key, order.id)).toEqual(held);
		const onHold = (await eventsOf(order.id)).find((event) => event.type === "order.on_hold");
		expect(onHold?.body).toMatchObject({
			status: "on_hold",
			hold_reason: "operator_hold",
			hold_details: held.hold_details,
		});
	});

	it("release sends an operator hold back through validation, to in_production", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		await opsMoveOk(opsKey, order.id, "hold", { message: "Checking the glass." });
		const released = await opsMoveOk(opsKey, order.id, "release");
		expect(released.status).toBe("validating");
		expect(released.hold_reason).toBeNull();
		expect(released.hold_details).toEqual([]);
		expect((await settleValidation(key, order.id)).status).toBe("in_production");
		expect((await eventsOf(order.id)).map((event) => event.type)).toEqual([
			"order.received",
			"order.in_production",
			"order.on_hold",
			"order.in_production",
		]);
	});

	it("release of a hold for a failed fetch fetches the file again: once the partner's server has it, the order goes into production", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const url = `${FILE_HOST}/operator/${crypto.randomUUID()}/print.png`;
		const created = await createOrder(key, urlOrderBody(url, "OPS"));
		const held = await settleValidation(key, created.id);
		expect(held.hold_reason).toBe("file_fetch_failed");
		expect((await fetch(url, { method: "PUT", body: sharpPng() })).status).toBe(201);
		expect((await opsMoveOk(opsKey, held.id, "release")).status).toBe("validating");
		const settled = await settleValidation(key, held.id);
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.effective_dpi).toBe(300);
	});

	it("release of a hold only the partner can fix (frame_not_found) is a 409 hold_needs_partner_fix saying what the partner must change, and changes nothing", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key, { frame: "no-such-frame" });
		expect(order.hold_reason).toBe("frame_not_found");
		const eventsBefore = await eventsOf(order.id);
		const error = await expectError(await opsMove(opsKey, order.id, "release"), "conflict");
		expect(error.code).toBe("hold_needs_partner_fix");
		expect(error.message).toBe(
			"Cannot release a hold for frame_not_found: validation would hold it again. The partner must change the item to a frame in the catalog (PATCH /v1/orders/{id}/items/{item_id}); the order is then validated again by itself. It can also be canceled. (current status: on_hold)",
		);
		expect(await readOrder(key, order.id)).toEqual(order);
		expect(await eventsOf(order.id)).toEqual(eventsBefore);
	});

	it("ship records the tracking and shipped_at, and an order.shipped event with exactly the webhook's fields", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		expect(shipped.status).toBe("shipped");
		expect(shipped.tracking).toEqual(TRACKING);
		expect(shipped.shipped_at).toMatch(ISO_UTC);
		expect(await readOrder(key, order.id)).toEqual(shipped);

		const event = (await eventsOf(order.id)).find((row) => row.type === "order.shipped");
		expect(event?.body).toEqual({
			id: expect.stringMatching(/^evt_/),
			event: "order.shipped",
			created_at: expect.stringMatching(ISO_UTC),
			order_id: order.id,
			external_id: order.external_id,
			status: "shipped",
			version: shipped.version,
			tracking: TRACKING,
			shipped_at: shipped.shipped_at,
			metadata: {},
		});
		// The version only grows: no one had started the order, so the ship's write starts it (one version)
		// and ships it (the next).
		expect(shipped.version).toBe(order.version + 2);
		expect(shipped.production_started_at).toBe(shipped.shipped_at);
	});

	it("deliver marks a shipped order delivered with delivered_at", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const shipped = await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		const delivered = await opsMoveOk(opsKey, order.id, "deliver");
		expect(delivered.status).toBe("delivered");
		expect(delivered.delivered_at).toMatch(ISO_UTC);
		expect(delivered.tracking).toEqual(TRACKING);
		expect(delivered.shipped_at).toBe(shipped.shipped_at);
		const event = (await eventsOf(order.id)).find((row) => row.type === "order.delivered");
		expect(event?.body).toMatchObject({ status: "delivered", delivered_at: delivered.delivered_at });
	});

	it.each([
		["in_production", {}],
		["on_hold", { frame: "no-such-frame" }],
	])("cancel by the operator cancels an order %s", async (status, item) => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key, item);
		expect(order.status).toBe(status);
		const canceled = await opsMoveOk(opsKey, order.id, "cancel");
		expect(canceled.status).toBe("canceled");
		expect(canceled.canceled_at).toMatch(ISO_UTC);
		const event = (await eventsOf(order.id)).find((row) => row.type === "order.canceled");
		expect(event?.body).toMatchObject({ status: "canceled", canceled_at: canceled.canceled_at });
	});

	it("every move is a 404 for an unknown order", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const moves: [string, unknown][] = [
			["hold", { message: "x" }],
			["release", undefined],
			["ship", TRACKING],
			["deliver", undefined],
			["cancel", undefined],
		];
		for (const [action, body] of moves) {
			await expectError(await opsMove(opsKey, "ord_doesnotexist", action, body), "not_found", "id");
		}
	});

	it("every move is a 403 for a partner key", async () => {
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		await expectError(await opsMove(key, order.id, "ship", TRACKING), "forbidden");
		await expectError(await opsMove(key, order.id, "cancel"), "forbidden");
		expect((await readOrder(key, order.id)).status).toBe("in_production");
	});

	it("ship without a carrier is a 400 on carrier; with a bad url a 422 on url", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		await expectError(
			await opsMove(opsKey, order.id, "ship", { number: TRACKING.number, url: TRACKING.url }),
			"bad_request",
			"carrier",
		);
		await expectError(
			await opsMove(opsKey, order.id, "ship", { ...TRACKING, url: "not a url" }),
			"validation_error",
			"url",
		);
		await expectError(
			await opsMove(opsKey, order.id, "ship", { ...TRACKING, url: "ftp://carrier.example/track" }),
			"validation_error",
			"url",
		);
		await expectError(await opsMove(opsKey, order.id, "hold", {}), "bad_request", "message");
		expect((await readOrder(key, order.id)).status).toBe("in_production");
	});

	it("ship without a url records the carrier's tracking page for UPS; an unknown carrier without one is a 422 on url", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const error = await expectError(
			await opsMove(opsKey, order.id, "ship", { carrier: "Harbour Couriers", number: "HC-1" }),
			"validation_error",
			"url",
		);
		expect(error.message).toContain("only UPS, USPS, FedEx, DHL tracking URLs follow from the number");
		expect((await readOrder(key, order.id)).status).toBe("in_production");
		const shipped = await opsMoveOk(opsKey, order.id, "ship", { carrier: "UPS", number: "1Z999AA10123456784" });
		expect(shipped.tracking).toEqual({
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
		});
	});

	it("half an emoji in the carrier, the number or a hold message is a 422 on that field, and nothing moves", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		for (const field of ["carrier", "number"]) {
			await expectError(
				await opsMove(opsKey, order.id, "ship", { ...TRACKING, [field]: "UPS \ud800" }),
				"validation_error",
				field,
			);
		}
		await expectError(
			await opsMove(opsKey, order.id, "hold", { message: "Frame \udc00" }),
			"validation_error",
			"message",
		);
		expect((await readOrder(key, order.id)).status).toBe("in_production");
	});
});

describe("operator text follows the partner text rules", () => {
	// Each would reach the partner's webhooks, hold_details and tracking page as it was typed.
	const CONTROLS = [
		["NUL", "\u0000"],
		["ESC", "\u001b"],
		["CR LF", "\r\n"],
		["a lone LF", "\n"],
		["a C1 control (NEL)", "\u0085"],
	] as const;

	it.each(CONTROLS)(
		"%s inside the carrier, the number, the tracking url or a hold message is a 422 on that field, and nothing moves",
		async (_name, control) => {
			const opsKey = await createKeyWithScopes(["ops"]);
			const key = (await createPartner()).keys.live.key;
			const order = await validatedOrder(key);
			const tainted = {
				carrier: `UPS${control}Ground`,
				number: `1Z999${control}AA1`,
				url: `https://www.ups.com/track?tracknum=1Z${control}999`,
			};
			for (const [field, value] of Object.entries(tainted)) {
				const response = await opsMove(opsKey, order.id, "ship", { ...TRACKING, [field]: value });
				const error = await expectError(response, "validation_error", field);
				expect(error.message).toContain("control characters");
			}
			await expectError(
				await opsMove(opsKey, order.id, "hold", { message: `Frame damaged.${control}Call the partner.` }),
				"validation_error",
				"message",
			);
			expect((await readOrder(key, order.id)).status).toBe("in_production");
			expect((await eventsOf(order.id)).map((event) => event.type)).not.toContain("order.on_hold");
		},
	);

	it("a line break at either end of a field is trimmed away like a space, as for partner text", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const held = await opsMoveOk(opsKey, order.id, "hold", { message: "\r\nFrame damaged.\n" });
		expect(held.hold_details).toContainEqual(expect.objectContaining({ message: "Frame damaged." }));
	});
});

describe("an operator move raced with itself", () => {
	// Four at once, as two operators (or a double click) would: the order's machine takes them one at a
	// time, so one moves the order and the others are refused exactly as the same move made again after it.
	it.each([
		["ship", TRACKING],
		["hold", { message: "Checking the glass." }],
		["cancel", undefined],
	] as const)("%s: one 200, and every other answer is the 409 a repeat of it gets", async (action, body) => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		const eventsBefore = (await eventsOf(order.id)).length;
		const answers = await Promise.all([1, 2, 3, 4].map(() => opsMove(opsKey, order.id, action, body)));
		expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
		const repeat = await expectError(await opsMove(opsKey, order.id, action, body), "conflict");
		for (const answer of answers.filter((one) => one.status !== 200)) {
			expect((await expectError(answer, "conflict")).message).toBe(repeat.message);
		}
		// A ship is one shipment of every unit: its shipment.created, then order.shipped.
		expect(await eventsOf(order.id)).toHaveLength(eventsBefore + (action === "ship" ? 2 : 1));
	});

	it("release: one 200, and every other answer a 409 naming the status the release left", async () => {
		const opsKey = await createKeyWithScopes(["ops"]);
		const key = (await createPartner()).keys.live.key;
		const order = await validatedOrder(key);
		await opsMoveOk(opsKey, order.id, "hold", { message: "Checking the glass." });
		const answers = await Promise.all([1, 2, 3, 4].map(() => opsMove(opsKey, order.id, "release")));
		expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
		for (const answer of answers.filter((one) => one.status !== 200)) {
			const error = await expectError(answer, "conflict");
			// The revalidation the release started may already have put the order back in production.
			expect(error.message).toMatch(
				/^Cannot release the hold on an order that is (validating|in_production)\. \(current status: \1\)$/,
			);
		}
	});
});

describe("refused operator moves", () => {
	const MOVES: { action: string; body?: unknown; from: readonly OrderStatus[] }[] = [
		{ action: "hold", body: { message: "Checking." }, from: ["in_production"] },
		{ action: "release", from: ["on_hold"] },
		{ action: "ship", body: TRACKING, from: ["in_production"] },
		{ action: "deliver", from: ["shipped"] },
		{ action: "cancel", from: ["received", "validating", "on_hold", "in_production"] },
	];

	/** An order of `key`'s account brought to `status` through the API (received and validating: written directly). */
	async function orderIn(
		status: OrderStatus,
		partner: { account: { id: string }; keys: { live: { key: string } } },
		opsKey: string,
	): Promise<string> {
		const key = partner.keys.live.key;
		if (status === "received" || status === "validating") {
			return (await insertRawOrder({ accountId: partner.account.id, mode: "live" }, status, await sharpFileUrl())).id;
		}
		const order = await validatedOrder(key, status === "on_hold" ? { frame: "no-such-frame" } : {});
		if (status === "on_hold" || status === "in_production") return order.id;
		if (status === "canceled") {
			await opsMoveOk(opsKey, order.id, "cancel");
			return order.id;
		}
		await opsMoveOk(opsKey, order.id, "ship", TRACKING);
		if (status === "delivered") await opsMoveOk(opsKey, order.id, "deliver");
		return order.id;
	}

	it.each(["received", "validating", "in_production", "on_hold", "shipped", "delivered", "canceled"] as const)(
		"from %s, every move the table does not allow is a 409 naming the status",
		async (status) => {
			const opsKey = await createKeyWithScopes(["ops"]);
			const partner = await createPartner();
			const orderId = await orderIn(status, partner, opsKey);
			const before = await readOrder(partner.keys.live.key, orderId);
			expect(before.status).toBe(status);
			const eventsBefore = (await eventsOf(orderId)).length;

			const refused = MOVES.filter((move) => !move.from.includes(status));
			expect(refused.length).toBeGreaterThan(0);
			for (const move of refused) {
				const error = await expectError(await opsMove(opsKey, orderId, move.action, move.body), "conflict");
				expect(error.message, `${move.action} from ${status}`).toContain(status);
			}
			expect(await readOrder(partner.keys.live.key, orderId)).toEqual(before);
			expect(await eventsOf(orderId)).toHaveLength(eventsBefore);
		},
	);
});
