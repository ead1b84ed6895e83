/**
 * Work tickets as the floor prints them: a batch (`GET /v1/ops/work-tickets`, ops key) loaded in
 * Debian's Chromium, printed to a Letter PDF and read back with a PDF parser: a page per item, and
 * every cut size of the museum piece in its text.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumSession, launchChromium } from "../../scripts/lib/chromium.ts";
import { MUSEUM_PIECE, MUSEUM_PIECE_CUTS } from "../framing/museum-piece.ts";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createPartner,
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
	];
	orders = [];
	for (const body of bodies) {
		const created = await callApi<Order>(service.origin, key, "POST", "/v1/orders", { ...body, ship_to: SHIP_TO });
		orders.push(await waitForOrderStatus(service.origin, key, created.id, "in_production"));
	}
	const opsKey = await issueOpsKey(service);
	chromium = await launchChromium({ width: 816, height: 1056 });
	page = await chromium.context.newPage();
	// The API wants a bearer key, which a browser cannot type: it is added to the page's requests to the API only.
	await page.route(`${service.origin}/v1/**`, (route) =>
		route.continue({ headers: { ...route.request().headers(), authorization: `Bearer ${opsKey}` } }),
	);
});

afterAll(async () => {
	try {
		await chromium?.close();
	} finally {
		await service?.stop();
	}
});

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
