import { describe, expect, it } from "vitest";
import { NO_TAX, taxOn } from "../../src/ledger/entry-tax.ts";

const VAT_19 = { treatment: "vat", rate_bp: 1900 } as const;

describe("taxOn", () => {
	it("takes the rate of the taxable amount, rounded half away from zero once, signed like the amount", () => {
		expect(taxOn(18450, VAT_19)).toEqual({ treatment: "vat", rate_bp: 1900, cents: 3506 });
		// 50 × 19 % = 9.5: half away from zero, both ways.
		expect(taxOn(50, VAT_19).cents).toBe(10);
		expect(taxOn(-50, VAT_19).cents).toBe(-10);
		expect(taxOn(49, VAT_19).cents).toBe(9);
		expect(taxOn(0, VAT_19).cents).toBe(0);
		// A yen amount is whole yen already: ¥15,000 at 10 % is ¥1,500.
		expect(taxOn(15_000, { treatment: "vat", rate_bp: 1000 }).cents).toBe(1500);
	});

	it("charges nothing, at rate 0, without tax or under reverse charge whatever the rule's rate", () => {
		expect(taxOn(18450, NO_TAX)).toEqual({ treatment: "none", rate_bp: 0, cents: 0 });
		expect(taxOn(18450, { treatment: "reverse_charge", rate_bp: 1900 })).toEqual({
			treatment: "reverse_charge",
			rate_bp: 0,
			cents: 0,
		});
	});

	it("is exact past 2^31 and refuses an amount that is not a whole number of minor units", () => {
		expect(taxOn(9_000_000_000_000, { treatment: "vat", rate_bp: 2500 }).cents).toBe(2_250_000_000_000);
		expect(() => taxOn(12.5, VAT_19)).toThrow(RangeError);
	});
});
