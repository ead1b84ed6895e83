/**
 * Shipping in bulk in Debian's Chromium against a real `wrangler dev`, on a phone (390 px) and a
 * desktop (1,440 px): an operator uploads a semicolon-separated file, as spreadsheets in much of
 * Europe save CSV, without tracking URLs; the preview lists every row and ships nothing; Confirm
 * ships exactly the previewed rows, and the summary says how many of them were applied.
 */
import { mkdir } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, opsBrowserPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	issueOpsKey,
	type Order,
	type ShipTo,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const SHIP_TO: ShipTo = {
	name: "Ines Duarte",
	address1: "Rua das Flores 12",
	city: "Porto",
	state: "PT",
	zip: "4050-262",
	country: "PT",
};

/** Where this run's screenshots go, for a person to look at; the docs' copy is taken by `npm run screenshots`. */
const SHOTS = "/tmp/bulk-import";

let service: LocalService | undefined;
let partnerKey = "";
let printFileId = "";
let opsKey = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

function origin(): string {
	return running().origin;
}

/** Two orders in production and one on hold (a frame the catalog does not have), numbered after `prefix`. */
async function ordersFor(prefix: string): Promise<{ ready: Order[]; held: Order }> {
	const put = (suffix: string, frame: string) =>
		createOrder(origin(), partnerKey, {
			externalId: `${prefix}-${suffix}`,
			printFileId,
			shipTo: SHIP_TO,
			items: [{ widthIn: 8, heightIn: 10, frame }],
		});
	const ready = [
		await waitForOrderStatus(origin(), partnerKey, (await put("1", "gallery-black-075")).id, "in_production"),
		await waitForOrderStatus(origin(), partnerKey, (await put("2", "walnut-flat-075")).id, "in_production"),
	];
	const held = await waitForOrderStatus(origin(), partnerKey, (await put("3", "no-such-frame")).id, "on_hold");
	return { ready, held };
}

async function statusOf(orderId: string): Promise<string> {
	return (await callApi<{ order: Order }>(origin(), opsKey, "GET", `/v1/ops/orders/${orderId}`)).order.status;
}

/** Whether anything runs off the page's right side. */
function overflows(page: Page, width: number): Promise<boolean> {
	return page.locator("html").evaluate((root: { scrollWidth: number }, limit) => root.scrollWidth > limit, width);
}

beforeAll(async () => {
	await mkdir(SHOTS, { recursive: true });
	service = await startLocalService("Bulk import");
	const partner = await createPartner(service, "Casa do Retrato");
	partnerKey = partner.keys.live.key;
	printFileId = await uploadPrintFile(service.origin, partnerKey);
	opsKey = await issueOpsKey(service);
});

afterAll(() => closeAll(undefined, service));

describe.each([
	{ width: 390, height: 844, prefix: "CDR-P" },
	{ width: 1440, height: 900, prefix: "CDR-D" },
])("Ship in bulk at $width px", ({ width, height, prefix }) => {
	let chromium: ChromiumSession | undefined;
	let page: Page;

	beforeAll(async () => {
		({ chromium, page } = await opsBrowserPage(running(), opsKey, { width, height }));
	});
	afterAll(() => chromium?.close());

	it("previews a semicolon-separated file without changing anything, confirms it, and sees the summary", async () => {
		const { ready, held } = await ordersFor(prefix);
		const [first, second] = ready;
		const csv = [
			"Order Number;Carrier;Tracking Number",
			`${first?.external_id};DHL;JD01460000${width}`,
			`${held.external_id};UPS;1Z999AA1${width}`,
			`${second?.external_id};"United Parcel Service";1Z999AA2${width}`,
		].join("\r\n");

		await page.goto(`${origin()}/ops/sign-in`);
		await page.getByLabel("API key").fill(opsKey);
		await page.getByRole("button", { name: "Sign in" }).click();
		await page.waitForURL(`${origin()}/ops/orders`);
		await page.goto(`${origin()}/ops/shipments/import`);
		await page.setInputFiles("#file", { name: "labels.csv", mimeType: "text/csv", buffer: Buffer.from(csv) });
		await page.getByRole("button", { name: "Preview" }).click();
		await page.waitForLoadState();

		const preview = page.getByTestId("import-preview");
		expect(await preview.locator(".counts").textContent()).toBe("3 rows: 2 would ship, 0 already shipped, 1 refused.");
		expect(await preview.locator("tr[data-action]").count()).toBe(3);
		expect(await preview.locator('tr[data-line="2"]').textContent()).toContain(
			`https://www.dhl.com/global-en/home/tracking/tracking-express.html?submit=1&tracking-id=JD01460000${width}`,
		);
		expect(await preview.locator('tr[data-action="refused"]').textContent()).toContain(
			"Cannot ship an order that is on_hold.",
		);
		expect(await overflows(page, width)).toBe(false);
		const previewShot = await page.screenshot({ path: `${SHOTS}/preview-${width}.png`, fullPage: true });
		if (width === 1440) await keepScreenshot("ops-import-preview.png", previewShot);
		for (const order of [...ready, held]) expect(await statusOf(order.id)).toBe(order.status);

		await page.getByRole("button", { name: "Confirm: ship 2 orders" }).click();
		await page.waitForLoadState();
		const summary = page.getByRole("status");
		expect(await summary.getAttribute("data-tone")).toBe("partial");
		expect(await summary.locator("p").textContent()).toBe("2 of 3 rows applied, 1 refused.");
		expect(await summary.locator("li").allTextContents()).toEqual([
			`Line 3 (${held.external_id}): Cannot ship an order that is on_hold.`,
		]);
		expect(await overflows(page, width)).toBe(false);
		await page.screenshot({ path: `${SHOTS}/summary-${width}.png`, fullPage: true });
		expect(await statusOf(first?.id ?? "")).toBe("shipped");
		expect(await statusOf(second?.id ?? "")).toBe("shipped");
		expect(await statusOf(held.id)).toBe("on_hold");
		const shipped = await callApi<{ order: Order }>(origin(), opsKey, "GET", `/v1/ops/orders/${second?.id}`);
		expect(shipped.order.tracking?.url).toBe(`https://www.ups.com/track?tracknum=1Z999AA2${width}`);
	});
});
