import { describe, expect, it } from "vitest";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";

type Billing = {
	account_id: string;
	currency: string;
	duty_terms: string;
	tax_country: string | null;
	tax_id: string | null;
};

async function readBilling(key: string): Promise<Billing> {
	const response = await api("/v1/account/billing", { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Billing;
}

async function patchBilling(key: string, body: unknown): Promise<Billing> {
	const response = await send("PATCH", "/v1/account/billing", key, body);
	expect(response.status).toBe(200);
	return (await response.json()) as Billing;
}

describe("GET /v1/account/billing", () => {
	it("an account that never chose is billed in USD, duty unpaid, with no tax country; both modes read the same", async () => {
		const partner = await createPartner();
		const billing = await readBilling(partner.keys.live.key);
		expect(billing).toEqual({
			account_id: partner.account.id,
			currency: "USD",
			duty_terms: "dap",
			tax_country: null,
			tax_id: null,
		});
		expect(await readBilling(partner.keys.test.key)).toEqual(billing);
		await expectError(await api("/v1/account/billing"), "unauthorized");
	});
});

describe("PATCH /v1/account/billing", () => {
	it("a test key's change of duty terms is the account's: the live key reads it, another account does not", async () => {
		const partner = await createPartner();
		const other = await createPartner();
		const changed = await patchBilling(partner.keys.test.key, { duty_terms: "ddp" });
		expect(changed.duty_terms).toBe("ddp");
		expect((await readBilling(partner.keys.live.key)).duty_terms).toBe("ddp");
		expect((await readBilling(other.keys.live.key)).duty_terms).toBe("dap");
	});

	it("stores a VAT number upper case, without spaces, dots or dashes, with its prefix (EL for Greece)", async () => {
		const key = (await createPartner()).keys.live.key;
		expect(await patchBilling(key, { tax_country: "DE", tax_id: "de 136.695-976" })).toMatchObject({
			tax_country: "DE",
			tax_id: "DE136695976",
		});
		expect((await patchBilling(key, { tax_country: "AT", tax_id: "U13585627" })).tax_id).toBe("ATU13585627");
		expect((await patchBilling(key, { tax_country: "GR", tax_id: "094259216" })).tax_id).toBe("EL094259216");
		const removed = await patchBilling(key, { tax_id: null });
		expect(removed).toMatchObject({ tax_country: "GR", tax_id: null, duty_terms: "dap" });
	});

	it("refuses a VAT number failing its check digits, of another country, or of a country whose numbers are not checked", async () => {
		const key = (await createPartner()).keys.live.key;
		const digits = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "DE", tax_id: "DE123456789" }),
			"validation_error",
			"tax_id",
		);
		expect(digits.code).toBe("invalid_tax_id");
		expect(digits.message).toContain("check digits");
		const french = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "DE", tax_id: "FR40303265045" }),
			"validation_error",
			"tax_id",
		);
		expect(french.message).toContain("France");
		const format = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "DE", tax_id: "DE12" }),
			"validation_error",
			"tax_id",
		);
		expect(format.message).toContain("format");
		const american = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "US", tax_id: "12-3456789" }),
			"validation_error",
			"tax_id",
		);
		expect(american.message).toContain("not checked");
		expect((await readBilling(key)).tax_id).toBeNull();
	});

	it("refuses a VAT number without a tax country, and a new tax country under the stored VAT number", async () => {
		const key = (await createPartner()).keys.live.key;
		const alone = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_id: "DE136695976" }),
			"validation_error",
			"tax_country",
		);
		expect(alone.code).toBe("invalid_tax_id");
		await patchBilling(key, { tax_country: "DE", tax_id: "DE136695976" });
		const moved = await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "FR" }),
			"validation_error",
			"tax_country",
		);
		expect(moved.message).toContain("DE136695976");
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: null }),
			"validation_error",
			"tax_country",
		);
		expect(await patchBilling(key, { tax_country: "FR", tax_id: "FR40303265045" })).toMatchObject({
			tax_country: "FR",
		});
	});

	it("refuses the currency (the service team's), an unknown country, unknown terms, and a key without orders:write", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { currency: "EUR" }),
			"validation_error",
			"currency",
		);
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "de" }),
			"validation_error",
			"tax_country",
		);
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "ZZ" }),
			"validation_error",
			"tax_country",
		);
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { duty_terms: "cif" }),
			"validation_error",
			"duty_terms",
		);
		await expectError(
			await send("PATCH", "/v1/account/billing", key, { tax_country: "DE", tax_id: "D".repeat(41) }),
			"validation_error",
			"tax_id",
		);
		await expectError(await send("PATCH", "/v1/account/billing", key, [1, 2]), "bad_request");
		const reader = await createKeyWithScopes(["orders:read"]);
		const refused = await expectError(
			await send("PATCH", "/v1/account/billing", reader, { duty_terms: "ddp" }),
			"forbidden",
		);
		expect(refused.code).toBe("scope_missing");
		expect((await readBilling(key)).currency).toBe("USD");
	});
});
