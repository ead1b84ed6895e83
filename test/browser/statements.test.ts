/**
 * The console's statements in Debian's Chromium against a real `wrangler dev`, on a phone (390 px) and
 * a desktop (1,440 px): every partner's month with its balances, one partner's entries with the CSV
 * link, all inside the screen; the CSV the link downloads keeps a formula in a memo inert.
 */
import { readFile } from "node:fs/promises";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, signedInFloorPage, startLocalService } from "./support/local-service.ts";
import {
	callApi,
	createOrder,
	createPartner,
	issueOpsKey,
	uploadPrintFile,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { keepScreenshot } from "./support/screenshots.ts";

const WIDTHS = [390, 1440] as const;

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let accountId = "";
let externalId = "";

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

/** Keeps a screenshot of the page when the run asks for them (SCREENSHOTS_DIR). */
async function look(name: string): Promise<void> {
	await keepScreenshot(name, await page.screenshot({ type: "png", fullPage: true }));
}

beforeAll(async () => {
	service = await startLocalService("Statements");
	const partner = await createPartner(service, "Cameron Prints");
	accountId = partner.account.id;
	const key = partner.keys.live.key;
	const file = await uploadPrintFile(service.origin, key);
	externalId = "CP-8120";
	const shipTo = {
		name: "Margaret Bourke",
		address1: "1 Chrysler Plaza",
		city: "Albany",
		state: "NY",
		zip: "12207",
		country: "US",
	};
	const items = [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white" }];
	const created = await createOrder(service.origin, key, { externalId, printFileId: file, shipTo, items });
	await waitForOrderStatus(service.origin, key, created.id, "in_production");
	await callApi(service.origin, service.adminKey, "POST", `/v1/admin/accounts/${accountId}/adjustments`, {
		mode: "live",
		amount_cents: -1500,
		memo: '=HYPERLINK("https://example.com","Goodwill credit for a late delivery")',
	});
	const opsKey = await issueOpsKey(service);
	({ chromium, page } = await signedInFloorPage(service, opsKey, { width: 1440, height: 900 }));
}, 180_000);

afterAll(() => closeAll(chromium, service));

describe.each(WIDTHS)("the console's statements at %i px wide", (width) => {
	it("lists every partner's month with its balances and CSV link, inside the screen", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/statements`);
		const row = page.locator("tr", { hasText: "Cameron Prints" });
		await row.waitFor();
		expect(await row.getByRole("link", { name: "CSV" }).isVisible()).toBe(true);
		if (width === 1440) await look("ops-statements.png");
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
	});

	it("shows a partner's entries and downloads the month's CSV with the memo's formula inert", async () => {
		await page.setViewportSize({ width, height: 900 });
		await page.goto(`${origin()}/ops/statements/${accountId}`);
		const text = (await page.locator("main").textContent()) ?? "";
		expect(text).toContain(`Order ${externalId}`);
		expect(text).toContain("Adjustment");
		if (width === 1440) await look("ops-statement.png");
		expect(await page.locator("html").evaluate((root) => root.scrollWidth)).toBeLessThanOrEqual(width);
		const [download] = await Promise.all([
			page.waitForEvent("download"),
			page.getByRole("link", { name: "Download CSV" }).click(),
		]);
		const path = await download.path();
		const csv = await readFile(path, "utf8");
		expect(csv).toContain(`"'=HYPERLINK(""https://example.com""`);
	});
});
