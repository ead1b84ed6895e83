/**
 * The order page's item images in Debian's Chromium against a real `wrangler dev`, on a phone (390 px)
 * and a desktop (1,440 px): each item's framed preview and its file's thumbnail load from the console
 * (behind the session, decoded by the browser), take the room their width and height attributes
 * reserve, and stay inside the screen. The thumbnail is made by the service's own queue.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, signedInFloorPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	issueOpsKey,
	type Order,
	until,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const WIDTHS = [390, 1440] as const;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let order: Order;

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

/** What the browser made of an image: its decoded size, its box, and the size its attributes reserve. */
type ShownImage = { naturalWidth: number; boxWidth: number; boxHeight: number; right: number; attrRatio: number };

async function shownImage(selector: string): Promise<ShownImage> {
	const image = page.locator(selector);
	// Lazy images load when near the screen: brought there, then waited for until decoded (a broken or
	// refused image never gets a width).
	await image.scrollIntoViewIfNeeded();
	const decodedWidth = () =>
		image.evaluate((element) => {
			const img = element as unknown as { complete: boolean; naturalWidth: number };
			return img.complete ? img.naturalWidth : 0;
		});
	await expect.poll(decodedWidth, { timeout: 30_000 }).toBeGreaterThan(0);
	const box = await image.boundingBox();
	if (box === null) throw new Error(`${selector} is not shown`);
	const attribute = async (name: string) => Number(await image.getAttribute(name));
	return {
		naturalWidth: await decodedWidth(),
		boxWidth: box.width,
		boxHeight: box.height,
		right: box.x + box.width,
		attrRatio: (await attribute("height")) / (await attribute("width")),
	};
}

beforeAll(async () => {
	service = await startLocalService("Item images");
	const partner = await createPartner(service, "Harbour Museum Store");
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const created = await createOrder(service.origin, key, {
		externalId: "HMS-2042",
		printFileId: file,
		shipTo: {
			name: "Ada Lovelace",
			address1: "12 Harbour Street",
			city: "Portland",
			state: "ME",
			zip: "04101",
			country: "US",
		},
		items: [
			{ widthIn: 8, heightIn: 10, frame: "walnut-flat-075", mat: "bright-white" },
			{ widthIn: 16, heightIn: 12, frame: "gallery-black-125" },
		],
	});
	order = await waitForOrderStatus(service.origin, key, created.id, "in_production");
	await until("the file's thumbnail", async () => {
		const read = await callApi<{ thumbnail: { status: string } }>(
			service?.origin ?? "",
			key,
			"GET",
			`/v1/print-files/${file}`,
		);
		return read.thumbnail.status === "ready" ? read : null;
	});
	({ chromium, page } = await signedInFloorPage(service, await issueOpsKey(service), { width: 1440, height: 900 }));
});

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("the order page's item images at %i px wide", (width) => {
	it("shows each item's framed preview and thumbnail, decoded, in the room their attributes reserve, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${order.id}`);
		for (const item of order.items) {
			const preview = await shownImage(`img[data-preview-of="${item.id}"]`);
			expect(preview.naturalWidth).toBe(400);
			expect(Math.abs(preview.boxHeight / preview.boxWidth - preview.attrRatio)).toBeLessThan(0.02);
			expect(preview.right).toBeLessThanOrEqual(width);
			const thumbnail = await shownImage(`img[data-thumbnail-of="${item.id}"]`);
			// The 2400 × 3000 px file's thumbnail: its longest side 1024 px.
			expect(thumbnail.naturalWidth).toBe(819);
			expect(Math.abs(thumbnail.boxHeight / thumbnail.boxWidth - thumbnail.attrRatio)).toBeLessThan(0.02);
			expect(thumbnail.right).toBeLessThanOrEqual(width);
		}
		expect(await page.getByRole("img", { name: /^Framed preview of Item 1 of 2/ }).count()).toBe(1);
		expect(await page.getByRole("img", { name: /^Thumbnail of the print file of Item 2 of 2/ }).count()).toBe(1);
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
		const items = page.locator("section", { has: page.locator("#items-heading") });
		const shot = await items.screenshot({ type: "png" });
		await keepScreenshot(width === 1440 ? "ops-order-previews.png" : "ops-order-previews-narrow.png", shot);
	});
});
