/**
 * The partner console's orders in Debian's Chromium against a real `wrangler dev`, on a phone (390 px)
 * and a desktop (1,440 px): a support user finds a shipped order by its tracking number and opens it,
 * then fixes an order held for a file too small by uploading a sharp one. Every page passes axe-core,
 * stays under the page budget and fits the screen.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	gradientPng,
	issueOpsKey,
	type Order,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";

const SHIP_TO = {
	name: "Ada Lovelace",
	address1: "12 Harbour Street",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};

let service: LocalService | undefined;
let fileHost: Server | undefined;
let accountId = "";
let key = "";
let opsKey = "";
/** A PNG far too small for 8 × 10 in (37 DPI), served to the worker from the loopback. */
let smallFileUrl = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	const small = gradientPng(300, 375);
	fileHost = createServer((_request, response) => {
		response.writeHead(200, { "Content-Type": "image/png", "Content-Length": String(small.byteLength) });
		response.end(small);
	});
	await new Promise<void>((resolve) => fileHost?.listen(0, "127.0.0.1", resolve));
	smallFileUrl = `http://127.0.0.1:${(fileHost.address() as AddressInfo).port}/harbour-small.png`;
	service = await startLocalService("Partner orders");
	const partner = await createPartner(service, "Harbour Museum Store");
	accountId = partner.account.id;
	key = partner.keys.live.key;
	opsKey = await issueOpsKey(service);
}, 300_000);

afterAll(async () => {
	await service?.stop();
	await new Promise((resolve) => fileHost?.close(resolve));
});

/** A shipped order of this width, with its own tracking number. */
async function shippedOrder(width: number): Promise<{ order: Order; trackingNumber: string }> {
	const file = await uploadPrintFile(running().origin, key);
	const created = await createOrder(running().origin, key, {
		externalId: `HMS-${width}-SHIP`,
		printFileId: file,
		shipTo: SHIP_TO,
		items: [{ widthIn: 8, heightIn: 10, frame: "walnut-flat-075", mat: "bright-white" }],
	});
	await waitForOrderStatus(running().origin, key, created.id, "in_production");
	const trackingNumber = `1Z999AA1${width}0001`;
	await callApi(running().origin, opsKey, "POST", `/v1/ops/orders/${created.id}/ship`, {
		carrier: "UPS",
		number: trackingNumber,
	});
	return { order: created, trackingNumber };
}

describe.each(PARTNER_WIDTHS)("the partner console's orders at %i px", (width) => {
	it("a support user finds a shipped order by its tracking number and opens it", async () => {
		const { order, trackingNumber } = await shippedOrder(width);
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "support", width);
		try {
			await page
				.getByRole("navigation", { name: "Sections" })
				.getByRole("link", { name: "Orders", exact: true })
				.click();
			await page.waitForURL(`${running().origin}/partner/orders`);
			await expectGoodPage(page, width, `partner-orders-list-${width}.png`);
			await page.getByLabel("Order id, external id, tracking number or recipient's name").fill(trackingNumber);
			await page.getByRole("button", { name: "Find" }).click();
			await page.waitForURL(/q=/);
			expect(await page.locator(".order-list > li").count()).toBe(1);
			expect(await page.getByRole("link", { name: order.external_id }).count()).toBe(1);
			await expectGoodPage(page, width, `partner-orders-found-${width}.png`);
			await page.getByRole("link", { name: order.external_id }).click();
			await page.waitForURL(`${running().origin}/partner/orders/${order.id}`);
			expect(await page.getByTestId("order-status").textContent()).toBe("Shipped");
			const tracking = page.getByRole("link", { name: trackingNumber });
			expect(await tracking.getAttribute("href")).toBe(`https://www.ups.com/track?tracknum=${trackingNumber}`);
			expect(await page.getByRole("heading", { name: "Timeline" }).count()).toBe(1);
			await expectGoodPage(page, width, `partner-orders-shipped-order-${width}.png`);
		} finally {
			await chromium.close();
		}
	});

	it("a support user fixes an order held for a file too small by uploading a sharp one", async () => {
		const created = await callApi<Order>(running().origin, key, "POST", "/v1/orders", {
			external_id: `HMS-${width}-HELD`,
			ship_to: SHIP_TO,
			items: [
				{ print_file_url: smallFileUrl, width_in: 8, height_in: 10, frame: "walnut-flat-075", mat: "bright-white" },
			],
		});
		await waitForOrderStatus(running().origin, key, created.id, "on_hold");
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "support", width);
		try {
			await page.goto(`${running().origin}/partner/orders?status=on_hold`);
			await page.getByRole("link", { name: created.external_id }).click();
			await page.waitForURL(`${running().origin}/partner/orders/${created.id}`);
			expect(await page.getByRole("heading", { name: "On hold: File resolution too low for the size" }).count()).toBe(
				1,
			);
			// Once the file's thumbnail is made, the item's framed preview and thumbnail load: the console's
			// policy lets its own images in (a page whose images were blocked showed only their alt text).
			await expect
				.poll(
					async () => {
						await page.reload();
						return page.locator(".images img").count();
					},
					{ timeout: 60_000, interval: 1_000 },
				)
				.toBe(2);
			for (const image of await page.locator(".images img").all()) {
				expect(
					await image.evaluate((element) => ("naturalWidth" in element ? Number(element.naturalWidth) : 0)),
				).toBeGreaterThan(0);
			}
			await expectGoodPage(page, width, `partner-orders-held-order-${width}.png`);
			const fix = page.locator("form.fix-form");
			await fix.getByLabel(/New print file/).setInputFiles({
				name: "harbour-at-dusk.png",
				mimeType: "image/png",
				buffer: Buffer.from(gradientPng(2400, 3000)),
			});
			await fix.getByRole("button", { name: "Fix this item" }).click();
			await page.waitForURL(`${running().origin}/partner/orders/${created.id}?done=fixed`);
			expect(await page.getByRole("status").textContent()).toBe("The item is fixed: the order is being checked again.");
			await expectGoodPage(page, width, `partner-orders-fixed-${width}.png`);
			await waitForOrderStatus(running().origin, key, created.id, "in_production");
			await page.reload();
			expect(await page.getByTestId("order-status").textContent()).toBe("In production");
		} finally {
			await chromium.close();
		}
	});
});
