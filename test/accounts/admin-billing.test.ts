import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { NO_TAX } from "../../src/ledger/entry-tax.ts";
import { writeAdjustment } from "../../src/ledger/store.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";

type Billing = {
	account_id: string;
	currency: string;
	duty_terms: string;
	tax_country: string | null;
	tax_id: string | null;
};

/** An instant in the previous UTC month. */
function lastMonth(): Date {
	const now = new Date();
	return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 15));
}

async function putBilling(admin: string, accountId: string, body: unknown): Promise<Response> {
	return send("PUT", `/v1/admin/accounts/${accountId}/billing`, admin, body);
}

async function entryIn(accountId: string, mode: "live" | "test", cents: number, at: Date): Promise<void> {
	await writeAdjustment(
		env.DB,
		{ accountId, mode },
		{ amountCents: cents, currency: "USD", memo: "test entry", tax: NO_TAX },
		at,
	);
}

describe("PUT /v1/admin/accounts/{id}/billing", () => {
	it("sets an account's currency, which its partner reads, and its later adjustments are in it", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const response = await putBilling(admin, partner.account.id, { currency: "EUR", duty_terms: "ddp" });
		expect(response.status).toBe(200);
		const billing = (await response.json()) as Billing;
		expect(billing).toEqual({
			account_id: partner.account.id,
			currency: "EUR",
			duty_terms: "ddp",
			tax_country: null,
			tax_id: null,
		});
		const read = await api("/v1/account/billing", { key: partner.keys.test.key });
		expect(await read.json()).toEqual(billing);
		const adjusted = await send("POST", `/v1/admin/accounts/${partner.account.id}/adjustments`, admin, {
			mode: "live",
			amount_cents: -2_500,
			memo: "Goodwill credit",
		});
		expect(adjusted.status).toBe(201);
		expect(((await adjusted.json()) as { currency: string }).currency).toBe("EUR");
	});

	it("refuses a change of currency with an entry this month in either mode, saying to change it next month", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		await entryIn(partner.account.id, "test", 500, new Date());
		await entryIn(partner.account.id, "test", -500, new Date());
		const error = await expectError(await putBilling(admin, partner.account.id, { currency: "JPY" }), "conflict");
		expect(error.code).toBe("currency_change_refused");
		expect(error.message).toContain("2 ledger entries this month");
		expect(error.message).toContain("next month");
		// The same currency is no change: the other settings still change.
		const same = await putBilling(admin, partner.account.id, { currency: "USD", duty_terms: "ddp" });
		expect(same.status).toBe(200);
	});

	it("refuses a change of currency over an open balance from earlier months, saying how to settle it", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		await entryIn(partner.account.id, "live", 12_345, lastMonth());
		const error = await expectError(await putBilling(admin, partner.account.id, { currency: "GBP" }), "conflict");
		expect(error.code).toBe("currency_change_refused");
		expect(error.message).toContain("$123.45");
		expect(error.message).toContain("amount_cents -12345");
		expect(error.message).toContain("adjustment");
	});

	it("changes the currency of an account whose earlier months balance to zero and whose month has no entry", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		await entryIn(partner.account.id, "live", 9_000, lastMonth());
		await entryIn(partner.account.id, "live", -9_000, lastMonth());
		const response = await putBilling(admin, partner.account.id, { currency: "CAD" });
		expect(response.status).toBe(200);
		expect(((await response.json()) as Billing).currency).toBe("CAD");
	});

	it("checks the VAT number as the partner's change does, and keeps the fields left out", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const set = await putBilling(admin, partner.account.id, {
			currency: "EUR",
			tax_country: "NL",
			tax_id: "004495445B01",
		});
		expect(((await set.json()) as Billing).tax_id).toBe("NL004495445B01");
		const kept = await putBilling(admin, partner.account.id, { currency: "EUR" });
		expect(await kept.json()).toMatchObject({ tax_country: "NL", tax_id: "NL004495445B01" });
		await expectError(
			await putBilling(admin, partner.account.id, { currency: "EUR", tax_country: "BE", tax_id: "NL004495445B01" }),
			"validation_error",
			"tax_id",
		);
	});

	it("is refused to a partner key; an unknown account is a 404; a currency not billed in a 422", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		await expectError(await putBilling(partner.keys.live.key, partner.account.id, { currency: "EUR" }), "forbidden");
		await expectError(await putBilling(admin, "acct_nobody", { currency: "EUR" }), "not_found", "id");
		await expectError(await putBilling(admin, partner.account.id, { currency: "CHF" }), "validation_error", "currency");
		await expectError(await putBilling(admin, partner.account.id, { duty_terms: "ddp" }), "bad_request", "currency");
	});
});
