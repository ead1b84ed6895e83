import { describe, expect, it } from "vitest";
import type { Currency } from "../../src/money/currencies.ts";
import { convert, fromUsdCents } from "../../src/money/exchange.ts";

/** The development seed's sheet (migration 0040). */
const SEED: Record<Currency, number> = {
	USD: 1_000_000,
	EUR: 862_000,
	GBP: 760_000,
	CAD: 1_400_000,
	AUD: 1_530_000,
	JPY: 155_000_000,
};

describe("convert", () => {
	it("answers the amount itself when both currencies are one, whatever the rates", () => {
		expect(convert(12_345, "EUR", "EUR", SEED)).toBe(12_345);
		expect(convert(-7, "JPY", "JPY", SEED)).toBe(-7);
		expect(convert(0, "USD", "USD", SEED)).toBe(0);
	});

	it("converts exactly where the rate divides: $10.00 is €8.62 at 0.862", () => {
		expect(convert(1_000, "USD", "EUR", SEED)).toBe(862);
		expect(convert(862, "EUR", "USD", SEED)).toBe(1_000);
		expect(fromUsdCents(1_000, "GBP", { per_usd_micros: SEED })).toBe(760);
	});

	it("rounds half away from zero: 1.5 minor units is 2, −1.5 is −2, 4.5 is 5, 1.49 is 1", () => {
		const rates = { ...SEED, EUR: 1_500_000 };
		expect(convert(1, "USD", "EUR", rates)).toBe(2);
		expect(convert(-1, "USD", "EUR", rates)).toBe(-2);
		expect(convert(3, "USD", "EUR", rates)).toBe(5);
		expect(convert(-3, "USD", "EUR", rates)).toBe(-5);
		expect(convert(1, "USD", "EUR", { ...SEED, EUR: 1_490_000 })).toBe(1);
	});

	it("gives whole yen, JPY having no minor unit: $1.00 is ¥155, one cent ¥2 (1.55), ¥155 is 100 cents", () => {
		expect(convert(100, "USD", "JPY", SEED)).toBe(155);
		expect(convert(1, "USD", "JPY", SEED)).toBe(2);
		expect(convert(155, "JPY", "USD", SEED)).toBe(100);
		expect(convert(1, "JPY", "USD", SEED)).toBe(1);
		expect(convert(100, "USD", "JPY", { ...SEED, JPY: 155_500_000 })).toBe(156);
		expect(convert(-100, "USD", "JPY", { ...SEED, JPY: 155_500_000 })).toBe(-156);
	});

	it("converts between two currencies other than the dollar through their rates, once: €100.00 is £88.17", () => {
		// 10,000 × 760,000 / 862,000 = 8,816.7…
		expect(convert(10_000, "EUR", "GBP", SEED)).toBe(8_817);
		expect(convert(10_000, "EUR", "JPY", SEED)).toBe(17_981);
	});

	it("refuses an amount that is not a safe whole number, and an answer past 2^53", () => {
		expect(() => convert(1.5, "USD", "EUR", SEED)).toThrow(RangeError);
		expect(() => convert(2 ** 53, "USD", "EUR", SEED)).toThrow(RangeError);
		expect(() => convert(Number.NaN, "USD", "EUR", SEED)).toThrow(RangeError);
		expect(() => convert(Number.MAX_SAFE_INTEGER, "USD", "JPY", SEED)).toThrow(/past 2\^53/);
		// BigInt on the way: a product far past 2^53 still converts exactly when the answer fits.
		expect(convert(Number.MAX_SAFE_INTEGER, "USD", "EUR", { ...SEED, EUR: 1_000_000 })).toBe(Number.MAX_SAFE_INTEGER);
	});
});
