/**
 * The production floor in Debian's Chromium against a real `wrangler dev` (issue 14): work tickets
 * printed to a Letter PDF and read back (a page per item, every cut size of the museum piece); then,
 * in the console, an order found by the partner's number, its print file downloaded byte for byte,
 * and a label tool's CSV imported twice: three orders ship, one is refused, and the second preview
 * has nothing to ship.
 */
import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { MUSEUM_PIECE, MUSEUM_PIECE_CUTS } from "../framing/museum-piece.ts";
import { closeAll, type LocalService, opsBrowserPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createPartner,
	gradientPng,
	issueOpsKey,
	type Order,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { PAPER_POINTS, readPdf } from "./support/rendered-output.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const SHIP_TO = {
	name: "Grace Hopper",
	address1: "1 Observatory Lane",
	city: "Arlington",
	state: "VA",
	zip: "22201",
	country: "US",
};

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let orders: Order[] = [];
let held: Order;
let opsKey = "";

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

beforeAll(async () => {
	service = await startLocalService("Work tickets");
	const partner = await createPartner(service, "Harbour Museum Store");
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const bodies = [
		{ external_id: "HMS-3001", items: [{ ...MUSEUM_PIECE, print_file_id: file }] },
		{
			external_id: "HMS-3002",
			items: [
				{
					print_file_id: file,
					width_in: 8,
					height_in: 10,
					frame: "gallery-black-075",
					mat: "bright-white",
					quantity: 2,
				},
				{ print_file_id: file, width_in: 8, height_in: 10 },
			],
		},
		{ external_id: "HMS-3003", items: [{ print_file_id: file, width_in: 8, height_in: 10, frame: "walnut-flat-075" }] },
	];
	orders = [];
	for (const body of bodies) {
		const created = await callApi<Order>(service.origin, key, "POST", "/v1/orders", { ...body, ship_to: SHIP_TO });
		orders.push(await waitForOrderStatus(service.origin, key, created.id, "in_production"));
	}
	const unbuildable = { print_file_id: file, width_in: 8, height_in: 10, frame: "no-such-frame" };
	const created = await callApi<Order>(service.origin, key, "POST", "/v1/orders", {
		external_id: "HMS-3004",
		ship_to: SHIP_TO,
		items: [unbuildable],
	});
	held = await waitForOrderStatus(service.origin, key, created.id, "on_hold");
	opsKey = await issueOpsKey(service);
	({ chromium, page } = await opsBrowserPage(service, opsKey, { width: 816, height: 1056 }));
});

afterAll(() => closeAll(chromium, service));

describe("GET /v1/ops/work-tickets in Chromium", () => {
	it("prints a Letter page per item, with every cut size of the museum piece in the PDF's text", async () => {
		const response = await page.goto(`${origin()}/v1/ops/work-tickets?status=in_production&limit=50`);
		expect(response?.status()).toBe(200);
		const pdf = await readPdf(await page.pdf({ format: "Letter", printBackground: true }));
		const items = orders.reduce((sum, order) => sum + order.items.length, 0);
		expect(pdf.pageSizes).toHaveLength(items);
		for (const size of pdf.pageSizes) {
			expect(Math.abs(size.width - PAPER_POINTS.letter.width)).toBeLessThan(1.5);
			expect(Math.abs(size.height - PAPER_POINTS.letter.height)).toBeLessThan(1.5);
		}
		for (const cut of MUSEUM_PIECE_CUTS) expect(pdf.text, cut).toContain(cut);
		for (const order of orders) expect(pdf.text).toContain(order.external_id);
		// The plain mat of the second order: 8 × 10 in print, 12 × 14 in board, 7 3/4 × 9 3/4 in opening.
		for (const cut of ["12 × 14 in", "7 3/4 × 9 3/4 in", "Make 2"]) expect(pdf.text).toContain(cut);
		expect(pdf.text).not.toMatch(/\$\s?\d|\bUSD\b/);
		expect(pdf.text).toContain("Box 1 of");
	});

	it("prints an A4 page per item too, each naming the box its units go in, and the ticket fits A4's width", async () => {
		const first = orders[0]?.id ?? "";
		await page.goto(`${origin()}/v1/ops/orders/${first}/work-ticket`);
		const pdf = await readPdf(await page.pdf({ format: "A4", printBackground: true }));
		const items = orders[0]?.items.length ?? 0;
		expect(pdf.pageSizes).toHaveLength(items);
		expect(pdf.text).toMatch(/Box 1 of \d/);
		// A4 is 210 mm, 794 CSS px: the header with its pack line must not run off it.
		await page.setViewportSize({ width: 794, height: 1123 });
		const width = await page.locator("html").evaluate((root) => root.scrollWidth);
		expect(width).toBeLessThanOrEqual(794);
		await page.emulateMedia({ media: "print" });
		await keepScreenshot("ops-work-ticket-a4.png", await page.screenshot({ fullPage: false }));
		await page.emulateMedia({ media: "screen" });
	});

	it("draws the museum piece to scale: the drawing's outside is 23 1/2 by 28 in its own units", async () => {
		const first = orders[0]?.id ?? "";
		await page.goto(`${origin()}/v1/ops/orders/${first}/work-ticket`);
		const box = await page
			.locator(".drawing svg")
			.first()
			.evaluate((svg: { viewBox: { baseVal: { width: number; height: number } } }) => ({
				width: svg.viewBox.baseVal.width,
				height: svg.viewBox.baseVal.height,
			}));
		// The view box is the outside plus the same margin on every side.
		expect(box.height - box.width).toBeCloseTo(28 - 23.5, 6);
		await keepScreenshot("ops-work-ticket.png", await page.screenshot({ fullPage: false }));
	});
});

describe("the console on the floor, in Chromium", () => {
	it("finds an order by the partner's number and downloads its print file byte for byte", async () => {
		await page.goto(`${origin()}/ops/sign-in`);
		await page.getByLabel("API key").fill(opsKey);
		await page.getByRole("button", { name: "Sign in" }).click();
		await page.waitForURL(`${origin()}/ops/orders`);
		await page.getByLabel("Order id, partner's order number or partner name").fill("HMS-3002");
		await page.getByRole("button", { name: "Search" }).click();
		await page.waitForURL(/[?&]q=HMS-3002/);
		const rows = page.locator("tr[data-order-id]");
		expect(await rows.count()).toBe(1);
		await rows.getByRole("link", { name: "HMS-3002" }).click();
		await page.waitForURL(`${origin()}/ops/orders/${orders[1]?.id}`);

		const [download] = await Promise.all([page.waitForEvent("download"), page.locator("a[download]").first().click()]);
		expect(download.suggestedFilename()).toBe("HMS-3002_item-1.png");
		const path = await download.path();
		const expected = createHash("sha256").update(gradientPng(2400, 3000)).digest("hex");
		expect(
			createHash("sha256")
				.update(await readFile(path))
				.digest("hex"),
		).toBe(expected);
	});

	it("imports a CSV that ships three orders and refuses one; importing it again changes nothing", async () => {
		const csv = [
			"Order Number,Carrier,Tracking Number,Tracking URL",
			...["HMS-3001", "HMS-3002", "HMS-3004", "HMS-3003"].map(
				(reference, index) => `${reference},UPS,1Z99900${index},https://www.ups.com/track?tracknum=1Z99900${index}`,
			),
		].join("\r\n");
		const preview = async () => {
			await page.goto(`${origin()}/ops/shipments/import`);
			await page.setInputFiles("#file", { name: "labels.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
			await page.getByRole("button", { name: "Preview" }).click();
			await page.waitForLoadState();
			return page.locator(".counts").textContent();
		};
		expect(await preview()).toBe("4 rows: 3 would ship, 0 already shipped, 1 refused.");
		await page.getByRole("button", { name: "Confirm: ship 3 orders" }).click();
		await page.waitForLoadState();
		expect(await page.getByRole("status").locator("p").textContent()).toBe("3 of 4 rows applied, 1 refused.");
		expect(await page.getByRole("status").locator("li").textContent()).toContain("HMS-3004");
		await keepScreenshot("ops-import.png", await page.screenshot({ type: "png", fullPage: true }));
		expect(await preview()).toBe("4 rows: 0 would ship, 3 already shipped, 1 refused.");
		expect(await page.getByRole("button", { name: /Confirm/ }).count()).toBe(0);
		for (const order of orders) {
			const now = await callApi<{ order: Order }>(origin(), opsKey, "GET", `/v1/ops/orders/${order.id}`);
			expect(now.order.status).toBe("shipped");
		}
		const stillHeld = await callApi<{ order: Order }>(origin(), opsKey, "GET", `/v1/ops/orders/${held.id}`);
		expect(stillHeld.order.status).toBe("on_hold");
	});

	it("the queue and the order page are usable at 400 px wide: nothing runs off the side", async () => {
		await page.setViewportSize({ width: 400, height: 800 });
		for (const path of ["/ops/orders?status=shipped", `/ops/orders/${orders[0]?.id}`, "/ops/shipments/import"]) {
			await page.goto(`${origin()}${path}`);
			const overflow = await page.locator("html").evaluate((root: { scrollWidth: number }) => root.scrollWidth);
			expect(overflow, path).toBeLessThanOrEqual(400);
		}
		await page.goto(`${origin()}/ops/orders?status=shipped`);
		await keepScreenshot("ops-queue-narrow.png", await page.screenshot({ type: "png" }));
	});

	it("at 390 px the console's header links wrap as whole links: none breaks over two lines", async () => {
		const heights = async (width: number) => {
			await page.setViewportSize({ width, height: 844 });
			await page.goto(`${origin()}/ops/orders`);
			const links = await page.locator("header nav a").all();
			return Promise.all(
				links.map((link) =>
					link.evaluate(
						(element: { getBoundingClientRect(): { height: number } }) => element.getBoundingClientRect().height,
					),
				),
			);
		};
		const wide = await heights(1440);
		const narrow = await heights(390);
		expect(wide.length).toBeGreaterThanOrEqual(4);
		expect(narrow.length).toBe(wide.length);
		const oneLine = Math.max(...wide);
		for (const height of narrow) expect(height).toBeLessThanOrEqual(oneLine + 0.5);
	});
});
