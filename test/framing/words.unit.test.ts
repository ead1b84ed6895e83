import { describe, expect, it } from "vitest";
import { completeFraming } from "../../src/framing/spec.ts";
import { dimensionsInWords, framingInWords, inchesText, type PartNames, sizeText } from "../../src/framing/words.ts";
import { dollarsText } from "../../src/pricing/money.ts";
import { MUSEUM_PIECE, MUSEUM_PIECE_DIMENSIONS, MUSEUM_PIECE_UNITED_INCHES } from "./museum-piece.ts";

const NAMES_BY_KEY: Readonly<Record<string, string>> = {
	"frame walnut-flat-125": "Walnut Flat 1 1/4 in",
	"mat museum-rag-white-8ply": "Museum Rag White 8-ply",
	"mat museum-rag-black-4ply": "Museum Rag Black 4-ply",
	"glazing museum-acrylic": "Museum acrylic",
	"paper cotton-rag": "Cotton rag",
	"paper archival-matte": "Archival matte",
};
const NAMES: PartNames = (kind, slug) => NAMES_BY_KEY[`${kind} ${slug}`] ?? slug;

describe("inchesText", () => {
	it("writes whole inches and a reduced fraction of sixteenths, never a decimal", () => {
		expect(inchesText(16)).toBe("16");
		expect(inchesText(16.25)).toBe("16 1/4");
		expect(inchesText(0.375)).toBe("3/8");
		expect(inchesText(23.5)).toBe("23 1/2");
		expect(inchesText(9.9375)).toBe("9 15/16");
		expect(sizeText({ width_in: 21.5, height_in: 26 })).toBe("21 1/2 × 26 in");
	});

	it("writes a length that is not whole sixteenths, or below zero, as the number it is, never throwing", () => {
		expect(inchesText(16.3)).toBe("16.3");
		expect(inchesText(-0.125)).toBe("-0.125");
		expect(sizeText({ width_in: 16.3, height_in: 20 })).toBe("16.3 × 20 in");
	});
});

describe("framingInWords", () => {
	it("says the museum piece as a framer would: paper, weighted mat, inner mat reveal, moulding, glazing", () => {
		const spec = completeFraming(MUSEUM_PIECE);
		expect(framingInWords({ width_in: 16, height_in: 20 }, spec, NAMES)).toEqual([
			{ label: "Print", text: "16 × 20 in on Cotton rag, image fills the print (cropped to it)" },
			{
				label: "Mat",
				text: "Museum Rag White 8-ply, borders 2 3/8 in top and sides, 2 7/8 in bottom from the opening (ordered: 2 1/2 in, 3 in bottom, to the print's edge)",
			},
			{
				label: "Inner mat",
				text: "Museum Rag Black 4-ply, borders 2 5/8 in top and sides, 3 1/8 in bottom, 1/4 in reveal",
			},
			{ label: "Frame", text: "Walnut Flat 1 1/4 in" },
			{ label: "Glazing", text: "Museum acrylic" },
		]);
	});

	it("an unframed print with fit: no mat, unframed, no glazing, the whole image", () => {
		expect(framingInWords({ width_in: 8, height_in: 10 }, completeFraming({ fit: "fit" }), NAMES)).toEqual([
			{ label: "Print", text: "8 × 10 in on Archival matte, whole image, white border where it falls short" },
			{ label: "Mat", text: "None" },
			{ label: "Frame", text: "Unframed" },
			{ label: "Glazing", text: "None" },
		]);
	});
});

describe("dimensionsInWords", () => {
	it("lists the museum piece's openings, mat, glazing and outside in fractions, and its united inches", () => {
		const lines = dimensionsInWords({ ...MUSEUM_PIECE_DIMENSIONS, unitedInches: MUSEUM_PIECE_UNITED_INCHES });
		expect(lines).toEqual([
			{ label: "Top mat opening", text: "16 1/4 × 20 1/4 in" },
			{ label: "Mat opening", text: "15 3/4 × 19 3/4 in" },
			{ label: "Mat outer size", text: "21 × 25 1/2 in" },
			{ label: "Glazing and backing", text: "21 × 25 1/2 in" },
			{ label: "Outside size", text: "23 1/2 × 28 in" },
			{ label: "United inches", text: "46.5" },
		]);
	});
});

describe("dollarsText", () => {
	it("writes cents as dollars with thousands separators", () => {
		expect(dollarsText(14_889)).toBe("$148.89");
		expect(dollarsText(123_456_7)).toBe("$12,345.67");
		expect(dollarsText(5)).toBe("$0.05");
		expect(dollarsText(-250)).toBe("−$2.50");
	});
});
