/**
 * The API reference offline: `/v1/docs` in Debian's Chromium with every request that leaves
 * loopback refused. The page's script is the worker's own copy of Scalar's bundle, so the reference
 * still renders and lists the operations.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumSession, launchChromium } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, startLocalService } from "./support/local-service.ts";

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
const refused: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
	service = await startLocalService("API reference");
	chromium = await launchChromium({ width: 1280, height: 900 });
	page = await chromium.context.newPage();
	page.on("pageerror", (error) => {
		pageErrors.push(String(error));
	});
	await page.route("**/*", (route) => {
		const { hostname, protocol } = new URL(route.request().url());
		if (protocol === "data:" || hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
		refused.push(route.request().url());
		return route.abort("internetdisconnected");
	});
});

afterAll(() => closeAll(chromium, service));

describe("GET /v1/docs without the internet", () => {
	it("renders the reference from the worker alone and lists the operations", async () => {
		if (service === undefined) throw new Error("the local service did not start");
		const response = await page.goto(`${service.origin}/v1/docs`);
		expect(response?.status()).toBe(200);
		// The first group is open; the others list their operations' paths.
		await page.getByText("Liveness: the Worker runs and D1 answers").first().waitFor({ timeout: 30_000 });
		for (const path of ["/v1/orders/{id}/items/{item_id}", "/v1/quotes", "/v1/ops/work-tickets", "/v1/price-book"]) {
			await page.getByText(path, { exact: true }).first().waitFor({ timeout: 30_000 });
		}
		expect(pageErrors).toEqual([]);
		// Nothing the page needs comes from elsewhere: whatever it tried, it rendered without it.
		expect(refused.filter((url) => url.endsWith(".js"))).toEqual([]);
	});
});
