/**
 * Statements in EUR and JPY read and reconcile like USD: a partner billed in the currency has orders
 * charged, one canceled and a claim refunded; the month's statement is in the account's currency, each
 * entry's amount is the order's own (whole minor units: whole yen), the totals and the closing balance
 * add up from the entries, and each entry carries the partner tax the order kept: German VAT at 19 %
 * on the taxable amount (the border's taxes and duties the service paid are outside it) for a partner
 * without a VAT number, the reverse charge (0) for one with it. Balances are kept per currency, and
 * the migration that keys them so rebuilds them from the entries as the trigger keeps them.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import { NO_TAX, taxOn } from "../../src/ledger/entry-tax.ts";
import type { Statement } from "../../src/ledger/statement.ts";
import { writeAdjustment } from "../../src/ledger/store.ts";
import type { Currency } from "../../src/money/currencies.ts";
import type { Order } from "../../src/orders/response.ts";
import { damagedBody, postClaimOk } from "../claims/claim-helpers.ts";
import { send } from "../helpers.ts";
import {
	createOrder,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	settleValidation,
	TRACKING,
} from "../orders/order-helpers.ts";
import { smallPng, uploadedFile } from "../print-files/upload-helpers.ts";
import { entriesOfOrder, setBilling, statementOk } from "./ledger-helpers.ts";

/** A London address: an order there crosses a border, and paid duty-paid it has taxes and duties. */
const LONDON = {
	name: "Mary Somerville",
	address1: "10 Downing Street",
	city: "London",
	zip: "SW1A 2AA",
	country: "GB",
};

/** Released (so charged) orders of a new partner billed in `currency` from Germany, with or without a VAT number. */
async function germanPartnerBilledIn(currency: Currency, taxId: string | null) {
	const made = await partnerWithFile({ opsKey: true });
	await setBilling(made.partner.account.id, { currency, duty_terms: "dap", tax_country: "DE", tax_id: taxId });
	const released = async (body: unknown): Promise<Order> => {
		const order = await settleValidation(made.key, (await createOrder(made.key, body)).id);
		expect(order.status).toBe("in_production");
		return order;
	};
	const domestic = await released(orderBody(made.file));
	const abroad = await released(orderBody(made.file, { ship_to: LONDON, duty_terms: "ddp" }, { quantity: 2 }));
	return { ...made, opsKey: made.opsKey ?? "", domestic, abroad };
}

/** Ships and delivers `order`, files a damage claim on one unit and approves a refund: the claim's credit. */
async function refundedClaim(key: string, opsKey: string, order: Order): Promise<number> {
	const shipped = await send("POST", `/v1/ops/orders/${order.id}/shipments`, opsKey, { ...TRACKING });
	expect(shipped.status).toBe(201);
	const { id: shipmentId } = (await shipped.json()) as { id: string };
	expect((await send("POST", `/v1/ops/shipments/${shipmentId}/deliver`, opsKey, undefined)).status).toBe(200);
	const photo = await uploadedFile(key, smallPng(48, 36));
	const claim = await postClaimOk(key, order.id, damagedBody(order.items[0]?.id ?? "", 1, [photo]));
	const decided = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey, { remedy: "refund" });
	expect(decided.status).toBe(200);
	return ((await decided.json()) as Claim).resolution?.credit_cents ?? 0;
}

/** Every figure of the statement adds up from its entries, each a whole number of minor units in its currency. */
function expectReconciled(statement: Statement, currency: Currency): void {
	expect(statement.currency).toBe(currency);
	const sum = (pick: (entry: Statement["entries"][number]) => number) =>
		statement.entries.reduce((total, entry) => total + pick(entry), 0);
	for (const entry of statement.entries) {
		expect(entry.currency).toBe(currency);
		expect(Number.isSafeInteger(entry.amount_cents) && Number.isSafeInteger(entry.tax_cents)).toBe(true);
	}
	const { totals } = statement;
	expect(totals.net_cents).toBe(sum((entry) => entry.amount_cents));
	expect(totals.charges_cents + totals.credits_cents + totals.adjustments_cents).toBe(totals.net_cents);
	expect(totals.tax_cents).toBe(sum((entry) => entry.tax_cents));
	expect(totals.net_with_tax_cents).toBe(totals.net_cents + totals.tax_cents);
	expect(statement.opening_balance_cents).toBe(0);
	expect(statement.closing_balance_cents).toBe(statement.opening_balance_cents + totals.net_cents);
}

describe("statements in other currencies", () => {
	it("in EUR for a German partner without a VAT number: orders, a cancellation and a claim credit, VAT at 19 % on the taxable amounts", async () => {
		const { key, opsKey, domestic, abroad } = await germanPartnerBilledIn("EUR", null);
		for (const order of [domestic, abroad]) {
			expect(order.costs).toMatchObject({ currency: "EUR", partner_tax: { treatment: "vat", rate_bp: 1900 } });
		}
		const bordersPaid = abroad.costs?.taxes_and_duties ?? 0;
		expect(bordersPaid).toBeGreaterThan(0);
		await opsMoveOk(opsKey, domestic.id, "cancel");
		const credit = await refundedClaim(key, opsKey, abroad);
		expect(credit).toBeGreaterThan(0);

		const vat = { treatment: "vat", rate_bp: 1900 } as const;
		const domesticTotal = domestic.costs?.total ?? 0;
		const abroadTotal = abroad.costs?.total ?? 0;
		const domesticTax = taxOn(domesticTotal, vat).cents;
		// The border's taxes and duties the service paid for the partner are outside the partner's VAT.
		const abroadTax = taxOn(abroadTotal - bordersPaid, vat).cents;
		expect(abroadTax).toBeLessThan(taxOn(abroadTotal, vat).cents);
		const taxed = (entry: { type: string; amount_cents: number; tax_cents: number; tax_treatment: string }) => [
			entry.type,
			entry.amount_cents,
			entry.tax_cents,
			entry.tax_treatment,
		];
		expect((await entriesOfOrder(domestic.id)).map(taxed)).toEqual([
			["charge", domesticTotal, domesticTax, "vat"],
			["cancellation_credit", -domesticTotal, -domesticTax, "vat"],
		]);
		expect((await entriesOfOrder(abroad.id)).map(taxed)).toEqual([
			["charge", abroadTotal, abroadTax, "vat"],
			["claim_credit", -credit, taxOn(-credit, vat).cents, "vat"],
		]);

		const statement = await statementOk(key);
		expectReconciled(statement, "EUR");
		expect(statement.entries.every((entry) => entry.tax_rate_bp === 1900)).toBe(true);
		expect(statement.totals.net_cents).toBe(abroadTotal - credit);
		expect(statement.totals.tax_cents).toBe(abroadTax + taxOn(-credit, vat).cents);
	});

	it("in JPY for a German partner with a VAT number: whole yen, reverse charge with no tax on any entry", async () => {
		const { key, opsKey, domestic, abroad } = await germanPartnerBilledIn("JPY", "DE123456789");
		for (const order of [domestic, abroad]) {
			expect(order.costs).toMatchObject({ currency: "JPY", partner_tax: { treatment: "reverse_charge", rate_bp: 0 } });
		}
		await opsMoveOk(opsKey, domestic.id, "cancel");
		const credit = await refundedClaim(key, opsKey, abroad);

		const statement = await statementOk(key);
		expectReconciled(statement, "JPY");
		expect(statement.entries.map((entry) => [entry.type, entry.amount_cents])).toEqual([
			["charge", domestic.costs?.total],
			["charge", abroad.costs?.total],
			["cancellation_credit", -(domestic.costs?.total ?? 0)],
			["claim_credit", -credit],
		]);
		expect(
			statement.entries.every(
				(entry) => entry.tax_treatment === "reverse_charge" && entry.tax_rate_bp === 0 && entry.tax_cents === 0,
			),
		).toBe(true);
		expect(statement.totals.tax_cents).toBe(0);
		expect(statement.totals.net_with_tax_cents).toBe(statement.totals.net_cents);
	});

	it("a repricing is taxed on the difference of the taxable amounts before and after", async () => {
		const { key, abroad } = await germanPartnerBilledIn("EUR", null);
		const patched = await send("PATCH", `/v1/orders/${abroad.id}`, key, { shipping_method: "express" });
		expect(patched.status).toBe(200);
		const after = ((await patched.json()) as Order).costs;
		const before = abroad.costs;
		const taxable = (costs: typeof before) => (costs?.total ?? 0) - (costs?.taxes_and_duties ?? 0);
		const vat = { treatment: "vat", rate_bp: 1900 } as const;
		const [, repricing] = await entriesOfOrder(abroad.id);
		expect(repricing).toMatchObject({
			type: "repricing",
			amount_cents: (after?.total ?? 0) - (before?.total ?? 0),
			tax_cents: taxOn(taxable(after) - taxable(before), vat).cents,
			tax_treatment: "vat",
		});
		expectReconciled(await statementOk(key), "EUR");
	});

	it("balances are kept per currency: a month opens at the closing of the latest earlier month in its own currency", async () => {
		const { partner, key } = await partnerWithFile();
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const adjust = (currency: Currency, amountCents: number, at: string) =>
			writeAdjustment(env.DB, owner, { amountCents, currency, memo: "Correction", tax: NO_TAX }, new Date(at));
		await adjust("EUR", 5000, "2025-03-10T12:00:00.000Z");
		await adjust("JPY", 700, "2025-05-10T12:00:00.000Z");
		await adjust("EUR", 100, "2025-06-10T12:00:00.000Z");
		expect(await statementOk(key, "2025-05")).toMatchObject({
			currency: "JPY",
			opening_balance_cents: 0,
			closing_balance_cents: 700,
		});
		expect(await statementOk(key, "2025-06")).toMatchObject({
			currency: "EUR",
			opening_balance_cents: 5000,
			closing_balance_cents: 5100,
		});
		// A month without entries is in the account's billing currency, opening at that currency's balance.
		await setBilling(partner.account.id, { currency: "JPY", duty_terms: "dap", tax_country: null, tax_id: null });
		expect(await statementOk(key, "2025-08")).toMatchObject({
			currency: "JPY",
			entries: [],
			opening_balance_cents: 700,
			closing_balance_cents: 700,
		});
	});
});

describe("the migration that keeps balances per currency", () => {
	it("rebuilds each account's months from its entries as the balances' trigger keeps them", async () => {
		const { partner } = await partnerWithFile();
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const adjust = (currency: Currency, amountCents: number, at: string) =>
			writeAdjustment(env.DB, owner, { amountCents, currency, memo: "Correction", tax: NO_TAX }, new Date(at));
		// Written out of order, in two currencies, as the months were kept before.
		await adjust("USD", 4200, "2025-02-03T10:00:00.000Z");
		await adjust("EUR", 900, "2025-04-01T00:00:00.000Z");
		await adjust("USD", -700, "2025-01-20T10:00:00.000Z");
		await adjust("USD", 150, "2025-04-30T23:59:59.999Z");
		const migration = env.TEST_MIGRATIONS.find((each) => each.name.includes("partner_tax_on_entries"));
		const rebuild = migration?.queries.filter((query) => /ledger_months_by_currency \(/.test(query)) ?? [];
		expect(rebuild).toHaveLength(2);
		for (const query of rebuild) await env.DB.prepare(query).run();
		const months = (table: string) =>
			env.DB.prepare(
				`SELECT currency, month, net_cents, closing_balance_cents FROM ${table} WHERE account_id = ?1 ORDER BY currency, month`,
			)
				.bind(owner.accountId)
				.all()
				.then((read) => read.results);
		const kept = await months("ledger_months");
		expect(kept).toEqual([
			{ currency: "EUR", month: "2025-04", net_cents: 900, closing_balance_cents: 900 },
			{ currency: "USD", month: "2025-01", net_cents: -700, closing_balance_cents: -700 },
			{ currency: "USD", month: "2025-02", net_cents: 4200, closing_balance_cents: 3500 },
			{ currency: "USD", month: "2025-04", net_cents: 150, closing_balance_cents: 3650 },
		]);
		expect(await months("ledger_months_by_currency")).toEqual(kept);
		await env.DB.prepare("DROP TABLE ledger_months_by_currency").run();
	});
});
