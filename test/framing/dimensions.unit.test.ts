import { describe, expect, it } from "vitest";
import { fractionValue, mouldingCut, pieceDimensions, toSixteenths } from "../../src/framing/dimensions.ts";
import { MUSEUM_PIECE_DIMENSIONS, MUSEUM_PIECE_UNITED_INCHES } from "./museum-piece.ts";

/** 16 × 20 in, a 2.5 in mat with a 3 in bottom, a double mat with a 1/4 in reveal, a 1 1/4 in moulding. */
const MUSEUM_PIECE = {
	widthIn: 16,
	heightIn: 20,
	frameWidthIn: 1.25,
	mat: { borderIn: 2.5, bottomBorderIn: 3, innerRevealIn: 0.25 },
};

describe("piece dimensions", () => {
	it("a double-matted framed piece: openings, the mat's outer size shared by the glazing, the outside, united inches", () => {
		expect(pieceDimensions(MUSEUM_PIECE)).toEqual({
			...MUSEUM_PIECE_DIMENSIONS,
			united_inches: MUSEUM_PIECE_UNITED_INCHES,
		});
	});

	it("a framed print without a mat: the glazing is the print's size", () => {
		const dimensions = pieceDimensions({ widthIn: 8, heightIn: 10, frameWidthIn: 0.75, mat: null });
		expect(dimensions).toMatchObject({
			mat_opening: null,
			top_mat_opening: null,
			mat_outer: null,
			glazing: { width_in: 8, height_in: 10 },
			outside: { width_in: 9.5, height_in: 11.5 },
			united_inches: 18,
		});
	});

	it("an unframed print is its own outside, with no mat and no glazing", () => {
		expect(pieceDimensions({ widthIn: 12, heightIn: 18, frameWidthIn: null, mat: null })).toEqual({
			print: { width_in: 12, height_in: 18 },
			mat_opening: null,
			top_mat_opening: null,
			mat_outer: null,
			glazing: null,
			outside: { width_in: 12, height_in: 18 },
			united_inches: 30,
		});
	});

	it("moulding footage is (2 × UI + 8 × frame width) / 12 ft plus 10% for miters, kept exact", () => {
		const cut = mouldingCut(MUSEUM_PIECE);
		// (2 × 46.5 + 8 × 1.25) / 12 × 1.1 = 103 / 12 × 1.1 ft.
		expect(cut?.footage).toEqual({ numerator: (2 * 744 + 8 * 20) * 11, denominator: 1920 });
		expect(fractionValue(cut?.footage ?? { numerator: 0, denominator: 1 })).toBeCloseTo((103 / 12) * 1.1, 12);
	});

	it("the chop list is four rails whose long points are the outside lengths", () => {
		expect(mouldingCut(MUSEUM_PIECE)?.rails).toEqual([
			{ side: "top", long_point_in: 23.5 },
			{ side: "bottom", long_point_in: 23.5 },
			{ side: "left", long_point_in: 28 },
			{ side: "right", long_point_in: 28 },
		]);
		expect(mouldingCut({ widthIn: 8, heightIn: 10, frameWidthIn: null, mat: null })).toBeNull();
	});

	it("refuses a length that is not a whole number of sixteenths of an inch", () => {
		expect(toSixteenths(2.4375)).toBe(39);
		expect(() => toSixteenths(2.03)).toThrow(RangeError);
		expect(() => toSixteenths(-1)).toThrow(RangeError);
	});
});
