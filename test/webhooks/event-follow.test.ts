/**
 * `GET /v1/events?after=`: the event log read forward, oldest first, as `framed-print listen` follows
 * it. The events are written straight to D1 with chosen times, so the order, the settle margin and the
 * paging are exact; the query's plan is asked of SQLite.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { eventPosition, listEventsAfter, newEventId } from "../../src/webhooks/event-store.ts";
import { api, createPartner, expectError } from "../helpers.ts";
import { insertRawOrder } from "../orders/order-helpers.ts";

type FollowedEvent = { id: string; type: string; order_id: string; created_at: string; body: Record<string, unknown> };
type EventPage = { data: FollowedEvent[]; next_cursor: string | null };

async function page(key: string, query: string): Promise<EventPage> {
	const response = await api(`/v1/events?${query}`, { key });
	if (response.status !== 200) throw new Error(`GET /v1/events?${query}: ${response.status} ${await response.text()}`);
	return (await response.json()) as EventPage;
}

/** An event row of `order`, created `secondsAgo` before now. */
async function insertEvent(
	owner: { accountId: string; mode: "live" | "test" },
	orderId: string,
	type: string,
	secondsAgo: number,
): Promise<string> {
	const id = newEventId();
	const createdAt = new Date(Date.now() - secondsAgo * 1000).toISOString();
	const body = JSON.stringify({ id, event: type, created_at: createdAt, order_id: orderId });
	await env.DB.prepare(
		"INSERT INTO events (id, account_id, mode, order_id, type, body, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	)
		.bind(id, owner.accountId, owner.mode, orderId, type, body, createdAt)
		.run();
	return id;
}

/** A partner with a live order and five of its events, 50 to 10 s old, and one just now (not settled). */
async function partnerWithEvents() {
	const partner = await createPartner("Follow Gallery");
	const owner = { accountId: partner.account.id, mode: "live" as const };
	const order = await insertRawOrder(owner, "in_production", "https://example.com/art.tif");
	const settled: string[] = [];
	for (const [secondsAgo, type] of [
		[50, "order.received"],
		[40, "order.in_production"],
		[30, "order.updated"],
		[20, "order.shipped"],
		[10, "order.delivered"],
	] as const) {
		settled.push(await insertEvent(owner, order.id, type, secondsAgo));
	}
	const fresh = await insertEvent(owner, order.id, "order.canceled", 0);
	return { partner, owner, order, settled, fresh, key: partner.keys.live.key };
}

describe("GET /v1/events?after=", () => {
	it("reads the log forward, oldest first, strictly after the given event, page by page, and leaves out the last 2 seconds", async () => {
		const { partner, settled, fresh, key } = await partnerWithEvents();
		// Another owner's events and the other mode's are not read.
		const other = await createPartner("Other Follow Gallery");
		const otherOwner = { accountId: other.account.id, mode: "live" as const };
		const otherOrder = await insertRawOrder(otherOwner, "in_production", "https://example.com/art.tif");
		await insertEvent(otherOwner, otherOrder.id, "order.shipped", 25);

		const fromStart = await page(key, "after=start&limit=2");
		expect(fromStart.data.map((event) => event.id)).toEqual(settled.slice(0, 2));
		expect(fromStart.next_cursor).toBeNull();
		const next = await page(key, `after=${fromStart.data.at(-1)?.id}&limit=2`);
		expect(next.data.map((event) => event.id)).toEqual(settled.slice(2, 4));
		const last = await page(key, `after=${next.data.at(-1)?.id}&limit=2`);
		expect(last.data.map((event) => event.id)).toEqual(settled.slice(4));
		expect(last.data.map((event) => event.id)).not.toContain(fresh);
		// The body as recorded, parsed.
		expect(last.data[0]?.body).toMatchObject({ id: settled[4], event: "order.delivered" });

		// Filters: a type, an order.
		const shipped = await page(key, "after=start&type=order.shipped");
		expect(shipped.data.map((event) => event.id)).toEqual([settled[3]]);
		const byOrder = await page(key, `after=${settled[0]}&order_id=${last.data[0]?.order_id}&limit=100`);
		expect(byOrder.data.map((event) => event.id)).toEqual(settled.slice(1));

		// The test mode sees none of the live mode's.
		expect((await page(partner.keys.test.key, "after=start")).data).toEqual([]);
	});

	it("refuses an event it does not know (404 event_not_found on after) and after with cursor or delivery_status (422 after_not_combinable)", async () => {
		const { settled, key } = await partnerWithEvents();
		const unknown = await expectError(await api("/v1/events?after=evt_doesnotexist", { key }), "not_found", "after");
		expect(unknown.code).toBe("event_not_found");
		expect(unknown.message).toMatch(/after=start/);

		const other = await createPartner("Stranger Gallery");
		const stranger = await expectError(
			await api(`/v1/events?after=${settled[0]}`, { key: other.keys.live.key }),
			"not_found",
			"after",
		);
		expect(stranger.code).toBe("event_not_found");

		const withCursor = await expectError(
			await api(`/v1/events?after=${settled[0]}&cursor=abc`, { key }),
			"validation_error",
			"cursor",
		);
		expect(withCursor.code).toBe("after_not_combinable");
		const withStatus = await expectError(
			await api(`/v1/events?after=start&delivery_status=failed`, { key }),
			"validation_error",
			"delivery_status",
		);
		expect(withStatus.code).toBe("after_not_combinable");
	});

	it("finds the page through events_by_owner in its order, from the position on (no scan, no sort)", async () => {
		const { owner, settled } = await partnerWithEvents();
		const statements: Array<{ sql: string; params: unknown[] }> = [];
		const recording = new Proxy(env.DB, {
			get(target, property, receiver) {
				if (property !== "prepare") return Reflect.get(target, property, receiver);
				return (sql: string) => {
					const prepared = target.prepare(sql);
					return new Proxy(prepared, {
						get(statement, name, statementReceiver) {
							if (name !== "bind") return Reflect.get(statement, name, statementReceiver);
							return (...params: unknown[]) => {
								statements.push({ sql, params });
								return statement.bind(...params);
							};
						},
					});
				};
			},
		});
		const after = await eventPosition(env.DB, owner, settled[0] ?? "");
		const settledBefore = new Date(Date.now() - 2000);
		const read = await listEventsAfter(recording, owner, { after, settledBefore, limit: 10 });
		expect(read.map((event) => event.id)).toEqual(settled.slice(1));
		const [statement] = statements;
		if (statement === undefined) throw new Error("no statement recorded");
		const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${statement.sql}`)
			.bind(...statement.params)
			.all<{ detail: string }>();
		const plan = results.map((row) => row.detail);
		expect(plan.join("\n")).toMatch(
			/SEARCH e USING INDEX events_by_owner \(account_id=\? AND mode=\? AND \(created_at, ?id\)>\(\?, ?\?\)/,
		);
		expect(plan.join("\n")).not.toMatch(/TEMP B-TREE|SCAN e\b/);
	});
});
