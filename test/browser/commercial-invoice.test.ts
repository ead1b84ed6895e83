/**
 * The commercial invoice as the floor prints it for an order abroad: the API's page
 * (`GET /v1/ops/orders/{id}/commercial-invoice`, ops key) for an order to each of DE, FR, GB, CA, AU
 * and JP in Debian's Chromium against a real `wrangler dev`. Each passes axe-core, prints on one
 * A4 and one Letter page carrying the order's values, and never scrolls sideways on a phone.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ChromiumSession } from "../../scripts/lib/chromium.ts";
import { closeAll, type LocalService, opsBrowserPage, startLocalService } from "./support/local-service.ts";
import {
	BRAND,
	callApi,
	issueOpsKey,
	type ShipTo,
	setUpBrandedPartner,
	waitForOrderStatus,
} from "./support/partner-api.ts";
import { expectAccessible } from "./support/partner-console.ts";
import { PAPER_POINTS, readPdf } from "./support/rendered-output.ts";
import { keepScreenshot } from "./support/screenshots.ts";

/** An order to each destination: its ship-to, its terms, and the framed item's declared value (none: its price). */
const DESTINATIONS: ReadonlyArray<{
	country: string;
	shipTo: ShipTo;
	terms: "ddp" | "dap";
	declared: { amount: number; currency: string } | null;
}> = [
	{
		country: "DE",
		shipTo: { name: "Käthe Kollwitz", address1: "Torstraße 5", city: "Berlin", zip: "10119", country: "DE" },
		terms: "ddp",
		declared: { amount: 4500, currency: "EUR" },
	},
	{
		country: "FR",
		shipTo: { name: "Berthe Morisot", address1: "12 rue de Rivoli", city: "Paris", zip: "75001", country: "FR" },
		terms: "dap",
		declared: null,
	},
	{
		country: "GB",
		shipTo: { name: "Gwen John", address1: "9 Northern Way", city: "Leeds", zip: "LS1 4AP", country: "GB" },
		terms: "ddp",
		declared: { amount: 3900, currency: "GBP" },
	},
	{
		country: "CA",
		shipTo: {
			name: "Emily Carr",
			address1: "100 Queen St W",
			city: "Toronto",
			state: "ON",
			zip: "M5H 2N2",
			country: "CA",
		},
		terms: "dap",
		declared: null,
	},
	{
		country: "AU",
		shipTo: {
			name: "Margaret Preston",
			address1: "1 Macquarie St",
			city: "Sydney",
			state: "NSW",
			zip: "2000",
			country: "AU",
		},
		terms: "ddp",
		declared: { amount: 12_000, currency: "AUD" },
	},
	{
		country: "JP",
		shipTo: {
			name: "Uemura Shoen",
			address1: "1-1 Chiyoda",
			city: "Chiyoda-ku, Tokyo",
			zip: "100-0001",
			country: "JP",
		},
		terms: "ddp",
		declared: { amount: 9800, currency: "JPY" },
	},
];

/** The fields of an order the invoice is checked against. */
type AbroadOrder = {
	id: string;
	external_id: string;
	duty_terms: "ddp" | "dap";
	items: { quantity: number; customs: { tariff_code: string | null } }[];
	costs: { landed_cost: { coverage: string; ioss: boolean } };
};

let service: LocalService | undefined;
let chromium: ChromiumSession | undefined;
let page: Page;
let opsKey = "";
const orders = new Map<string, AbroadOrder>();

function origin(): string {
	if (service === undefined) throw new Error("the local service did not start");
	return service.origin;
}

function order(country: string): AbroadOrder {
	const found = orders.get(country);
	if (found === undefined) throw new Error(`no order to ${country}`);
	return found;
}

async function openInvoice(country: string): Promise<void> {
	const response = await page.goto(`${origin()}/v1/ops/orders/${order(country).id}/commercial-invoice`);
	expect(response?.status()).toBe(200);
	expect(response?.headers()["content-type"]).toMatch(/^text\/html/);
}

beforeAll(async () => {
	service = await startLocalService("Commercial invoice");
	const { partner, printFileId } = await setUpBrandedPartner(service, "Harbour Museum Store");
	const key = partner.keys.live.key;
	opsKey = await issueOpsKey(service);
	for (const destination of DESTINATIONS) {
		const declared = destination.declared === null ? {} : { declared_value: destination.declared };
		const created = await callApi<{ id: string }>(service.origin, key, "POST", "/v1/orders", {
			external_id: `HMS-CI-${destination.country}`,
			ship_to: destination.shipTo,
			duty_terms: destination.terms,
			items: [
				{
					print_file_id: printFileId,
					width_in: 8,
					height_in: 10,
					frame: "walnut-flat-075",
					mat: "bright-white",
					quantity: 2,
					...declared,
				},
				{ print_file_id: printFileId, width_in: 8, height_in: 10 },
			],
		});
		await waitForOrderStatus(service.origin, key, created.id, "in_production");
		orders.set(destination.country, await callApi<AbroadOrder>(service.origin, key, "GET", `/v1/orders/${created.id}`));
	}
	({ chromium, page } = await opsBrowserPage(service, opsKey, { width: 1440, height: 1000 }));
}, 240_000);

afterAll(() => closeAll(chromium, service));

describe("GET /v1/ops/orders/{id}/commercial-invoice in Chromium", () => {
	it.each(DESTINATIONS.map((destination) => destination.country))(
		"to %s: passes axe-core and prints on one A4 and one Letter page with the order's values",
		async (country) => {
			await page.setViewportSize({ width: 1440, height: 1000 });
			await openInvoice(country);
			await expectAccessible(page);
			const abroad = order(country);
			expect(abroad.costs.landed_cost.coverage).toBe("estimated");
			for (const format of ["A4", "Letter"] as const) {
				const pdf = await readPdf(await page.pdf({ format, printBackground: true }));
				expect(pdf.pageSizes, `${country} on ${format}`).toHaveLength(1);
				const paper = PAPER_POINTS[format === "A4" ? "a4" : "letter"];
				expect(Math.abs((pdf.pageSizes[0]?.width ?? 0) - paper.width)).toBeLessThan(1.5);
				expect(pdf.text).toContain("Commercial invoice");
				expect(pdf.text).toContain(`CI-${abroad.id}`);
				expect(pdf.text).toContain(abroad.external_id);
				expect(pdf.text).toContain(BRAND.brand_name);
				expect(pdf.text).toContain(abroad.duty_terms === "ddp" ? "DDP" : "DAP");
				expect(pdf.text.includes("IOSS")).toBe(abroad.costs.landed_cost.ioss);
				for (const item of abroad.items) expect(pdf.text).toContain(item.customs.tariff_code ?? "—");
				expect(pdf.text).toContain("Sale of goods");
			}
			await keepScreenshot(
				`commercial-invoice-${country.toLowerCase()}.png`,
				await page.screenshot({ type: "png", fullPage: true }),
			);
		},
	);

	it.each(DESTINATIONS.map((destination) => destination.country))(
		"to %s: never scrolls sideways on a 390 px phone, and stays accessible there",
		async (country) => {
			await page.setViewportSize({ width: 390, height: 844 });
			await openInvoice(country);
			expect(
				await page.locator("html").evaluate((root: { scrollWidth: number }) => root.scrollWidth),
			).toBeLessThanOrEqual(390);
			await expectAccessible(page);
			if (country === "DE") {
				await keepScreenshot("commercial-invoice-de-390.png", await page.screenshot({ type: "png", fullPage: true }));
			}
		},
	);
});
