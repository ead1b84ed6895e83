/**
 * Placing orders from the partner console in Debian's Chromium against a real `wrangler dev`, on a
 * phone (390 px) and a desktop (1,440 px): one order by the form (upload, framed preview and quote,
 * order) and many by a CSV (upload, the dry run's verdicts and prices, create). Every page passes
 * axe-core, stays under the page budget and fits the screen.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import { callApi, createPartner, gradientPng, uploadPrintFile } from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";
import { keepScreenshot } from "./support/screenshots.ts";

let service: LocalService | undefined;
let accountId = "";
let liveKey = "";
let printFileId = "";
/** A 1200 × 1500 px PNG: 150 DPI at 8 × 10 in, the least the service prints. */
let formPng: Uint8Array | undefined;

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner place orders");
	const partner = await createPartner(service, "Harbour Museum Store");
	accountId = partner.account.id;
	liveKey = partner.keys.live.key;
	printFileId = await uploadPrintFile(service.origin, liveKey);
	formPng = gradientPng(1200, 1500);
}, 180_000);

afterAll(async () => {
	await service?.stop();
});

async function shot(page: Page, name: string): Promise<void> {
	await keepScreenshot(name, await page.screenshot({ type: "png", fullPage: true }));
}

const CSV_HEADER =
	"external_id,print_file_id,width_in,height_in,frame,mat,quantity,ship_to_name,ship_to_address1,ship_to_city,ship_to_state,ship_to_zip,ship_to_country,shipping_method";

describe.each(PARTNER_WIDTHS)("placing orders at %i px", (width) => {
	it("a support user places one order with the form: preview and quote first, then the order", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "support", width);
		try {
			await page.getByRole("navigation", { name: "Sections" }).getByRole("link", { name: "Place orders" }).click();
			await page.waitForURL(`${running().origin}/partner/place`);
			await expectGoodPage(page, width);
			await shot(page, `partner-place-order-form-${width}.png`);
			const externalId = `FORM-${width}`;
			await page.setInputFiles("#file", {
				name: "harbour-at-dusk.png",
				mimeType: "image/png",
				buffer: Buffer.from(formPng ?? new Uint8Array()),
			});
			await page.getByLabel(/^Width, inches/).fill("8");
			await page.getByLabel(/^Height, inches/).fill("10");
			await page.getByLabel("Frame").selectOption("walnut-flat-125");
			await page.getByLabel("Mat").selectOption("museum-rag-white-4ply");
			await page.getByLabel("Name").fill("Ada Lovelace");
			await page.getByLabel("Address", { exact: true }).fill("350 Fifth Avenue");
			await page.getByLabel("City").fill("New York");
			await page.getByLabel(/^State or region/).fill("NY");
			await page.getByLabel("Postcode").fill("10118");
			await page.getByLabel(/^Your order id/).fill(externalId);
			await page.getByRole("button", { name: "See the preview and the price" }).click();
			await page.getByRole("heading", { level: 1, name: "Check and place the order" }).waitFor();
			await page.getByRole("img", { name: /framed preview/ }).waitFor();
			// The preview is drawn (the page's policy lets it load from the console's own address), not a broken image.
			await expect
				.poll(() =>
					page.locator(".preview img").evaluate((image) => ("naturalWidth" in image ? Number(image.naturalWidth) : 0)),
				)
				.toBeGreaterThan(0);
			await expectGoodPage(page, width);
			await shot(page, `partner-place-order-quote-${width}.png`);
			await page.getByRole("button", { name: /^Place the order for \$/ }).click();
			await page.waitForURL(/\/partner\/place\?done=ordered/);
			expect(await page.getByRole("status").textContent()).toContain("The order is placed");
			await expectGoodPage(page, width);
			const found = await callApi<{ external_id: string }>(
				running().origin,
				liveKey,
				"GET",
				`/v1/orders/by-external-id/${externalId}`,
			);
			expect(found.external_id).toBe(externalId);
		} finally {
			await chromium.close();
		}
	});

	it("a developer places orders by CSV: the dry run shows each row's verdict and price, then the create", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "developer", width);
		try {
			await page.goto(`${running().origin}/partner/place/csv`);
			await expectGoodPage(page, width);
			const row = (id: string, frame: string) =>
				`${id},${printFileId},8,10,${frame},,1,Grace Hopper,1 Harbour Road,Boston,MA,02110,US,standard`;
			const csv = [
				CSV_HEADER,
				row(`CSV-${width}-1`, "walnut-flat-125"),
				row(`CSV-${width}-1`, "walnut-flat-125"),
				row(`CSV-${width}-2`, "walnut-flat-125"),
				row(`CSV-${width}-3`, "gold-leaf-999"),
			].join("\n");
			await page.setInputFiles("#file", { name: "orders.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
			await page.getByRole("button", { name: "Preview the orders" }).click();
			await page.getByRole("heading", { name: "Preview: nothing is placed yet" }).waitFor();
			expect(await page.getByText("2 of 3 orders are ready to place").count()).toBe(1);
			expect(await page.getByText('No frame "gold-leaf-999" in the catalog.', { exact: false }).count()).toBe(1);
			await expectGoodPage(page, width);
			await shot(page, `partner-place-orders-csv-preview-${width}.png`);
			await page.getByRole("button", { name: "Place 2 orders" }).click();
			await page.getByRole("heading", { name: "What was placed" }).waitFor();
			expect(await page.getByRole("status").textContent()).toContain("2 orders were placed");
			await expectGoodPage(page, width);
			await shot(page, `partner-place-orders-csv-placed-${width}.png`);
			const placed = await callApi<{ id: string }>(
				running().origin,
				liveKey,
				"GET",
				`/v1/orders/by-external-id/CSV-${width}-2`,
			);
			expect(placed.id).toMatch(/^ord_/);
		} finally {
			await chromium.close();
		}
	});
});
