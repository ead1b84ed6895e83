/**
 * The partner console's monthly invoice in Debian's Chromium against a real `wrangler dev`, on a phone
 * (390 px) and a desktop (1,440 px): an owner of a partner established in Germany with a VAT number
 * opens the month's statement, follows its link to the invoice, and reads the supplier, the partner's
 * VAT number, each entry, the totals the statement API gives and the reverse-charge mention. The page
 * passes axe-core, stays under the page budget and fits the screen; printed, it is the invoice alone
 * on A4 or Letter.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { components } from "../../clients/typescript/schema.d.ts";
import { executeSql } from "../../scripts/lib/wrangler.ts";
import { moneyText } from "../../src/money/currencies.ts";
import { type LocalService, startLocalService } from "./support/local-service.ts";
import { callApi, createOrder, createPartner, uploadPrintFile, waitForOrderStatus } from "./support/partner-api.ts";
import { expectGoodPage, PARTNER_WIDTHS, signedInPartnerPage } from "./support/partner-console.ts";
import { PAPER_POINTS, readPdf } from "./support/rendered-output.ts";

type Statement = components["schemas"]["Statement"];

const VAT_NUMBER = "DE123456789";
const REVERSE_CHARGE_MENTION = "Reverse charge: the customer accounts for the VAT";
const EXTERNAL_ID = "HMS-3310";

let service: LocalService | undefined;
let accountId = "";
let partnerKey = "";

function running(): LocalService {
	if (service === undefined) throw new Error("the local service did not start");
	return service;
}

beforeAll(async () => {
	service = await startLocalService("Partner invoice");
	const partner = await createPartner(service, "Hafen Museumsladen");
	accountId = partner.account.id;
	partnerKey = partner.keys.live.key;
	// Established in Germany with a VAT number (no route sets a partner's billing in this test's scope).
	await executeSql(
		`INSERT INTO account_billing (account_id, currency, duty_terms, tax_country, tax_id, updated_at)
		 VALUES ('${accountId}', 'USD', 'dap', 'DE', '${VAT_NUMBER}', '2026-01-01T00:00:00.000Z');`,
		service.database,
	);
	const file = await uploadPrintFile(service.origin, partnerKey);
	const created = await createOrder(service.origin, partnerKey, {
		externalId: EXTERNAL_ID,
		printFileId: file,
		shipTo: {
			name: "Julia Cameron",
			address1: "9 Dimbola Lane",
			city: "Portland",
			state: "ME",
			zip: "04101",
			country: "US",
		},
		items: [{ widthIn: 8, heightIn: 10, frame: "gallery-black-125", mat: "bright-white", quantity: 2 }],
	});
	await waitForOrderStatus(service.origin, partnerKey, created.id, "in_production");
	await callApi(service.origin, service.adminKey, "POST", `/v1/admin/accounts/${accountId}/adjustments`, {
		mode: "live",
		amount_cents: -1250,
		memo: "Goodwill credit for a late delivery",
	});
}, 180_000);

afterAll(async () => {
	await service?.stop();
});

describe.each(PARTNER_WIDTHS)("the monthly invoice in the partner console at %i px", (width) => {
	it("an owner follows the statement's link to the month's invoice, with the statement's figures and the reverse-charge mention", async () => {
		const { chromium, page } = await signedInPartnerPage(running(), accountId, "owner", width);
		const origin = running().origin;
		try {
			const month = new Date().toISOString().slice(0, 7);
			const statement = await callApi<Statement>(origin, partnerKey, "GET", `/v1/statements/${month}`);
			expect(statement.entries.map((entry) => entry.type)).toEqual(["charge", "adjustment"]);
			await page.goto(`${origin}/partner/money`);
			await page.getByRole("link", { name: /^Invoice of / }).click();
			await page.waitForURL(`${origin}/partner/money/invoice?month=${month}`);
			expect(await page.getByRole("heading", { level: 1 }).textContent()).toMatch(/^Invoice · \w+ \d{4}$/);
			const text = (await page.locator("main").textContent()) ?? "";
			expect(text).toContain("Hafen Museumsladen");
			expect(text).toContain(`VAT number: ${VAT_NUMBER}`);
			expect(text).toContain(`Order ${EXTERNAL_ID}`);
			expect(text).toContain("Goodwill credit for a late delivery");
			for (const total of [
				statement.totals.net_cents,
				statement.totals.tax_cents,
				statement.totals.net_with_tax_cents,
			]) {
				expect(text).toContain(moneyText(total, statement.currency));
			}
			expect(text).toContain(`${REVERSE_CHARGE_MENTION} (customer's VAT number ${VAT_NUMBER}).`);
			await expectGoodPage(page, width, `partner-money-invoice-${width}.png`);

			for (const [format, paper] of [
				["A4", "a4"],
				["Letter", "letter"],
			] as const) {
				const pdf = await readPdf(await page.pdf({ format, printBackground: true }));
				const [size] = pdf.pageSizes;
				expect(Math.abs((size?.width ?? 0) - PAPER_POINTS[paper].width)).toBeLessThan(1.5);
				expect(pdf.text).toContain("Total due");
				expect(pdf.text).toContain(VAT_NUMBER);
				// On paper the invoice stands alone: no console bars, no sign-out.
				expect(pdf.text).not.toContain("Sign out");
				expect(pdf.text).not.toContain("Back to the statement");
			}
		} finally {
			await chromium.close();
		}
	});
});
