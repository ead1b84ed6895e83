/**
 * Shipments on the floor's pages in Debian's Chromium against a real `wrangler dev`, on a phone
 * (390 px) and a desktop (1,440 px): an order whose units left in two labels lists both on its page,
 * with their units and status, and the queue says how many units have shipped, all inside the screen;
 * the page's form records a shipment of the units chosen and its buttons mark one delivered.
 */
import { mkdir, writeFile } from "node:fs/promises";
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
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const SHIP_TO = {
	name: "Berenice Abbott",
	address1: "7 Quay Road",
	city: "Portland",
	state: "ME",
	zip: "04101",
	country: "US",
};
const WIDTHS = [390, 1440] as const;
/** Where a run that sets SHIPMENTS_SCREENSHOTS keeps this file's screenshots, for a person to look at. */
const LOOK_DIR = process.env.SHIPMENTS_SCREENSHOTS;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let partial: Order;
/** An order in production per width, for the shipment form to ship. */
const formOrders = new Map<number, Order>();

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

/** The page's width as laid out: wider than the screen means something runs off the side. */
function pageWidth(): Promise<number> {
	return page.locator("html").evaluate((root) => root.scrollWidth);
}

async function look(name: string): Promise<void> {
	if (LOOK_DIR === undefined || LOOK_DIR === "") return;
	await mkdir(LOOK_DIR, { recursive: true });
	await writeFile(`${LOOK_DIR}/${name}`, await page.screenshot({ type: "png", fullPage: true }));
	await writeFile(`${LOOK_DIR}/screen-${name}`, await page.screenshot({ type: "png" }));
}

beforeAll(async () => {
	service = await startLocalService("Order shipments");
	const partner = await createPartner(service, "Abbott Prints");
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	const created = await createOrder(service.origin, key, {
		externalId: "AB-3301",
		printFileId: file,
		shipTo: SHIP_TO,
		items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white", quantity: 3 }],
	});
	partial = await waitForOrderStatus(service.origin, key, created.id, "in_production");
	const opsKey = await issueOpsKey(service);
	const itemId = partial.items[0]?.id ?? "";
	for (const [carrier, number, quantity] of [
		["UPS", "1Z999AA10123456784", 1],
		["FedEx", "794644790132", 1],
	] as const) {
		await callApi(service.origin, opsKey, "POST", `/v1/ops/orders/${partial.id}/shipments`, {
			carrier,
			number,
			items: [{ item_id: itemId, quantity }],
		});
	}
	for (const width of WIDTHS) {
		const order = await createOrder(service.origin, key, {
			externalId: `AB-34${width}`,
			printFileId: file,
			shipTo: SHIP_TO,
			items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white", quantity: 3 }],
		});
		formOrders.set(width, await waitForOrderStatus(service.origin, key, order.id, "in_production"));
	}
	({ chromium, page } = await signedInFloorPage(service, opsKey, { width: 1440, height: 900 }));
});

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("shipments on the floor's pages at %i px wide", (width) => {
	it("the order page lists each label with its units, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${partial.id}`);
		const section = page.getByRole("region", { name: "Shipments" });
		expect(await page.getByTestId("fulfillment").textContent()).toBe("2 of 3 units shipped, 0 delivered.");
		const text = (await section.textContent()) ?? "";
		expect(text).toContain("UPS 1Z999AA10123456784");
		expect(text).toContain("FedEx 794644790132");
		expect(text).toContain("1 × Item 1 of 1 · 8 × 10 in");
		expect(await pageWidth()).toBeLessThanOrEqual(width);
		await section.evaluate((panel) => panel.scrollIntoView());
		await look(`order-page-${width}.png`);
	});

	it("the queue's row says 2 of 3 shipped, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders?q=AB-3301`);
		expect(await page.locator(`tr[data-order-id="${partial.id}"]`).textContent()).toContain("2 of 3 shipped");
		expect(await pageWidth()).toBeLessThanOrEqual(width);
		await look(`queue-${width}.png`);
	});
	it("the shipment form ships the units chosen and a shipment's button marks it delivered, inside the screen", async () => {
		const order = formOrders.get(width);
		if (order === undefined) throw new Error("no order for the form");
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/orders/${order.id}`);
		const section = page.getByRole("region", { name: "Shipments" });
		await section.getByLabel(/Item 1 of 1/).fill("2");
		await section.getByLabel("Carrier").fill("UPS");
		await section.getByLabel("Tracking number").fill(`1Z999AA1012345${width}`);
		await look(`shipment-form-${width}.png`);
		await section.getByRole("button", { name: "Record shipment" }).click();
		expect(await page.getByRole("status").textContent()).toBe("Shipment recorded.");
		expect(await page.getByTestId("fulfillment").textContent()).toBe("2 of 3 units shipped, 0 delivered.");
		expect(await section.textContent()).toContain("(1 left)");
		const docsName = width === 390 ? "ops-order-shipments-narrow.png" : "ops-order-shipments.png";
		await keepScreenshot(docsName, await section.screenshot({ type: "png" }));
		await section.getByRole("button", { name: "Delivered" }).click();
		expect(await page.getByRole("status").textContent()).toBe("Shipment marked delivered.");
		expect(await page.getByTestId("fulfillment").textContent()).toBe("2 of 3 units shipped, 2 delivered.");
		expect(await pageWidth()).toBeLessThanOrEqual(width);
		await section.evaluate((panel) => panel.scrollIntoView());
		await look(`shipment-delivered-${width}.png`);
	});
});
