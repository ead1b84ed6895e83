/**
 * Warnings and holds on the floor's pages in Debian's Chromium against a real `wrangler dev`, on a
 * phone (390 px) and a desktop (1,440 px): an order with a low-resolution item shows the warning in
 * words inside the screen's width on the order page and on the queue's row, its costs stay on one
 * line, and an order held for a frame the catalog lacks offers no "Release hold".
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { ITEM_WARNING_WORDS } from "../../src/production/item-words.ts";
import { closeAll, type LocalService, opsBrowserPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createPartner,
	gradientPng,
	issueOpsKey,
	type Order,
	uploadPng,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { readPdf } from "./support/rendered-output.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const SHIP_TO = {
	name: "Dorothea Lange",
	address1: "5 Harbour Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};
const LOW = ITEM_WARNING_WORDS.low_resolution;
const WIDTHS = [390, 1440] as const;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let warned: Order;
let held: Order;

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

/** Where an element lies across the screen, and whether it can be seen at all. */
async function across(selector: string): Promise<{ left: number; right: number; visible: boolean }[]> {
	return page.locator(selector).evaluateAll((elements) =>
		elements.map((element) => {
			const box = element.getBoundingClientRect();
			return { left: box.left, right: box.right, visible: box.width > 0 && box.height > 0 };
		}),
	);
}

/** Asserts every match of `selector` is shown, and from its left edge to its right inside a screen `width` wide. */
async function expectInsideWidth(selector: string, width: number): Promise<void> {
	const boxes = await across(selector);
	expect(boxes.length, selector).toBeGreaterThan(0);
	for (const box of boxes) {
		expect(box.visible, selector).toBe(true);
		expect(box.left, selector).toBeGreaterThanOrEqual(0);
		expect(box.right, selector).toBeLessThanOrEqual(width);
	}
}

/** The page's width as laid out: wider than the screen means something runs off the side. */
function pageWidth(): Promise<number> {
	return page.locator("html").evaluate((root) => root.scrollWidth);
}

beforeAll(async () => {
	service = await startLocalService("Order page warnings");
	const partner = await createPartner(service, "Lange Editions");
	const key = partner.keys.live.key;
	const sharp = await uploadPrintFile(service.origin, key);
	// 1600 × 2000 px at 8 × 10 in is 200 DPI: accepted, with the low_resolution warning.
	const small = await uploadPng(service.origin, key, gradientPng(1600, 2000), "contact-sheet.png");
	const item = { width_in: 8, height_in: 10, frame: "gallery-black-125", mat: "bright-white" };
	const created = await callApi<Order>(service.origin, key, "POST", "/v1/orders", {
		external_id: "LE-2201",
		ship_to: SHIP_TO,
		items: [
			{ ...item, print_file_id: sharp },
			{ ...item, print_file_id: small },
			{ ...item, print_file_id: sharp, quantity: 3 },
		],
	});
	warned = await waitForOrderStatus(service.origin, key, created.id, "in_production");
	const unknownFrame = await callApi<Order>(service.origin, key, "POST", "/v1/orders", {
		external_id: "LE-2202",
		ship_to: SHIP_TO,
		items: [{ ...item, print_file_id: sharp, frame: "no-such-frame" }],
	});
	held = await waitForOrderStatus(service.origin, key, unknownFrame.id, "on_hold");
	const opsKey = await issueOpsKey(service);
	({ chromium, page } = await opsBrowserPage(service, opsKey, { width: 1440, height: 900 }));
	await page.goto(`${service.origin}/ops/sign-in`);
	await page.getByLabel("API key").fill(opsKey);
	await page.getByRole("button", { name: "Sign in" }).click();
	await page.waitForURL(`${service.origin}/ops/orders`);
});

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("the floor's pages at %i px wide", (width) => {
	it("the order page shows the low-resolution warning in words inside the screen, in the banner and in the item's row", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${warned.id}`);
		const banner = page.getByRole("region", { name: "Check before framing" });
		expect(await banner.textContent()).toContain(`Item 2 of 3 · 8 × 10 in: ${LOW.title}. ${LOW.advice}`);
		await expectInsideWidth(".warn-banner li", width);
		const row = page.locator(`tr[data-item-id="${warned.items[1]?.id}"]`);
		expect(await row.locator(".row-warnings li").textContent()).toBe(LOW.title);
		await expectInsideWidth(`tr[data-item-id="${warned.items[1]?.id}"] .row-warnings li`, width);
		await expectInsideWidth(".item-name", width);
		expect(await pageWidth()).toBeLessThanOrEqual(width);
		// The docs show the top of the desktop page: the banner, the facts and the first two items.
		if (width === 1440) {
			const top = { x: 0, y: 0, width, height: 1500 };
			await keepScreenshot("ops-order-warnings.png", await page.screenshot({ type: "png", fullPage: true, clip: top }));
		}
	});

	it("every cost on the order page stays on one line", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${warned.id}`);
		// Each amount beside its label (`Total`, `Each`), which is one line: two lines would be twice as tall.
		const amounts = await page.locator(".amount").evaluateAll((elements) =>
			elements.map((element) => ({
				text: element.textContent ?? "",
				height: element.getBoundingClientRect().height,
				labelHeight: element.closest("dd")?.previousElementSibling?.getBoundingClientRect().height ?? 0,
				right: element.getBoundingClientRect().right,
				panelRight: element.closest("section")?.getBoundingClientRect().right ?? 0,
			})),
		);
		// Three costs of the order, and each of the three items' price each and per line.
		expect(amounts).toHaveLength(9);
		for (const amount of amounts) {
			expect(amount.text).toMatch(/^\$[\d,]+\.\d\d$/);
			expect(amount.labelHeight).toBeGreaterThan(0);
			expect(amount.height, amount.text).toBeLessThan(amount.labelHeight * 1.5);
			// And inside its panel: a number kept whole must not spill over the panel's edge instead.
			expect(amount.right, amount.text).toBeLessThanOrEqual(amount.panelRight);
		}
		await expectInsideWidth(".amount", width);
	});

	it("the queue's row says the warning in words, naming the item, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders?q=LE-2201`);
		const warning = page.locator(`tr[data-order-id="${warned.id}"] .row-warnings li`);
		expect(await warning.allTextContents()).toEqual([`${LOW.title} · Item 2 of 3 · 8 × 10 in`]);
		await expectInsideWidth(`tr[data-order-id="${warned.id}"] .row-warnings li`, width);
		expect(await pageWidth()).toBeLessThanOrEqual(width);
	});

	it("an order held for a frame the catalog lacks offers no Release hold, and says the partner must change the frame", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${held.id}`);
		expect(await page.getByRole("button", { name: "Release hold" }).count()).toBe(0);
		expect(await page.getByRole("button", { name: "Cancel order" }).count()).toBe(1);
		const remedy = page.getByTestId("hold-remedy");
		expect(await remedy.textContent()).toContain("The partner must change the item to a frame in the catalog");
		await expectInsideWidth('[data-testid="hold-remedy"]', width);
		expect(await page.getByRole("region", { name: "Hold" }).textContent()).toContain("Item 1 of 1 · 8 × 10 in");
		expect(await pageWidth()).toBeLessThanOrEqual(width);
		if (width === 390) {
			// The docs show the hold panel on a phone, scrolled to the top of the screen.
			await page.getByRole("region", { name: "Hold" }).evaluate((panel) => panel.scrollIntoView());
			await keepScreenshot("ops-order-held-narrow.png", await page.screenshot({ type: "png" }));
		}
	});
});

describe("the work ticket", () => {
	it("boxes the item's warning in words under its header, on screen and on the printed page", async () => {
		await page.setViewportSize({ width: 1440, height: 900 });
		await page.goto(`${origin()}/ops/orders/${warned.id}/work-ticket`);
		const ticket = page.locator(`section.ticket[data-item-id="${warned.items[1]?.id}"]`);
		expect(await ticket.locator("header").textContent()).toContain("Item 2 of 3 · 8 × 10 in");
		expect(await ticket.getByRole("note").textContent()).toBe(`Check before framing:${LOW.title}. ${LOW.advice}`);
		await expectInsideWidth(`section.ticket[data-item-id="${warned.items[1]?.id}"] .warn-box`, 1440);
		expect(await page.locator(".warn-box").count()).toBe(1);
		const pdf = await readPdf(await page.pdf({ format: "Letter", printBackground: true }));
		expect(pdf.pageSizes).toHaveLength(3);
		expect(pdf.text).toContain("Item 2 of 3 · 8 × 10 in");
		expect(pdf.text).toContain(`${LOW.title}. The file gives fewer than 300 pixels per inch`);
		expect(pdf.text).not.toContain("low_resolution");
	});
});
