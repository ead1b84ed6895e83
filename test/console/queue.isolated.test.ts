import { beforeAll, describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import {
	alertOf,
	consoleRequest,
	htmlOf,
	insertOrderIn,
	type Operator,
	SERVICE_NAMES,
	signedInOperator,
} from "./console-helpers.ts";

/** The order ids of a queue page's rows, top to bottom. */
function rowIds(html: string): string[] {
	return [...html.matchAll(/<tr data-order-id="(ord_[0-9A-Za-z]+)">/g)].map((match) => match[1] ?? "");
}

/** The "Next page" link of a queue page, or null. */
function nextPageOf(html: string): string | null {
	const href = /<a href="([^"]+)">Next page<\/a>/.exec(html)?.[1];
	return href === undefined ? null : href.replaceAll("&amp;", "&");
}

// Storage is per test file: these are all the orders there are, so the counts are exact.
const HARBOUR = "Harbour Museum Store";
const LUMEN = "Lumen Prints";
let operator: Operator;
let oldestInProduction: { id: string; externalId: string };
let heldOrder: { id: string; externalId: string };
let testModeOrder: { id: string; externalId: string };
let oldDelivered: { id: string; externalId: string };
let shippedOrder: { id: string; externalId: string };
const inProductionIds: string[] = [];

beforeAll(async () => {
	operator = await signedInOperator();
	const harbour = await createPartner(HARBOUR);
	const lumen = await createPartner(LUMEN);
	const live = (partner: typeof harbour) => ({ accountId: partner.account.id, mode: "live" as const });
	const start = Date.parse("2026-01-05T08:00:00.000Z");
	const at = (minutes: number) => new Date(start + minutes * 60_000);
	// Finished work older than everything still to do: it must not sit on top of the queue.
	oldDelivered = await insertOrderIn(live(lumen), "delivered", { externalId: "PO-0999", now: at(-60) });
	oldestInProduction = await insertOrderIn(live(harbour), "in_production", { externalId: "PO-1001", now: at(0) });
	inProductionIds.push(oldestInProduction.id);
	for (let index = 1; index <= 54; index++) {
		const owner = index % 2 === 0 ? live(harbour) : live(lumen);
		inProductionIds.push((await insertOrderIn(owner, "in_production", { now: at(index) })).id);
	}
	heldOrder = await insertOrderIn(live(lumen), "on_hold", { externalId: "PO-HOLD", now: at(100) });
	testModeOrder = await insertOrderIn({ accountId: harbour.account.id, mode: "test" }, "shipped", {
		externalId: "PO-TEST",
		now: at(101),
	});
	shippedOrder = await insertOrderIn(live(harbour), "shipped", { now: at(102) });
	await insertOrderIn(live(harbour), "canceled", { now: at(103) });
});

describe("GET /ops/orders", () => {
	it("shows the heading, To do (the default) with its count, a filter per status with its count, and All with the total", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
		expect(html).toContain("<h1>Production queue</h1>");
		expect(html).toContain('<a href="/ops/orders" aria-current="page">To do (56)</a>');
		expect(html).toContain('<a href="/ops/orders?status=all">All (59)</a>');
		expect(html).toContain('<a href="/ops/orders?status=received">Received (0)</a>');
		expect(html).toContain('<a href="/ops/orders?status=validating">Validating (0)</a>');
		expect(html).toContain('<a href="/ops/orders?status=in_production">In production (55)</a>');
		expect(html).toContain('<a href="/ops/orders?status=on_hold">On hold (1)</a>');
		expect(html).toContain('<a href="/ops/orders?status=shipped">Shipped (1)</a>');
		expect(html).toContain('<a href="/ops/orders?status=delivered">Delivered (1)</a>');
		expect(html).toContain('<a href="/ops/orders?status=canceled">Canceled (1)</a>');
	});

	it("by default lists the work still to do (before shipped), oldest first: a delivered order older than all of it is not listed", async () => {
		const first = await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
		const second = await htmlOf(await consoleRequest(nextPageOf(first) ?? "", { cookie: operator.cookie }), 200);
		const listed = [...rowIds(first), ...rowIds(second)];
		expect(listed).toEqual([...inProductionIds, heldOrder.id]);
		expect(listed).not.toContain(oldDelivered.id);
		expect(listed).not.toContain(shippedOrder.id);
		// All lists every status, oldest first, the finished orders included.
		const all = await htmlOf(await consoleRequest("/ops/orders?status=all", { cookie: operator.cookie }), 200);
		expect(all).toContain('<a href="/ops/orders?status=all" aria-current="page">All (59)</a>');
		expect(rowIds(all)[0]).toBe(oldDelivered.id);
	});

	it("a search covers every status unless a status is picked: a packer's scan finds a shipped order", async () => {
		const found = await htmlOf(
			await consoleRequest(`/ops/orders?q=${oldDelivered.externalId}&account_id=&status=&mode=live`, {
				cookie: operator.cookie,
			}),
			200,
		);
		expect(rowIds(found)).toEqual([oldDelivered.id]);
	});

	it("lists every account's orders oldest first, each row linking to its order page with partner, mode, status, items and time", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
		const ids = rowIds(html);
		expect(ids).toHaveLength(50);
		expect(ids[0]).toBe(oldestInProduction.id);
		const firstRow = /<tr data-order-id="ord_[^"]+">([\s\S]*?)<\/tr>/.exec(html)?.[1] ?? "";
		expect(firstRow).toContain(`<a class="order-link" href="/ops/orders/${oldestInProduction.id}">PO-1001</a>`);
		expect(firstRow).toContain(`<td data-label="Partner">${HARBOUR}</td>`);
		expect(firstRow).toContain('<td data-label="Mode">live</td>');
		expect(firstRow).toContain('<span class="status status-in_production">In production</span>');
		expect(firstRow).toContain('<td data-label="Items" class="num">1</td>');
		expect(firstRow).toContain('<time datetime="2026-01-05T08:00:00.000Z">2026-01-05 08:00 UTC</time>');
		expect(html).toContain(`<td data-label="Partner">${LUMEN}</td>`);
	});

	it("pages with a Next page link until the queue runs out, without repeats or gaps", async () => {
		const first = await htmlOf(await consoleRequest("/ops/orders?status=all", { cookie: operator.cookie }), 200);
		const next = nextPageOf(first);
		expect(next).toMatch(/^\/ops\/orders\?status=all&cursor=/);
		const second = await htmlOf(await consoleRequest(next ?? "", { cookie: operator.cookie }), 200);
		expect(nextPageOf(second)).toBeNull();
		const all = [...rowIds(first), ...rowIds(second)];
		expect(all).toHaveLength(59);
		expect(new Set(all).size).toBe(59);
	});

	it("filters by status, marking the active filter, and keeps the filter on the next page", async () => {
		const held = await htmlOf(await consoleRequest("/ops/orders?status=on_hold", { cookie: operator.cookie }), 200);
		expect(rowIds(held)).toEqual([heldOrder.id]);
		expect(held).toContain('<a href="/ops/orders?status=on_hold" aria-current="page">On hold (1)</a>');
		expect(held).toContain('<a href="/ops/orders?status=all">All (59)</a>');

		const inProduction = await htmlOf(
			await consoleRequest("/ops/orders?status=in_production", { cookie: operator.cookie }),
			200,
		);
		const next = nextPageOf(inProduction);
		expect(next).toMatch(/^\/ops\/orders\?status=in_production&cursor=/);
		const rest = await htmlOf(await consoleRequest(next ?? "", { cookie: operator.cookie }), 200);
		expect([...rowIds(inProduction), ...rowIds(rest)]).toEqual(inProductionIds);
	});

	it("shows live orders by default, and test-mode orders, with their mode, only when asked", async () => {
		const live = await htmlOf(await consoleRequest("/ops/orders?status=shipped", { cookie: operator.cookie }), 200);
		expect(rowIds(live)).not.toContain(testModeOrder.id);
		const html = await htmlOf(
			await consoleRequest("/ops/orders?status=shipped&mode=test", { cookie: operator.cookie }),
			200,
		);
		expect(rowIds(html)).toEqual([testModeOrder.id]);
		const row = new RegExp(`<tr data-order-id="${testModeOrder.id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
		expect(row).toContain('<td data-label="Mode">test</td>');
		expect(html).toContain('<a href="/ops/orders?status=shipped&amp;mode=test" aria-current="page">Shipped (1)</a>');
	});

	it("says so when a filter has no orders", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders?status=validating", { cookie: operator.cookie }), 200);
		expect(rowIds(html)).toEqual([]);
		expect(html).toContain("No orders here.");
	});

	it("an unknown status is a 422 page with the error and the filters, not JSON", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders?status=lost", { cookie: operator.cookie }), 422);
		expect(alertOf(html)).toMatch(/no status "lost"/);
		expect(html).toContain('<a href="/ops/orders?status=all">All (59)</a>');
		expect(rowIds(html)).toEqual([]);
	});

	it("a cursor the console did not issue is a 422 page, not JSON", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders?cursor=%21%21", { cookie: operator.cookie }), 422);
		expect(alertOf(html)).toMatch(/cursor/);
	});

	it("escapes what partners wrote (external ids, names) instead of rendering it as markup", async () => {
		const partner = await createPartner("<b>Bold</b> & Co");
		await insertOrderIn({ accountId: partner.account.id, mode: "live" }, "received", {
			externalId: "<script>alert(1)</script>",
		});
		const html = await htmlOf(await consoleRequest("/ops/orders?status=received", { cookie: operator.cookie }), 200);
		expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
		expect(html).toContain("&lt;b&gt;Bold&lt;/b&gt; &amp; Co");
		expect(html).not.toContain("<script>");
	});

	it("never names the service itself", async () => {
		const html = await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
		expect(html).not.toMatch(SERVICE_NAMES);
		expect(html).toContain("Production floor");
	});
});
