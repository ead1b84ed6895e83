/**
 * Round trips on a request's path, from the cost tracer's `X-Cost` header (this project runs with
 * COST_TRACE=1). Counts, not timings: the same on any machine.
 */
import { describe, expect, it } from "vitest";
import { api, createAdminKey, createPartner, send } from "../helpers.ts";
import { orderBody, partnerWithFile, readyFile, SHIP_TO, settleValidation } from "../orders/order-helpers.ts";
import { partnerWithThumbnail } from "../thumbnails/thumbnail-helpers.ts";

type Cost = { d1: number; do: number; r2: number; queue: number; calls: Record<string, number> };

/** The response's `X-Cost` header, read. */
function costOf(response: Response): Cost {
	const header = response.headers.get("X-Cost");
	if (header === null) throw new Error("no X-Cost header: is the tracer on in this project?");
	const fields = new Map(header.split(";").map((part) => part.split("=") as [string, string]));
	const calls = Object.fromEntries(
		(fields.get("calls") ?? "").split(",").map((part) => {
			const [kind, count] = part.split(":");
			return [kind ?? "", Number(count)];
		}),
	);
	return {
		d1: Number(fields.get("d1")),
		do: Number(fields.get("do")),
		r2: Number(fields.get("r2")),
		queue: Number(fields.get("queue")),
		calls,
	};
}

/**
 * Sequential hops before the answer. A create also wakes the order's machine as its answer goes out,
 * without waiting for it; the tracer counts that call too (it starts before the answer), so it is
 * taken off here.
 */
function beforeTheAnswer(cost: Cost, wakeUps = 0): number {
	return cost.d1 + cost.do + cost.r2 + cost.queue - wakeUps;
}

/**
 * A request that writes (a statement that may write, or a call to a Durable Object, which may) ends with
 * one more hop before its answer: the key's limiter notes where the written databases' primaries got to
 * (its own D1 read on the primary, counted here too), so the key's next reads, through D1 sessions that
 * may be answered by a replica, start there and show the write (src/database-sessions.ts).
 */
const WRITE_NOTE = { do: 1, d1: 1 };

/**
 * A create's D1 calls: its read and its batch, and the note's read of the primary; and the machine's first
 * read when its wake-up (sent beside the note) gets that far before the answer goes out.
 */
function expectCreateReads(cost: Cost): void {
	expect(cost.calls.d1).toBeGreaterThanOrEqual(2 + WRITE_NOTE.d1);
	expect(cost.calls.d1).toBeLessThanOrEqual(3 + WRITE_NOTE.d1);
}

/** A quote first: the isolate's catalog is loaded, so the request measured finds it there. */
async function withCatalogLoaded(key: string, body: ReturnType<typeof orderBody>): Promise<{ id: string }> {
	const quoted = await send("POST", "/v1/quotes", key, { ship_to: body.ship_to, items: body.items });
	expect(quoted.status).toBe(201);
	return (await quoted.json()) as { id: string };
}

describe("round trips on the request's path", () => {
	it("a create is five sequential hops: the limiter, one D1 read with the files' R2 heads beside it, one D1 batch, the write's note (the limiter, the primary's position)", async () => {
		const { key, file } = await partnerWithFile();
		const second = await readyFile(key, 3000, 2400);
		const body = orderBody(file);
		await withCatalogLoaded(key, body);
		const response = await send("POST", "/v1/orders", key, {
			...body,
			items: [...body.items, { ...body.items[0], print_file_id: second }],
		});
		expect(response.status).toBe(201);
		const cost = costOf(response);
		// The limiter, the read, the batch, the write's note; and the machine's wake-up, beside the note.
		expect(cost).toMatchObject({ do: 2, d1: 2 + WRITE_NOTE.d1, r2: 0 });
		expect(beforeTheAnswer(cost, 1) + WRITE_NOTE.do).toBe(3 + WRITE_NOTE.do + WRITE_NOTE.d1);
		// Two files: both rows and the pricing facts in one D1 read, both heads side by side with it.
		expect(cost.calls).toMatchObject({ do: 2 + WRITE_NOTE.do, r2: 2 });
		expectCreateReads(cost);
	});

	it("a create against a quote reads the quote in that same D1 read: still five hops", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		const quote = await withCatalogLoaded(key, body);
		const response = await send("POST", "/v1/orders", key, { ...orderBody(file), quote_id: quote.id });
		expect(response.status).toBe(201);
		const cost = costOf(response);
		expect(cost).toMatchObject({ do: 2, d1: 2 + WRITE_NOTE.d1, r2: 0 });
		expect(beforeTheAnswer(cost, 1) + WRITE_NOTE.do).toBe(3 + WRITE_NOTE.do + WRITE_NOTE.d1);
		expect(cost.calls).toMatchObject({ do: 2 + WRITE_NOTE.do, r2: 1 });
		expectCreateReads(cost);
	});

	it("an order read is two sequential hops: the limiter (which authenticates too), then one D1 batch", async () => {
		const { key, file } = await partnerWithFile();
		const created = await send("POST", "/v1/orders", key, orderBody(file));
		const { id } = (await created.json()) as { id: string };
		const cost = costOf(await api(`/v1/orders/${id}`, { key }));
		expect(cost).toMatchObject({ do: 1, d1: 1, r2: 0, queue: 0 });
		expect(beforeTheAnswer(cost)).toBe(2);
	});

	it("a statement, as JSON or CSV, is two sequential hops: the limiter, then one D1 batch (opening balance and entries)", async () => {
		const { partner, key } = await partnerWithFile();
		const admin = await createAdminKey();
		const adjustment = { mode: "live", amount_cents: 700, memo: "Correction" };
		expect((await send("POST", `/v1/admin/accounts/${partner.account.id}/adjustments`, admin, adjustment)).status).toBe(
			201,
		);
		const month = new Date().toISOString().slice(0, 7);
		for (const headers of [{ Accept: "application/json" }, { Accept: "text/csv" }]) {
			const response = await api(`/v1/statements/${month}`, { key, headers });
			expect(response.status).toBe(200);
			const cost = costOf(response);
			expect(cost).toMatchObject({ do: 1, d1: 1, r2: 0, queue: 0 });
			expect(beforeTheAnswer(cost)).toBe(2);
		}
	});

	it("a quote reads the price book and the account's discount in one D1 read", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await withCatalogLoaded(key, body);
		const response = await send("POST", "/v1/quotes", key, { ship_to: body.ship_to, items: body.items });
		expect(response.status).toBe(201);
		const cost = costOf(response);
		// Its file's row is its own read, side by side; then the quote's insert; then the write's note.
		expect(cost.calls).toMatchObject({ d1: 3 + WRITE_NOTE.d1, do: 1 + WRITE_NOTE.do });
		expect(cost.do).toBe(1 + WRITE_NOTE.do);
	});

	it("an address check of a known key is one hop, the limiter: it reads and writes nothing else", async () => {
		const key = (await createPartner()).keys.live.key;
		// The key's first request looks it up in D1; the limiter knows it afterwards.
		expect((await send("POST", "/v1/addresses/check", key, { ship_to: SHIP_TO })).status).toBe(200);
		const response = await send("POST", "/v1/addresses/check", key, { ship_to: SHIP_TO, shipping_method: "express" });
		expect(response.status).toBe(200);
		const cost = costOf(response);
		expect(cost).toMatchObject({ do: 1, d1: 0, r2: 0, queue: 0 });
		expect(beforeTheAnswer(cost)).toBe(1);
	});
});

describe("round trips of the floor's shipments", () => {
	it("a shipment is five sequential hops: the limiter, the order's existence check, the order's machine (three D1 calls inside), the write's note", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const created = (await (await send("POST", "/v1/orders", key, orderBody(file, {}, { quantity: 3 }))).json()) as {
			id: string;
			items: Array<{ id: string }>;
		};
		await settleValidation(key, created.id);
		const units = [{ item_id: created.items[0]?.id ?? "", quantity: 1 }];
		const ship = (number: string) =>
			send("POST", `/v1/ops/orders/${created.id}/shipments`, opsKey, { carrier: "UPS", number, items: units });
		// The first loads the catalog into the isolate, as the first pricing always does.
		expect((await ship("1Z999AA10123456784")).status).toBe(201);
		const response = await ship("1Z999AA10123456785");
		expect(response.status).toBe(201);
		const cost = costOf(response);
		expect(cost).toMatchObject({ do: 2 + WRITE_NOTE.do, r2: 0, queue: 0 });
		// The worker's check of the order, then in the machine: the order's read (items and shipments in
		// one batch), the pricing facts for the packages (book and discount in one batch), the write; then
		// the primary's position, read by the limiter's note.
		expect(cost.d1).toBe(4 + WRITE_NOTE.d1);
		expect(response.headers.get("X-Cost")).toContain(`inner_d1=${3 + WRITE_NOTE.d1}`);
	});
});

describe("round trips of a framed preview", () => {
	it("a preview drawn before is one R2 get from the cache, after the file's row and its R2 head read side by side", async () => {
		const { key, file } = await partnerWithThumbnail();
		const body = { print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075", width_px: 200 };
		expect((await send("POST", "/v1/previews", key, body)).status).toBe(200);
		const response = await send("POST", "/v1/previews", key, body);
		expect(response.status).toBe(200);
		const cost = costOf(response);
		// The limiter; the file's row with its R2 head beside it; the cached preview: two R2 calls, one hop.
		expect(cost).toMatchObject({ do: 1, d1: 1, r2: 1, queue: 0 });
		expect(cost.calls.r2).toBe(2);
		expect(beforeTheAnswer(cost)).toBe(3);
	});
});

describe("round trips of an Idempotency-Key", () => {
	it("a replay is four sequential hops, the limiter, one D1 batch that writes nothing, and the note of a write it may have made; the first request adds that batch and the answer's write", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await withCatalogLoaded(key, body);
		const quoteBody = JSON.stringify({ ship_to: body.ship_to, items: body.items });
		const plain = costOf(await api("/v1/quotes", { method: "POST", key, body: quoteBody }));
		const keyed = () =>
			api("/v1/quotes", { method: "POST", key, headers: { "Idempotency-Key": "cost-of-a-key" }, body: quoteBody });
		const first = await keyed();
		expect(first.status).toBe(201);
		expect(costOf(first).calls.d1).toBe((plain.calls.d1 ?? 0) + 2);
		const replay = await keyed();
		expect(replay.headers.get("Idempotent-Replayed")).toBe("true");
		const cost = costOf(replay);
		// The batch's statements could have written (its SQL says so) and it is a replay only once they ran: noted.
		expect(cost).toMatchObject({ do: 1 + WRITE_NOTE.do, d1: 1 + WRITE_NOTE.d1, r2: 0, queue: 0 });
		expect(cost.calls).toMatchObject({ d1: 1 + WRITE_NOTE.d1, do: 1 + WRITE_NOTE.do });
		expect(replay.headers.get("X-Cost")).toContain(";rows_written=0");
	});
});
