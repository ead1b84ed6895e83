/**
 * Address warnings (`ship_to_warnings`) as the floor reads them: in words on the console's order page
 * and the work ticket, so a box is not sent to an address a carrier may refuse; on the packing slip,
 * the buyer's paper, only on screen for the packer, never printed.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { ADDRESS_WARNING_TITLES } from "../../src/production/address-words.ts";
import { consoleRequest, htmlOf, type Operator, signedInOperator, textOf } from "../console/console-helpers.ts";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, SHIP_TO, settleValidation } from "../orders/order-helpers.ts";

/** A first line longer than a label prints, and a ZIP code of California for an address in Maine. */
const WARNED_SHIP_TO = {
	...SHIP_TO,
	address1: "1234 Extraordinarily Long Boulevard Northeast",
	zip: "90210",
};

let operator: Operator;
let warned: Order;
let clean: Order;

beforeAll(async () => {
	operator = await signedInOperator();
	const key = (await createPartner("Address Check Gallery")).keys.live.key;
	const file = await readyFile(key, 2400, 3000);
	warned = await settleValidation(key, (await createOrder(key, orderBody(file, { ship_to: WARNED_SHIP_TO }))).id);
	clean = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
	expect(warned.ship_to_warnings.map((warning) => warning.code)).toEqual([
		"address_line_too_long",
		"postcode_state_mismatch",
	]);
});

async function floorPage(path: string): Promise<string> {
	return htmlOf(await consoleRequest(path, { cookie: operator.cookie }), 200);
}

/** The markup from the element carrying `data-testid="<id>"` to the end of its section or div. */
function marked(html: string, id: string): string {
	const start = html.indexOf(`data-testid="${id}"`);
	if (start < 0) return "";
	const end = html.indexOf("</section>", start);
	return html.slice(start, end < 0 ? undefined : end);
}

describe("address warnings on the floor's pages", () => {
	it("the order page shows each address warning in words in a banner above the facts", async () => {
		const html = await floorPage(`/ops/orders/${warned.id}`);
		const banner = textOf(marked(html, "address-warnings"));
		expect(banner).toContain("Check the address before shipping");
		expect(banner).toContain(ADDRESS_WARNING_TITLES.address_line_too_long);
		expect(banner).toContain(ADDRESS_WARNING_TITLES.postcode_state_mismatch);
		expect(banner).toContain("ZIP code 90210 is not one of ME's");
		expect(html.indexOf('data-testid="address-warnings"')).toBeLessThan(html.indexOf("Ship to"));
		expect(marked(await floorPage(`/ops/orders/${clean.id}`), "address-warnings")).toBe("");
	});

	it("the queue's row tags each address warning under the order's number", async () => {
		const html = await floorPage(`/ops/orders?q=${warned.id}`);
		const row = new RegExp(`<tr data-order-id="${warned.id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
		expect(textOf(row)).toContain(`${ADDRESS_WARNING_TITLES.postcode_state_mismatch} · Ship to`);
		expect(textOf(row)).toContain(`${ADDRESS_WARNING_TITLES.address_line_too_long} · Ship to`);
	});

	it("the work ticket shows each address warning in a box on screen and on paper", async () => {
		const html = await floorPage(`/ops/orders/${warned.id}/work-ticket`);
		const box = textOf(marked(html, "address-warnings"));
		expect(box).toContain("Check the address before the box is sent");
		expect(box).toContain(ADDRESS_WARNING_TITLES.address_line_too_long);
		expect(box).toContain(ADDRESS_WARNING_TITLES.postcode_state_mismatch);
		expect(marked(await floorPage(`/ops/orders/${clean.id}/work-ticket`), "address-warnings")).toBe("");
	});

	it("the packing slip shows the address warnings to the packer on screen only: they never print for the buyer", async () => {
		const html = await floorPage(`/ops/orders/${warned.id}/packing-slip`);
		const notice = marked(html, "address-warnings");
		expect(textOf(notice)).toContain(ADDRESS_WARNING_TITLES.postcode_state_mismatch);
		expect(notice).toMatch(/^data-testid="address-warnings"[^>]*class="screen-only"|class="screen-only"/);
		expect(html).toMatch(/@media print \{[^}]*\.screen-only \{ display: none; \}/);
		expect(marked(await floorPage(`/ops/orders/${clean.id}/packing-slip`), "address-warnings")).toBe("");
	});
});
