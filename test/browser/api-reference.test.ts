/**
 * The API reference offline: `/v1/docs` in Debian's Chromium with every request that leaves
 * loopback refused. The page's script is the worker's own copy of Scalar's bundle, so the reference
 * still renders and lists the operations; it offers none of Scalar's online services, starts on the
 * bearer key, and Scalar's reader finds nothing wrong with the document.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ChromiumSession, launchChromium } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, startLocalService } from "./support/local-service.ts";

let service: LocalService | undefined;

beforeAll(async () => {
	service = await startLocalService("API reference");
});

afterAll(() => closeAll(undefined, service));

/** Scalar's buttons for its own services, which need scalar.com and mean nothing to a partner. */
const SCALAR_SERVICE_BUTTONS = ["Ask AI", "Deploy", "Share", "Developer Tools", "Configure", "Open API Client"];

describe.each([
	{ width: 390, height: 844 },
	{ width: 1440, height: 900 },
])("GET /v1/docs without the internet, $width px wide", (viewport) => {
	let chromium: ChromiumSession | undefined;
	let page: Page;
	const refused: string[] = [];
	const pageErrors: string[] = [];
	const consoleProblems: string[] = [];

	beforeAll(async () => {
		if (service === undefined) throw new Error("the local service did not start");
		chromium = await launchChromium(viewport);
		page = await chromium.context.newPage();
		page.on("pageerror", (error) => {
			pageErrors.push(String(error));
		});
		page.on("console", (message) => {
			if (message.type() === "warning" || message.type() === "error") consoleProblems.push(message.text());
		});
		await page.route("**/*", (route) => {
			const { hostname, protocol } = new URL(route.request().url());
			if (protocol === "data:" || hostname === "127.0.0.1" || hostname === "localhost") return route.continue();
			refused.push(route.request().url());
			return route.abort("internetdisconnected");
		});
		const response = await page.goto(`${service.origin}/v1/docs`);
		expect(response?.status()).toBe(200);
		await page.getByText("Liveness: the Worker runs and D1 answers").first().waitFor({ timeout: 30_000 });
	});

	afterAll(() => chromium?.close());

	it("renders the reference from the worker alone and lists the operations", async () => {
		// The first group is open; the others list their operations' paths.
		for (const path of ["/v1/orders/{id}/items/{item_id}", "/v1/quotes", "/v1/claims", "/v1/price-book"]) {
			await page.getByText(path, { exact: true }).first().waitFor({ state: "attached", timeout: 30_000 });
		}
		expect(pageErrors).toEqual([]);
	});

	it("tries to reach no other origin, and logs no warning or error (no document validation errors)", () => {
		expect(refused).toEqual([]);
		expect(consoleProblems).toEqual([]);
	});

	it("opens with the introduction's sections and links the document and the Postman collection", async () => {
		for (const heading of [
			"Authentication.",
			"Modes.",
			"Errors.",
			"Idempotency.",
			"Pagination.",
			"Rate limits.",
			"Webhooks.",
		]) {
			await page.getByText(heading, { exact: true }).first().waitFor({ state: "attached" });
		}
		expect(await page.locator('a[href="/v1/postman.json"]').count()).toBeGreaterThan(0);
		expect(await page.locator('a[href="/v1/openapi.json"]').count()).toBeGreaterThan(0);
	});

	it("shows none of Scalar's online services: Ask AI, Deploy, Share, the developer tools, the hosted client", async () => {
		for (const label of SCALAR_SERVICE_BUTTONS) {
			expect(await page.getByRole("button", { name: label, exact: true }).count(), label).toBe(0);
			expect(await page.getByRole("link", { name: label, exact: true }).count(), label).toBe(0);
		}
	});

	it("starts on the bearer key: the authentication panel names bearerAuth and asks for the token", async () => {
		await page.getByText("Bearer Token").first().waitFor({ state: "attached" });
		expect(await page.getByText("bearerAuth").count()).toBeGreaterThan(0);
		expect(await page.getByText("No authentication selected").count()).toBe(0);
	});

	it('"Test request" with the token left empty is a 401 saying the key is missing, not that the scheme is wrong', async () => {
		if (service === undefined || chromium === undefined) throw new Error("the local service did not start");
		// A fresh page opened on the catalog's operation, whose "Test Request" is then the only one shown.
		const client = await chromium.context.newPage();
		await client.goto(`${service.origin}/v1/docs#tag/catalog/GET/v1/catalog`);
		await client.getByText("Read the catalog of frames, mats and sizes").first().waitFor({ state: "attached" });
		await client.getByRole("button", { name: "Test Request" }).first().click();
		const send = client.getByRole("button", { name: /^Send/ }).first();
		await send.waitFor();
		const answer = client.waitForResponse((response) => new URL(response.url()).pathname === "/v1/catalog");
		await send.click();
		const response = await answer;
		expect(response.status()).toBe(401);
		const body = (await response.json()) as { error: { message: string } };
		expect(body.error.message).toContain("no API key after 'Bearer '");
	});
});
