import { describe, expect, it } from "vitest";
import { ceilDiv, roundHalfUp, safeInteger, safeProduct, safeSum } from "../../src/pricing/money.ts";

describe("exact money arithmetic", () => {
	it("rounds half up and divides up exactly, however near 2^53 the numerator", () => {
		expect(roundHalfUp(14_889, 10)).toBe(1_489);
		expect(roundHalfUp(14_884, 10)).toBe(1_488);
		expect(roundHalfUp(5, 10)).toBe(1);
		expect(ceilDiv(0, 7)).toBe(0);
		expect(ceilDiv(14, 7)).toBe(2);
		expect(ceilDiv(15, 7)).toBe(3);
		// 2 × numerator + denominator once passed 2^53 here and lost its last bit: 163,767,259,163,496.
		expect(roundHalfUp(9_007_199_253_992_252, 55)).toBe(163_767_259_163_495);
		// numerator + denominator − 1 likewise: 9,941,578,383.
		expect(ceilDiv(9_007_199_254_610_966, 906_013)).toBe(9_941_578_382);
		expect(roundHalfUp(Number.MAX_SAFE_INTEGER, 2)).toBe(2 ** 52);
		expect(ceilDiv(Number.MAX_SAFE_INTEGER, 1)).toBe(Number.MAX_SAFE_INTEGER);
	});

	it("refuses what it cannot compute exactly, rather than answer a wrong amount", () => {
		expect(() => roundHalfUp(2 ** 53, 10)).toThrow(RangeError);
		expect(() => ceilDiv(1, 0)).toThrow(RangeError);
		expect(() => ceilDiv(1.5, 1)).toThrow(RangeError);
		expect(() => safeInteger(Number.NaN, "total")).toThrow("total is NaN");
		expect(() => safeInteger(Number.POSITIVE_INFINITY, "total")).toThrow(RangeError);
		expect(() => safeSum([Number.MAX_SAFE_INTEGER, 1], "items total")).toThrow("items total");
		expect(() => safeProduct(2 ** 40, 2 ** 20, "line total")).toThrow("line total");
		expect(safeSum([1, 2, 3], "sum")).toBe(6);
		expect(safeSum([], "sum")).toBe(0);
		expect(safeProduct(14_889, 100, "line total")).toBe(1_488_900);
	});
});
