/**
 * Every order the API accepts, held or not, renders on every floor page: the ops view, the
 * console's order page, the packing slip, the work ticket and the batches of tickets. An item that
 * cannot be built is shown as such, with why, and one bad order never takes a batch down.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { isolateCatalog } from "../../src/catalog/cache.ts";
import type { Order } from "../../src/orders/response.ts";
import { loadOrderSheet } from "../../src/production/order-sheet.ts";
import { renderWorkTickets, ticketItems } from "../../src/production/work-ticket.tsx";
import { consoleRequest, type Operator, signedInOperator, textOf } from "../console/console-helpers.ts";
import { api, createKeyWithScopes } from "../helpers.ts";
import { createOrder, externalId, orderBody, partnerWithFile, settleValidation } from "../orders/order-helpers.ts";

/** A fresh partner's order of one item (`item` over an 8 × 10 framed, matted piece), settled. */
async function settledOrder(item: Record<string, unknown>): Promise<{ key: string; order: Order }> {
	// 16 × 20 in at 300 DPI: the size of every item here is what stops it, never the file.
	const { key, file } = await partnerWithFile({ widthPx: 4800, heightPx: 6000 });
	const created = await createOrder(key, orderBody(file, { external_id: externalId("ODD") }, item));
	return { key, order: await settleValidation(key, created.id) };
}

/** Every floor page of an order, through the API (ops key) and the console (a signed-in operator). */
async function floorPages(orderId: string, ops: string, operator: Operator): Promise<Map<string, Response>> {
	const cookie = operator.cookie;
	return new Map([
		["GET /v1/ops/orders/{id}", await api(`/v1/ops/orders/${orderId}`, { key: ops })],
		["GET /v1/ops/orders/{id}/packing-slip", await api(`/v1/ops/orders/${orderId}/packing-slip`, { key: ops })],
		["GET /v1/ops/orders/{id}/work-ticket", await api(`/v1/ops/orders/${orderId}/work-ticket`, { key: ops })],
		["console order page", await consoleRequest(`/ops/orders/${orderId}`, { cookie })],
		["console packing slip", await consoleRequest(`/ops/orders/${orderId}/packing-slip`, { cookie })],
		["console work ticket", await consoleRequest(`/ops/orders/${orderId}/work-ticket`, { cookie })],
	]);
}

/** The batches of tickets of `status` (API and console), which must print whatever else is in them. */
async function batchPages(status: string, ops: string, operator: Operator): Promise<Map<string, Response>> {
	const query = `status=${status}&limit=50`;
	return new Map([
		[`GET /v1/ops/work-tickets?${query}`, await api(`/v1/ops/work-tickets?${query}`, { key: ops })],
		[`console work tickets ?${query}`, await consoleRequest(`/ops/work-tickets?${query}`, { cookie: operator.cookie })],
	]);
}

/** Every page is a 200; returns their texts by name. */
async function expectAllOk(pages: Map<string, Response>): Promise<Map<string, string>> {
	const texts = new Map<string, string>();
	for (const [name, response] of pages) {
		const body = await response.text();
		expect(response.status, `${name}: ${body.slice(0, 300)}`).toBe(200);
		texts.set(name, body);
	}
	return texts;
}

/** The text of a ticket page, the item's section alone. */
function ticketText(html: string, itemId: string): string {
	const start = html.indexOf(`data-item-id="${itemId}"`);
	expect(start, "the item's ticket").toBeGreaterThan(-1);
	const end = html.indexOf("</section>", start);
	return textOf(html.slice(start, end));
}

// Each test renders every floor page and batch (about two seconds alone): a loaded full run took over 5 s.
describe("floor pages of orders the API accepts but cannot build", { timeout: 30_000 }, () => {
	it("a size that is not whole sixteenths (16.3 in) renders on every floor page and every batch, in decimals", async () => {
		const { order } = await settledOrder({ width_in: 16.3, height_in: 20 });
		expect(order.status).toBe("on_hold");
		expect(order.hold_reason).toBe("size_not_offered");
		const ops = await createKeyWithScopes(["ops"]);
		const operator = await signedInOperator();
		const pages = await expectAllOk(await floorPages(order.id, ops, operator));
		const itemId = order.items[0]?.id ?? "";
		const ticket = ticketText(pages.get("GET /v1/ops/orders/{id}/work-ticket") ?? "", itemId);
		expect(ticket).toContain("16.3 × 20 in");
		expect(ticket).toContain("cannot be built until it is fixed");
		expect(ticket).toContain("16.3 in is not offered");
		const orderPage = textOf(pages.get("console order page") ?? "");
		expect(orderPage).toContain("16.3 × 20 in");
		expect(orderPage).toContain("Cannot be built until it is fixed:");
		expect(orderPage).toContain("16.3 in is not offered");
		await expectAllOk(await batchPages("on_hold", ops, operator));
	});

	it("a print too small for its mat (1/8 × 10 in) shows why instead of a negative opening", async () => {
		const { order } = await settledOrder({ width_in: 0.125, height_in: 10 });
		expect(order.status).toBe("on_hold");
		const ops = await createKeyWithScopes(["ops"]);
		const operator = await signedInOperator();
		const pages = await expectAllOk(await floorPages(order.id, ops, operator));
		const ticket = ticketText(pages.get("console work ticket") ?? "", order.items[0]?.id ?? "");
		expect(ticket).toContain("1/8 × 10 in");
		expect(ticket).toContain("cannot be built until it is fixed");
		expect(ticket).not.toMatch(/(^|[\s(])-\d/);
		await expectAllOk(await batchPages("on_hold", ops, operator));
	});

	it("unknown frame and mat slugs are named on the ticket, with no moulding, no flat shipping and no outside size made up", async () => {
		const { order } = await settledOrder({
			width_in: 16,
			height_in: 20,
			frame: "no-such-frame",
			mat: "no-such-mat",
		});
		expect(order.status).toBe("on_hold");
		const ops = await createKeyWithScopes(["ops"]);
		const operator = await signedInOperator();
		const pages = await expectAllOk(await floorPages(order.id, ops, operator));
		const ticket = ticketText(pages.get("GET /v1/ops/orders/{id}/work-ticket") ?? "", order.items[0]?.id ?? "");
		expect(ticket).toContain("cannot be built until it is fixed");
		expect(ticket).toContain('No frame "no-such-frame" in the catalog');
		expect(ticket).toContain('No mat "no-such-mat" in the catalog');
		expect(ticket).not.toContain("Unframed");
		expect(ticket).not.toContain("ships flat");
		expect(ticket).not.toMatch(/Outside/i);
	});

	it("an order canceled while held still renders, and so does the canceled batch", async () => {
		const { key, order } = await settledOrder({ width_in: 16.3, height_in: 20 });
		const canceled = await api(`/v1/orders/${order.id}/cancel`, { key, method: "POST" });
		expect(canceled.status).toBe(200);
		const ops = await createKeyWithScopes(["ops"]);
		const operator = await signedInOperator();
		await expectAllOk(await floorPages(order.id, ops, operator));
		await expectAllOk(await batchPages("canceled", ops, operator));
	});
});

describe("a batch of tickets with one that cannot be drawn", () => {
	it("a ticket that fails to draw is replaced by a notice naming its item, and the others still print", async () => {
		const { order } = await settledOrder({ width_in: 16, height_in: 20 });
		const sheet = await loadOrderSheet(env, order.id);
		if (sheet === null) throw new Error("no sheet");
		const [good] = ticketItems([sheet], new Map());
		if (good === undefined) throw new Error("no item");
		const broken = {
			sheet,
			boxes: null,
			item: Object.defineProperty({ ...good.item, id: "itm_broken" }, "spec", {
				get() {
					throw new Error("a drawing that fails");
				},
			}),
		};
		const { catalog } = await isolateCatalog.get(env.DB);
		const html = await renderWorkTickets([broken, good], catalog, {
			title: "Work tickets",
			next: null,
			unread: [{ id: "ord_unread", externalId: "PO-UNREAD" }],
		});
		expect(ticketText(html, "itm_broken")).toContain("This ticket could not be drawn");
		expect(ticketText(html, good.item.id)).toContain("Cut list");
		expect(textOf(html)).toContain("Order PO-UNREAD (ord_unread) could not be read");
	});
});
