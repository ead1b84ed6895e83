/** The queue as the floor works it: search, partner and mode filters, hours in status, the late flag, the largest piece. */
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "../orders/order-helpers.ts";
import { consoleRequest, htmlOf, insertOrderIn, type Operator, signedInOperator, textOf } from "./console-helpers.ts";

function rowIds(html: string): string[] {
	return [...html.matchAll(/<tr data-order-id="(ord_[0-9A-Za-z]+)">/g)].map((match) => match[1] ?? "");
}

function rowOf(html: string, orderId: string): string {
	return new RegExp(`<tr data-order-id="${orderId}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
}

let operator: Operator;
let harbour: Awaited<ReturnType<typeof createPartner>>;
let lumen: Awaited<ReturnType<typeof createPartner>>;
let late: { id: string; externalId: string };
let fresh: { id: string; externalId: string };
let held: { id: string; externalId: string };

beforeAll(async () => {
	operator = await signedInOperator();
	harbour = await createPartner("Harbour Museum Store");
	lumen = await createPartner("Lumen Prints");
	const hoursAgo = (hours: number) => new Date(Date.now() - hours * 3_600_000);
	late = await insertOrderIn({ accountId: harbour.account.id, mode: "live" }, "in_production", {
		externalId: "HMS-LATE",
		now: hoursAgo(80),
	});
	fresh = await insertOrderIn({ accountId: lumen.account.id, mode: "live" }, "in_production", {
		externalId: "LUM-FRESH",
		now: hoursAgo(5),
	});
	held = await insertOrderIn({ accountId: lumen.account.id, mode: "live" }, "on_hold", { externalId: "LUM-HELD" });
	await env.DB.prepare("UPDATE orders SET hold_reason = 'frame_not_found' WHERE id = ?1").bind(held.id).run();
});

async function queue(query: string): Promise<string> {
	return htmlOf(await consoleRequest(`/ops/orders${query}`, { cookie: operator.cookie }), 200);
}

describe("the console's queue: finding an order", () => {
	it("finds an order by the partner's number, by its id, or by part of the partner's name", async () => {
		expect(rowIds(await queue("?q=HMS-LATE"))).toEqual([late.id]);
		expect(rowIds(await queue(`?q=${fresh.id}`))).toEqual([fresh.id]);
		const lumens = rowIds(await queue("?q=lumen"));
		expect(lumens).toEqual(expect.arrayContaining([fresh.id, held.id]));
		expect(lumens).not.toContain(late.id);
		// The search stays in the box, and in the next page's link.
		expect(await queue("?q=lumen")).toContain('<input id="q" name="q" type="text" value="lumen" maxlength="128"/>');
	});

	it("takes the form as a browser sends it: fields left empty are no filter", async () => {
		expect(rowIds(await queue("?q=HMS-LATE&account_id=&status=&mode=live"))).toEqual([late.id]);
	});

	it("filters by partner, with the partner picked in the form", async () => {
		const html = await queue(`?account_id=${harbour.account.id}`);
		expect(rowIds(html)).toEqual([late.id]);
		expect(html).toContain(`<option value="${harbour.account.id}" selected="">Harbour Museum Store</option>`);
	});

	it("shows hours in the current status, and flags an order in production past 72 hours as late", async () => {
		const html = await queue("?status=in_production");
		expect(rowOf(html, late.id)).toMatch(/<span class="late"[^>]*>80 · late<\/span>/);
		expect(rowOf(html, fresh.id)).toContain('<td data-label="Hours in status" class="num">5</td>');
	});

	it("says a hold's reason in words", async () => {
		const html = await queue("?status=on_hold");
		expect(rowOf(html, held.id)).toContain('<div class="warning">Frame not in the catalog</div>');
	});

	it("shows the largest finished piece of a priced order", async () => {
		const key = lumen.keys.live.key;
		const file = await readyFile(key, 4800, 6000);
		const body = orderBody(file, {}, { width_in: 16, height_in: 20, frame: "walnut-flat-125", mat: "bright-white" });
		body.items.push({ print_file_id: file, width_in: 8, height_in: 10 } as (typeof body.items)[0]);
		const order = await createOrder(key, body);
		await settleValidation(key, order.id);
		// 16 × 20 in, 2 in borders, a 1 1/4 in moulding: 22 1/2 × 26 1/2 in outside.
		expect(rowOf(await queue(`?q=${order.id}`), order.id)).toContain(
			'<td data-label="Largest piece" class="nowrap">22 1/2 × 26 1/2 in</td>',
		);
	});

	it("a filter that cannot be used is a 422 page saying which", async () => {
		const response = await consoleRequest("/ops/orders?mode=sandbox", { cookie: operator.cookie });
		expect(response.status).toBe(422);
		expect(await response.text()).toContain("The mode filter cannot be used");
	});
});

describe("the console's queue: long searches and many partners", () => {
	it("finds a 61-character partner's number, and answers a search over 48 bytes with the page, not an error", async () => {
		const externalId = `HMS-${"4".repeat(57)}`;
		expect(externalId).toHaveLength(61);
		const long = await insertOrderIn({ accountId: harbour.account.id, mode: "live" }, "in_production", { externalId });
		expect(rowIds(await queue(`?q=${externalId}`))).toEqual([long.id]);
		for (const q of ["x".repeat(49), "%".repeat(25), "🖼".repeat(13), "z".repeat(128)]) {
			const html = await queue(`?q=${encodeURIComponent(q)}`);
			expect(html).toContain("No orders here.");
			expect(html).not.toContain('id="partner-search"');
		}
	});

	it("says when more partners' names match than the search covers, and lists the first 100's orders by name", async () => {
		const created = new Date().toISOString();
		const ids = Array.from({ length: 104 }, (_, index) => `acct_many${String(index + 1).padStart(3, "0")}`);
		await env.DB.batch(
			ids.map((id, index) =>
				env.DB.prepare("INSERT INTO accounts (id, name, created_at) VALUES (?1, ?2, ?3)").bind(
					id,
					`Many Framers ${String(index + 1).padStart(3, "0")}`,
					created,
				),
			),
		);
		const first = await insertOrderIn({ accountId: ids[0] ?? "", mode: "live" }, "in_production");
		await insertOrderIn({ accountId: ids[103] ?? "", mode: "live" }, "in_production");
		const html = await queue("?q=many+framers");
		expect(rowIds(html)).toEqual([first.id]);
		expect(textOf(/<p class="warning" id="partner-search">([\s\S]*?)<\/p>/.exec(html)?.[1] ?? "")).toBe(
			"More than 100 partners' names contain “many framers”: only the orders of the first 100 by name are listed. " +
				"Type more of the name, or pick the partner.",
		);
		expect(await queue("?q=many+framers+10")).not.toContain('id="partner-search"');
	});
});
