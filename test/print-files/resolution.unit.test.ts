import { describe, expect, it } from "vitest";
import { effectiveDpi, resolutionVerdict } from "../../src/print-files/resolution.ts";

describe("effectiveDpi", () => {
	it("is 300 for 5400 × 7200 px at 18 × 24 in (the spec's example)", () => {
		expect(effectiveDpi(5400, 7200, 18, 24)).toBe(300);
	});

	it("turns the image to the print's orientation: long side with long side", () => {
		expect(effectiveDpi(7200, 5400, 18, 24)).toBe(300);
		expect(effectiveDpi(5400, 7200, 24, 18)).toBe(300);
	});

	it("is the lower of the two sides' resolutions when the aspect ratios differ", () => {
		// 6000 / 20 = 300 on the long side, 3000 / 16 = 187.5 on the short side.
		expect(effectiveDpi(6000, 3000, 20, 16)).toBe(187.5);
	});
});

describe("resolutionVerdict", () => {
	it("rejects below 150, warns from 150 to under 300, accepts 300 and up", () => {
		expect(resolutionVerdict(149.99)).toBe("reject");
		expect(resolutionVerdict(150)).toBe("warn");
		expect(resolutionVerdict(299.99)).toBe("warn");
		expect(resolutionVerdict(300)).toBe("ok");
		expect(resolutionVerdict(1200)).toBe("ok");
	});
});
