/**
 * The partner console's monthly invoice: the service as supplier, the partner with its tax country and
 * VAT number, each entry of the month with its net, tax rate and tax, and the totals due, every figure
 * the statement API's; under a reverse charge, the legal mention naming the partner's VAT number.
 * Attacks: a support user cannot open it; a malformed month is a 422 page.
 */
import { describe, expect, it } from "vitest";
import { moneyText } from "../../src/money/currencies.ts";
import { REVERSE_CHARGE_MENTION, SUPPLIER } from "../../src/partner-console/money-invoice.tsx";
import { deliveredOrder } from "../claims/claim-helpers.ts";
import { createAdminKey } from "../helpers.ts";
import { currentMonth, postAdjustment, setBilling, statementOk } from "../ledger/ledger-helpers.ts";
import { signedInUser } from "./console-client.ts";

/** A delivered (so charged) order of a new account billed from Germany, a goodwill adjustment after it, and an owner. */
async function germanPartner(taxId: string | null) {
	const made = await deliveredOrder(2);
	await setBilling(made.partner.account.id, { currency: "USD", duty_terms: "dap", tax_country: "DE", tax_id: taxId });
	const adjusted = await postAdjustment(await createAdminKey(), made.partner.account.id, {
		mode: "live",
		amount_cents: 10_050,
		memo: "Framing upgrade agreed by email",
	});
	expect(adjusted.status, await adjusted.clone().text()).toBe(201);
	return { ...made, user: await signedInUser("owner", made.partner) };
}

describe("the month's invoice", () => {
	it("names supplier and partner, lists each entry with net, rate and tax, and totals as the statement says", async () => {
		const { key, order, partner, user } = await germanPartner(null);
		const response = await user.get(`/partner/money/invoice?month=${currentMonth()}`);
		expect(response.status).toBe(200);
		const html = await response.text();
		const statement = await statementOk(key);
		// The adjustment is taxed at the account's treatment now: German VAT, 19 % of $100.50 rounded half away from zero.
		expect(statement.entries.at(-1)).toMatchObject({ tax_treatment: "vat", tax_rate_bp: 1900, tax_cents: 1910 });
		expect(html).toContain(SUPPLIER.name);
		expect(html).toContain(partner.account.name);
		expect(html).toContain("Tax country: Germany");
		expect(html).toContain("No VAT number");
		expect(html).toContain(`Order ${order.external_id}`);
		for (const entry of statement.entries) {
			expect(html).toContain(entry.at.slice(0, 10));
			expect(html).toContain(moneyText(entry.amount_cents, statement.currency));
			expect(html).toContain(moneyText(entry.tax_cents, statement.currency));
		}
		expect(html).toContain("19 %");
		expect(html).toContain("No tax");
		expect(html).toContain(moneyText(statement.totals.net_cents, statement.currency));
		expect(html).toContain(moneyText(statement.totals.tax_cents, statement.currency));
		expect(html).toContain(moneyText(statement.totals.net_with_tax_cents, statement.currency));
		expect(statement.totals.net_with_tax_cents).toBe(statement.totals.net_cents + 1910);
		expect(html).not.toContain(REVERSE_CHARGE_MENTION);
		expect(html).toContain("@media print");
	});

	it("under a reverse charge taxes nothing and carries the legal mention with the partner's VAT number", async () => {
		const { key, user } = await germanPartner("DE123456789");
		const html = await (await user.get("/partner/money/invoice")).text();
		const statement = await statementOk(key);
		expect(statement.entries.at(-1)).toMatchObject({ tax_treatment: "reverse_charge", tax_rate_bp: 0, tax_cents: 0 });
		expect(statement.totals.tax_cents).toBe(0);
		expect(html).toContain("VAT number: DE123456789");
		expect(html).toContain(`${REVERSE_CHARGE_MENTION} (customer&#39;s VAT number DE123456789).`);
	});

	it("is linked from the statement page, and says a month without entries has none", async () => {
		const { user } = await germanPartner(null);
		const statementPage = await (await user.get("/partner/money")).text();
		expect(statementPage).toContain(`href="/partner/money/invoice?month=${currentMonth()}"`);
		const empty = await (await user.get("/partner/money/invoice?month=2024-02")).text();
		expect(empty).toContain("Invoice · February 2024");
		expect(empty).toContain("No entries in February 2024.");
	});

	it("refuses a support user (403) and a malformed month (422 page), never a 500", async () => {
		const support = await signedInUser("support");
		expect((await support.get("/partner/money/invoice")).status).toBe(403);
		const viewer = await signedInUser("viewer");
		const malformed = await viewer.get("/partner/money/invoice?month=2026-13");
		expect(malformed.status).toBe(422);
		expect(await malformed.text()).toContain("Choose a month as year and month");
	});
});
