/**
 * Work tickets: `GET /v1/ops/orders/{id}/work-ticket`, the batch `GET /v1/ops/work-tickets` and the
 * console's pages. What a framer cuts, in inches and fractions, a page per item, never a price.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { ITEM_WARNING_WORDS } from "../../src/production/item-words.ts";
import { PAGE_SECURITY_HEADERS } from "../../src/production/slip-page.ts";
import { boxesOfOrder, packageText } from "../../src/production/ticket-boxes.ts";
import { consoleRequest, signedInOperator, textOf } from "../console/console-helpers.ts";
import { MUSEUM_PIECE, MUSEUM_PIECE_CUTS } from "../framing/museum-piece.ts";
import { api, createKeyWithScopes, expectError, send } from "../helpers.ts";
import {
	createOrder,
	externalId,
	orderBody,
	partnerWithFile,
	rawOrder,
	readyFile,
	settleValidation,
	TRACKING,
} from "../orders/order-helpers.ts";
import { FILE_HOST } from "../print-files/file-hosting.ts";

/** A museum-piece order of a fresh partner, in production, and an ops key. */
async function museumOrder() {
	const { key } = await partnerWithFile();
	// 16 × 20 in at 300 DPI.
	const file = await readyFile(key, 4800, 6000);
	const body = orderBody(file, { external_id: externalId("TICKET") }, MUSEUM_PIECE);
	body.items.push({ print_file_id: file, width_in: 8, height_in: 10 } as (typeof body.items)[0]);
	const order = await createOrder(key, body);
	expect((await settleValidation(key, order.id)).status).toBe("in_production");
	return { key, order, ops: await createKeyWithScopes(["ops"]) };
}

function ticketsIn(html: string): string[] {
	return [...html.matchAll(/<section class="ticket" data-item-id="(itm_[^"]+)">/g)].map((match) => match[1] ?? "");
}

describe("GET /v1/ops/orders/{id}/work-ticket", () => {
	it("prints a page per item with every cut size in inches and fractions, a drawing and a QR code", async () => {
		const { order, ops } = await museumOrder();
		const response = await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
		for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
		const html = await response.text();
		expect(ticketsIn(html)).toEqual(order.items.map((item) => item.id));
		const text = textOf(html);
		for (const cut of MUSEUM_PIECE_CUTS) expect(text, cut).toContain(cut);
		expect(text).toContain("Walnut");
		expect(text).toContain("Museum acrylic");
		expect(text).toContain("Make 1");
		expect(text).toContain("Item 1 of 2");
		// No decimals where a framer reads fractions.
		expect(text).not.toMatch(/\b\d+\.(25|5|75|125|375|625|875)\s*in\b/);
		// The drawing is to scale (in inches), and the QR code is drawn inline.
		expect(html).toContain('viewBox="');
		expect((html.match(/<svg/g) ?? []).length).toBeGreaterThanOrEqual(4);
		expect(html).toContain(`${order.id}`);
	});

	it("names each item by place and size, and boxes its warnings in words under the header, never as codes", async () => {
		const { key, ops } = await museumOrder();
		const sharp = await readyFile(key, 2400, 3000);
		// 1600 × 2000 px at 8 × 10 in is 200 DPI: low resolution.
		const small = await readyFile(key, 1600, 2000);
		const body = orderBody(sharp, { external_id: externalId("WARN") });
		const first = body.items[0];
		if (first === undefined) throw new Error("orderBody has no item");
		body.items.push({ ...first, print_file_id: small });
		const order = await settleValidation(key, (await createOrder(key, body)).id);
		expect(order.items.map((item) => item.warnings)).toEqual([[], ["low_resolution"]]);
		const html = await (await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops })).text();
		const [plain = "", warned = ""] = html.split('<section class="ticket"').slice(1);
		expect(textOf(plain)).toContain("Item 1 of 2 · 8 × 10 in");
		expect(plain).not.toContain("warn-box");
		expect(textOf(warned)).toContain("Item 2 of 2 · 8 × 10 in");
		const box = /<div class="warn-box" role="note">([\s\S]*?)<\/div>/.exec(warned)?.[1] ?? "";
		const words = ITEM_WARNING_WORDS.low_resolution;
		expect(textOf(box)).toBe(`Check before framing:${words.title}. ${words.advice}`);
		expect(textOf(html)).not.toContain("low_resolution");
		// The box is drawn with a border on paper and on screen alike: no print-only or screen-only rule hides it.
		expect(html).toMatch(/\.warn-box \{ border: 2pt solid/);
		expect(html).not.toMatch(/@media print \{[^}]*warn-box/);
	});

	it("keeps every measure of the cut list on one line: no size breaks between its whole inches and its fraction", async () => {
		const { order, ops } = await museumOrder();
		const html = await (await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops })).text();
		expect(html).toMatch(/\.measure \{ white-space: nowrap; \}/);
		const cutTables = [...html.matchAll(/<h2>Cut list<\/h2>\s*<table>([\s\S]*?)<\/table>/g)].map(
			(match) => match[1] ?? "",
		);
		expect(cutTables).toHaveLength(order.items.length);
		for (const table of cutTables) {
			// What is left once each measure's span is taken out holds no number followed by a fraction or "in".
			const outsideMeasures = table.replaceAll(/<span class="measure">[^<]*<\/span>/g, "");
			expect(outsideMeasures.match(/[^>]{0,40}(\d+\/\d+|\d\s+in\b|×)[^<]{0,40}/g) ?? []).toEqual([]);
		}
	});

	it("never shows a price", async () => {
		const { order, ops } = await museumOrder();
		const text = textOf(await (await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops })).text());
		expect(text).not.toMatch(/[$€£]\s?\d|\bUSD\b|price|cost/i);
		expect(text).not.toContain(String(order.costs?.total));
	});

	it("a partner key is refused with 403; an unknown order is a 404", async () => {
		const { key, order, ops } = await museumOrder();
		await expectError(await api(`/v1/ops/orders/${order.id}/work-ticket`, { key }), "forbidden");
		await expectError(await api("/v1/ops/orders/ord_nothing/work-ticket", { key: ops }), "not_found", "id");
	});
});

describe("GET /v1/ops/work-tickets", () => {
	it("prints the queue's live orders in production, oldest first, a page per item; test orders only when asked", async () => {
		const live = await museumOrder();
		// A test order in production (the sandbox would move a real one on by itself).
		const { partner } = await partnerWithFile();
		const test = rawOrder({ accountId: partner.account.id, mode: "test" }, "in_production", `${FILE_HOST}/print.png`);
		await insertOrder(env.DB, test.order, test.items, new Date(test.order.created_at));
		const testItem = test.items[0]?.id ?? "";
		const batch = await api("/v1/ops/work-tickets?limit=50", { key: live.ops });
		expect(batch.status).toBe(200);
		const tickets = ticketsIn(await batch.text());
		expect(tickets).toEqual(expect.arrayContaining(live.order.items.map((item) => item.id)));
		expect(tickets).not.toContain(testItem);
		const testBatch = await (await api("/v1/ops/work-tickets?mode=test&limit=50", { key: live.ops })).text();
		expect(ticketsIn(testBatch)).toContain(testItem);
		expect(ticketsIn(testBatch)).not.toContain(live.order.items[0]?.id);
		expect(testBatch).toContain('<span class="test">TEST</span>');
	});

	it("a batch smaller than the queue names the next one in X-Next-Cursor and a link", async () => {
		await museumOrder();
		const { ops } = await museumOrder();
		const first = await api("/v1/ops/work-tickets?limit=1", { key: ops });
		const cursor = first.headers.get("X-Next-Cursor");
		expect(cursor).not.toBeNull();
		const html = await first.text();
		expect(ticketsIn(html)).toHaveLength(2);
		expect(html).toContain("Next tickets");
		const second = await api(`/v1/ops/work-tickets?limit=1&cursor=${encodeURIComponent(cursor ?? "")}`, { key: ops });
		expect(ticketsIn(await second.text())).not.toEqual(ticketsIn(html));
	});

	it("a bad query is a 422 on its field; a partner key is a 403", async () => {
		const { key, ops } = await museumOrder();
		await expectError(await api("/v1/ops/work-tickets?status=lost", { key: ops }), "validation_error", "status");
		await expectError(await api("/v1/ops/work-tickets?limit=51", { key: ops }), "validation_error", "limit");
		await expectError(await api("/v1/ops/work-tickets?cursor=not-ours", { key: ops }), "validation_error", "cursor");
		await expectError(await api("/v1/ops/work-tickets", { key }), "forbidden");
	});
});

describe("the console's work tickets", () => {
	it("the order page links its tickets, which a signed-in operator prints", async () => {
		const operator = await signedInOperator();
		const { order } = await museumOrder();
		const page = await (await consoleRequest(`/ops/orders/${order.id}`, { cookie: operator.cookie })).text();
		expect(page).toContain(`href="/ops/orders/${order.id}/work-ticket"`);
		const tickets = await consoleRequest(`/ops/orders/${order.id}/work-ticket`, { cookie: operator.cookie });
		expect(tickets.status).toBe(200);
		expect(ticketsIn(await tickets.text())).toHaveLength(2);
		const batch = await consoleRequest("/ops/work-tickets?status=in_production", { cookie: operator.cookie });
		expect(batch.status).toBe(200);
		const bad = await consoleRequest("/ops/work-tickets?status=lost", { cookie: operator.cookie });
		expect(bad.status).toBe(422);
	});
});

/** The text of one item's ticket in a document of tickets. */
function ticketOf(html: string, itemId: string): string {
	const start = html.indexOf(`data-item-id="${itemId}"`);
	const end = html.indexOf('<section class="ticket"', start);
	return textOf(html.slice(start, end < 0 ? undefined : end));
}

describe("the work ticket's boxes", () => {
	it("says which box each unit goes in (a box per framed unit, one flat box for the prints) with the sizes the shipment records", async () => {
		const { key, file } = await partnerWithFile();
		const framed = orderBody(file, { external_id: externalId("BOXES") }, { quantity: 2 });
		const prints = [
			{ print_file_id: file, width_in: 8, height_in: 10, quantity: 1 },
			{ print_file_id: file, width_in: 5, height_in: 7, quantity: 2 },
		];
		const created = await createOrder(key, { ...framed, items: [...framed.items, ...prints] });
		const order = await settleValidation(key, created.id);
		expect(order.status).toBe("in_production");
		const ops = await createKeyWithScopes(["ops"]);
		const html = await (await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops })).text();
		const [framedId = "", printId = "", smallId = ""] = order.items.map((item) => item.id);
		const framedTicket = ticketOf(html, framedId);
		expect(framedTicket).toContain("Boxes 1 and 2 of 3, one unit in each");
		expect(ticketOf(html, printId)).toContain(
			"Box 3 of 3: the flat box for the unframed prints, with Item 3 of 3 · 5 × 7 in",
		);
		expect(ticketOf(html, smallId)).toContain(
			"Box 3 of 3: the flat box for the unframed prints, with Item 2 of 3 · 8 × 10 in",
		);

		// The sizes are the ones the shipment of every unit records.
		const shipped = await send("POST", `/v1/ops/orders/${order.id}/shipments`, ops, TRACKING);
		expect(shipped.status).toBe(201);
		const { packages } = (await shipped.json()) as Order["shipments"][number];
		expect(packages).toHaveLength(3);
		const [firstBox, , flatBox] = packages;
		if (firstBox === undefined || flatBox === undefined) throw new Error("no packages");
		expect(framedTicket).toContain(`${packageText(firstBox)} each`);
		expect(ticketOf(html, printId)).toContain(packageText(flatBox));
	});

	it("numbers boxes in item order, and leaves sizes out when the model gives none", () => {
		const frame = { slug: "gallery-black-125", name: "Gallery Black" };
		const items = [
			{ id: "itm_a", name: "Item 1", quantity: 1, frame },
			{ id: "itm_b", name: "Item 2", quantity: 1, frame: null },
			{ id: "itm_c", name: "Item 3", quantity: 3, frame },
		];
		const boxes = boxesOfOrder(items, []);
		expect(boxes.get("itm_a")).toMatchObject({ numbers: [1], total: 5, packages: [] });
		expect(boxes.get("itm_c")).toMatchObject({ numbers: [2, 3, 4], total: 5 });
		expect(boxes.get("itm_b")).toMatchObject({ numbers: [5], flat: true, sharedWith: [] });
	});

	it("an order of one framed piece and one print: the piece goes in box 1 of 2, the print alone in the flat box 2", async () => {
		const { order, ops } = await museumOrder();
		const html = await (await api(`/v1/ops/orders/${order.id}/work-ticket`, { key: ops })).text();
		expect(ticketOf(html, order.items[0]?.id ?? "")).toMatch(/Box 1 of 2 · [\d /]+ × [\d /]+ × 4 in, \d+ lb billable/);
		expect(ticketOf(html, order.items[1]?.id ?? "")).toContain("Box 2 of 2: the flat box for the unframed prints ·");
	});
});
