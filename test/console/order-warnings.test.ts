/**
 * Warnings and holds as the floor reads them: every item warning in words on the order page (a
 * banner above everything, and the item's own row) and on the queue's row; items named by place and
 * size; and no release, shown or forged, of a hold only the partner can fix.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { ITEM_WARNING_WORDS } from "../../src/production/item-words.ts";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "../orders/order-helpers.ts";
import {
	alertOf,
	consoleRequest,
	htmlOf,
	type Operator,
	postForm,
	signedInOperator,
	statusOf,
	textOf,
} from "./console-helpers.ts";

const LOW = ITEM_WARNING_WORDS.low_resolution;
const CROPPED = ITEM_WARNING_WORDS.image_cropped;

let operator: Operator;
let warned: Order;
let held: Order;

/** The text of the `<section>` whose heading has `id`. */
function sectionText(html: string, headingId: string): string {
	const start = html.indexOf(`id="${headingId}"`);
	if (start < 0) throw new Error(`no section ${headingId}`);
	return textOf(html.slice(start, html.indexOf("</section>", start)));
}

/** The text of the first cell of the row `<tr data-…="id">`. */
function firstCellOf(html: string, attribute: string, id: string): string {
	const row = new RegExp(`<tr ${attribute}="${id}">([\\s\\S]*?)</tr>`).exec(html)?.[1] ?? "";
	return textOf(/<td[^>]*>([\s\S]*?)<\/td>/.exec(row)?.[1] ?? "");
}

beforeAll(async () => {
	operator = await signedInOperator();
	const key = (await createPartner("Warned Gallery")).keys.live.key;
	// At 8 × 10 in, 2400 × 3000 px is 300 DPI and 1600 × 2000 px is 200 DPI (low resolution). A 3000 px
	// square fills 16 × 20 in at 150 DPI (low resolution) by cutting off a fifth of the image (cropped).
	const [sharp, small, square] = await Promise.all([
		readyFile(key, 2400, 3000),
		readyFile(key, 1600, 2000),
		readyFile(key, 3000, 3000),
	]);
	const body = orderBody(sharp);
	const first = body.items[0];
	if (first === undefined) throw new Error("orderBody has no item");
	body.items = [
		first,
		{ ...first, print_file_id: small },
		{ ...first, print_file_id: square, width_in: 16, height_in: 20 },
	];
	warned = await settleValidation(key, (await createOrder(key, body)).id);
	expect(warned.status).toBe("in_production");
	expect(warned.items.map((item) => item.warnings)).toEqual([
		[],
		["low_resolution"],
		["low_resolution", "image_cropped"],
	]);
	held = await settleValidation(key, (await createOrder(key, orderBody(sharp, {}, { frame: "no-such-frame" }))).id);
	expect(held.hold_reason).toBe("frame_not_found");
});

describe("the order page's warnings", () => {
	it("a banner above the items names each warned item by place and size and says each warning in words", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${warned.id}`, { cookie: operator.cookie }), 200);
		expect(html.indexOf('id="warnings-heading"')).toBeLessThan(html.indexOf('id="items-heading"'));
		const banner = sectionText(html, "warnings-heading");
		expect(banner).toContain(`Check before framing`);
		expect(banner).toContain(`Item 2 of 3 · 8 × 10 in: ${LOW.title}. ${LOW.advice}`);
		expect(banner).toContain(`Item 3 of 3 · 16 × 20 in: ${LOW.title}. ${LOW.advice}`);
		expect(banner).toContain(`Item 3 of 3 · 16 × 20 in: ${CROPPED.title}. ${CROPPED.advice}`);
		expect(banner).not.toContain("Item 1 of 3");
		expect(banner).not.toContain("low_resolution");
	});

	it("each item's first cell names it by place and size, its id beside, and lists its warnings by title", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${warned.id}`, { cookie: operator.cookie }), 200);
		const [plain, low, both] = warned.items.map((item) => firstCellOf(html, "data-item-id", item.id));
		expect(plain).toBe(`Item 1 of 3 · 8 × 10 in${warned.items[0]?.id}`);
		expect(low).toBe(`Item 2 of 3 · 8 × 10 in${warned.items[1]?.id}${LOW.title}`);
		expect(both).toBe(`Item 3 of 3 · 16 × 20 in${warned.items[2]?.id}${LOW.title}${CROPPED.title}`);
	});

	it("an order without warnings has no banner", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${held.id}`, { cookie: operator.cookie }), 200);
		expect(html).not.toContain("Check before framing");
	});

	it("costs and prices are marked as amounts that never wrap", async () => {
		const html = await htmlOf(await consoleRequest(`/ops/orders/${warned.id}`, { cookie: operator.cookie }), 200);
		const costsAt = html.indexOf('id="costs-heading"');
		const costs = html.slice(costsAt, html.indexOf("</section>", costsAt));
		expect(costs.match(/<span class="amount">\$[\d,]+\.\d\d<\/span>/g)).toHaveLength(3);
		// Each item's price each and per line.
		expect(html.match(/<span class="amount">\$[\d,]+\.\d\d<\/span>/g)).toHaveLength(3 + 2 * warned.items.length);
		expect(html).toMatch(/\.amount \{ white-space: nowrap;/);
	});
});

describe("the queue's warnings", () => {
	it("the order's row says each warning in words, naming the item, in its first cell", async () => {
		const html = await htmlOf(
			await consoleRequest(`/ops/orders?q=${encodeURIComponent(warned.external_id)}`, { cookie: operator.cookie }),
			200,
		);
		expect(firstCellOf(html, "data-order-id", warned.id)).toBe(
			`${warned.external_id}${LOW.title} · Item 2 of 3 · 8 × 10 in${LOW.title} · Item 3 of 3 · 16 × 20 in${CROPPED.title} · Item 3 of 3 · 16 × 20 in`,
		);
		const other = await htmlOf(
			await consoleRequest(`/ops/orders?q=${encodeURIComponent(held.external_id)}`, { cookie: operator.cookie }),
			200,
		);
		expect(firstCellOf(other, "data-order-id", held.id)).toBe(held.external_id);
	});
});

describe("releasing a hold the floor cannot fix", () => {
	it("a forged release form for a frame_not_found hold is a 409 page saying what the partner must change, and the order stays held", async () => {
		const response = await postForm(
			`/ops/orders/${held.id}/release`,
			{ _csrf: operator.csrf },
			{ cookie: operator.cookie },
		);
		const html = await htmlOf(response, 409);
		expect(alertOf(html)).toBe(
			"Cannot release a hold for frame_not_found: validation would hold it again. The partner must change the item to a frame in the catalog (PATCH /v1/orders/{id}/items/{item_id}); the order is then validated again by itself. It can also be canceled. (current status: on_hold)",
		);
		expect(html).not.toContain("Release hold");
		expect(await statusOf(held.id)).toBe("on_hold");
	});
});
