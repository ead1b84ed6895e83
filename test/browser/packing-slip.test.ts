/**
 * The packing slip as the floor prints it: the API's slip (`GET /v1/ops/orders/{id}/packing-slip`,
 * ops key) loaded in Debian's Chromium, printed to PDF on Letter and on A4 and read back with a PDF
 * parser, and captured as a PNG. The slip must carry the partner's brand and never the service's.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, opsBrowserPage, startLocalService } from "./support/local-service.ts";
import {
	BRAND,
	createOrder,
	issueOpsKey,
	LOGO_ACCENT,
	LOGO_SIZE,
	type Order,
	SERVICE_NAME,
	setUpBrandedPartner,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { PAPER_POINTS, type PdfReading, readPdf, readPng } from "./support/rendered-output.ts";
import { keepScreenshot } from "./support/screenshots.ts";

/** A4 at 96 CSS px per inch: the screenshot has the paper's proportions. */
const A4_VIEWPORT = { width: 794, height: 1123 };
const SHIP_TO = {
	name: "Grace Hopper",
	address1: "1 Observatory Lane",
	address2: "Apartment 4",
	city: "Arlington",
	state: "VA",
	zip: "22201",
	country: "US",
};
const GIFT_LINES = ["Happy birthday, Grace!", "With love from Ada and the cats."];

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let opsKey = "";
let order: Order;

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

/** Opens the order's slip as the API serves it, the ops key added to the browser's requests to the API. */
async function openApiSlip(query = ""): Promise<void> {
	const response = await page.goto(`${origin()}/v1/ops/orders/${order.id}/packing-slip${query}`);
	expect(response?.status()).toBe(200);
	expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
}

/** One page of the paper's size; Chromium rounds sizes to its own units, so within 1.5 pt. */
function expectOnePageOf(pdf: PdfReading, paper: keyof typeof PAPER_POINTS): void {
	expect(pdf.pageSizes).toHaveLength(1);
	const [size] = pdf.pageSizes;
	expect(Math.abs((size?.width ?? 0) - PAPER_POINTS[paper].width)).toBeLessThan(1.5);
	expect(Math.abs((size?.height ?? 0) - PAPER_POINTS[paper].height)).toBeLessThan(1.5);
}

function expectBrandedSlip(pdf: PdfReading): void {
	expect(pdf.text).toContain(BRAND.brand_name);
	expect(pdf.text).toContain(BRAND.packing_slip_message);
	expect(pdf.text).toContain(BRAND.support_email);
	for (const line of GIFT_LINES) expect(pdf.text).toContain(line);
	expect(pdf.text).toContain(SHIP_TO.name);
	expect(pdf.text).toContain(SHIP_TO.address2);
	expect(pdf.text).toContain(order.external_id);
	expect(pdf.text).toContain("Walnut Flat 3/4 in");
	expect(pdf.text).toContain("Bright White");
	expect(pdf.text).toContain("Gallery Black 1 1/4 in");
	expect(pdf.text).toContain("8 × 10 in");
	expect(pdf.text).not.toMatch(SERVICE_NAME);
	expect(pdf.title).toContain(BRAND.brand_name);
	expect(pdf.title).not.toMatch(SERVICE_NAME);
	expect(pdf.links).toContain(BRAND.support_url);
	expect(pdf.links).toContain(`mailto:${BRAND.support_email}`);
	expect(pdf.links.filter((link) => SERVICE_NAME.test(link))).toEqual([]);
	// The logo is printed from the partner's own file, at its own pixel size.
	expect(pdf.images).toContainEqual(LOGO_SIZE);
}

beforeAll(async () => {
	service = await startLocalService("Packing slip");
	const { partner, printFileId } = await setUpBrandedPartner(service, "Harbour Museum Store");
	opsKey = await issueOpsKey(service);
	const created = await createOrder(service.origin, partner.keys.live.key, {
		externalId: "HMS-2001",
		printFileId,
		shipTo: SHIP_TO,
		items: [
			{ widthIn: 8, heightIn: 10, frame: "walnut-flat-075", mat: "bright-white" },
			{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", quantity: 2 },
		],
		giftMessage: GIFT_LINES.join("\n"),
	});
	order = await waitForOrderStatus(service.origin, partner.keys.live.key, created.id, "in_production");
	({ chromium, page } = await opsBrowserPage(service, opsKey, A4_VIEWPORT));
});

afterAll(() => closeAll(chromium, service));

describe("GET /v1/ops/orders/{id}/packing-slip in Chromium", () => {
	it("is served as a locked-down HTML page: no script, nothing from elsewhere, never framed or cached", async () => {
		const response = await page.goto(`${origin()}/v1/ops/orders/${order.id}/packing-slip`);
		const headers = response?.headers() ?? {};
		expect(headers["content-security-policy"]).toContain("default-src 'none'");
		expect(headers["x-frame-options"]).toBe("DENY");
		expect(headers["cache-control"]).toBe("no-store");
		// The logo is inline (data: URL) and the browser decoded it at its real size.
		const logo = page.getByRole("img", { name: BRAND.brand_name });
		expect(
			await logo.evaluate((image: { naturalWidth: number; naturalHeight: number }) => [
				image.naturalWidth,
				image.naturalHeight,
			]),
		).toEqual([LOGO_SIZE.width, LOGO_SIZE.height]);
	});

	it("prints to a one-page Letter PDF carrying the brand, the gift message, the ship-to and the frames, and no service name", async () => {
		await openApiSlip();
		const pdf = await readPdf(await page.pdf({ format: "Letter", printBackground: true }));
		expectOnePageOf(pdf, "letter");
		expectBrandedSlip(pdf);
	});

	it("prints to a one-page A4 PDF with the same content", async () => {
		await openApiSlip();
		const pdf = await readPdf(await page.pdf({ format: "A4", printBackground: true }));
		expectOnePageOf(pdf, "a4");
		expectBrandedSlip(pdf);
	});

	it("?paper= sets the page size itself, whatever paper the printer proposes", async () => {
		await openApiSlip("?paper=a4");
		const onA4 = await readPdf(await page.pdf({ format: "Letter", preferCSSPageSize: true }));
		expectOnePageOf(onA4, "a4");
		await openApiSlip("?paper=letter");
		const onLetter = await readPdf(await page.pdf({ format: "A4", preferCSSPageSize: true }));
		expectOnePageOf(onLetter, "letter");
		expect(onLetter.text).toContain(BRAND.brand_name);
	});

	it("renders to a real PNG at A4 proportions, neither blank nor solid, with the logo drawn", async () => {
		await openApiSlip();
		const png = await page.screenshot({ type: "png" });
		const picture = readPng(png);
		expect({ width: picture.width, height: picture.height }).toEqual(A4_VIEWPORT);
		expect(picture.inkShare).toBeGreaterThan(0.01);
		expect(picture.inkShare).toBeLessThan(0.5);
		// The logo's accent bar, scaled down to the slip's 40 mm logo box, is still hundreds of pixels.
		expect(picture.pixelsNear(LOGO_ACCENT)).toBeGreaterThan(300);
		await keepScreenshot("packing-slip.png", png);
	});
});
