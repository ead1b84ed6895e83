import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { PieceSpec } from "../../src/framing/dimensions.ts";
import { roundHalfUp } from "../../src/pricing/money.ts";
import { SEED_PIECE_RATES } from "../../src/pricing/seed-book.ts";
import { matLayerCents, type PieceRates, unitPrice } from "../../src/pricing/unit-price.ts";

/** The seed book's rates for a piece on `paper` behind `glazing`, with a frame at `frameMills` per foot. */
function rates(paper: string, glazing: string, frameMills: number | null, matLayers: number, discount = 0): PieceRates {
	return {
		printMinimumCents: SEED_PIECE_RATES.printMinimumCents,
		paperMillsPerSquareInch: SEED_PIECE_RATES.paperMillsPerSquareInch[paper] ?? 0,
		frameMillsPerFoot: frameMills,
		matLayers,
		matTiers: SEED_PIECE_RATES.matTiers,
		glazingMillsPerSquareInch: SEED_PIECE_RATES.glazingMillsPerSquareInch[glazing] ?? 0,
		backingMillsPerSquareInch: SEED_PIECE_RATES.backingMillsPerSquareInch,
		assemblyCents: SEED_PIECE_RATES.assemblyCents,
		discountPercent: discount,
	};
}

const MUSEUM_PIECE: PieceSpec = {
	widthIn: 16,
	heightIn: 20,
	frameWidthIn: 1.25,
	mat: { borderIn: 2.5, bottomBorderIn: 3, innerRevealIn: 0.25 },
};

describe("rounding", () => {
	it("rounds half up, once", () => {
		expect(roundHalfUp(5, 10)).toBe(1);
		expect(roundHalfUp(4, 10)).toBe(0);
		expect(roundHalfUp(15, 10)).toBe(2);
		expect(roundHalfUp(2142, 10)).toBe(214);
	});
});

describe("unit price", () => {
	it("prices the worked example component by component, in whole cents", () => {
		// 16 × 20 on cotton rag, a double mat (2.5 in, 3 in bottom), a 1 1/4 in moulding at 6,000 mills a foot,
		// museum acrylic, and a 10% discount.
		expect(unitPrice(MUSEUM_PIECE, rates("cotton-rag", "museum-acrylic", 6_000, 2, 10))).toEqual({
			print: 1_120, // 320 sq in × 35 mills
			frame: 5_665, // 103/12 × 1.1 ft × 6,000 mills
			mat: 1_800, // two layers at the ≤ 60 UI tier (UI 46.5)
			glazing: 3_213, // 21 × 25.5 = 535.5 sq in × 60 mills
			backing: 214, // 535.5 sq in × 4 mills = 214.2¢
			assembly: 800,
			discount: 1_281, // 10% of 12,812¢ = 1,281.2¢
			total: 11_531,
		});
	});

	it("an unframed print is its print price alone, never below the minimum", () => {
		expect(
			unitPrice({ widthIn: 4, heightIn: 6, frameWidthIn: null, mat: null }, rates("archival-matte", "none", null, 0)),
		).toEqual({
			print: 400,
			frame: 0,
			mat: 0,
			glazing: 0,
			backing: 0,
			assembly: 0,
			discount: 0,
			total: 400,
		});
	});

	it("mat tiers go by united inches, each bound inclusive", () => {
		expect(matLayerCents(40, SEED_PIECE_RATES.matTiers)).toBe(600);
		expect(matLayerCents(40.0625, SEED_PIECE_RATES.matTiers)).toBe(900);
		expect(matLayerCents(60, SEED_PIECE_RATES.matTiers)).toBe(900);
		expect(matLayerCents(80, SEED_PIECE_RATES.matTiers)).toBe(1_400);
		expect(matLayerCents(80.0625, SEED_PIECE_RATES.matTiers)).toBe(2_000);
	});
});

/** Sizes in sixteenths of an inch, 4 to 40 in. */
const inches = fc.integer({ min: 4 * 16, max: 40 * 16 }).map((sixteenths) => sixteenths / 16);
const border = fc.integer({ min: 8, max: 48 }).map((eighths) => eighths / 8);
const spec = fc.record({
	widthIn: inches,
	heightIn: inches,
	frameWidthIn: fc.option(fc.constantFrom(0.5, 0.75, 1, 1.25, 2, 3), { nil: null }),
	mat: fc.option(
		fc.record({
			borderIn: border,
			extra: fc.integer({ min: 0, max: 16 }),
			reveal: fc.option(fc.constant(0.25), { nil: null }),
		}),
		{ nil: null },
	),
});
const priceRates = fc.record({
	paper: fc.constantFrom("archival-matte", "photo-lustre", "cotton-rag"),
	glazing: fc.constantFrom("acrylic", "uv-acrylic", "museum-acrylic", "none"),
	frameMills: fc.integer({ min: 2_500, max: 12_000 }),
	discount: fc.integer({ min: 0, max: 50 }),
});

function toPiece(value: {
	widthIn: number;
	heightIn: number;
	frameWidthIn: number | null;
	mat: { borderIn: number; extra: number; reveal: number | null } | null;
}): PieceSpec {
	// A mat needs a frame: a drawn mat on an unframed print is dropped.
	const mat =
		value.mat === null || value.frameWidthIn === null
			? null
			: {
					borderIn: value.mat.borderIn,
					bottomBorderIn: value.mat.borderIn + value.mat.extra / 8,
					innerRevealIn: value.mat.reveal,
				};
	return { widthIn: value.widthIn, heightIn: value.heightIn, frameWidthIn: value.frameWidthIn, mat };
}

function ratesFor(piece: PieceSpec, drawn: { paper: string; glazing: string; frameMills: number; discount: number }) {
	const layers = piece.mat === null ? 0 : piece.mat.innerRevealIn === null ? 1 : 2;
	return rates(
		drawn.paper,
		piece.frameWidthIn === null ? "none" : drawn.glazing,
		piece.frameWidthIn === null ? null : drawn.frameMills,
		layers,
		drawn.discount,
	);
}

describe("unit price properties", () => {
	it("every component is a whole, non-negative number of cents, and the total is the sum less the discount", () => {
		fc.assert(
			fc.property(spec, priceRates, (drawn, drawnRates) => {
				const piece = toPiece(drawn);
				const price = unitPrice(piece, ratesFor(piece, drawnRates));
				for (const cents of Object.values(price)) {
					expect(Number.isSafeInteger(cents)).toBe(true);
					expect(cents).toBeGreaterThanOrEqual(0);
				}
				const sum = price.print + price.frame + price.mat + price.glazing + price.backing + price.assembly;
				expect(price.total).toBe(sum - price.discount);
				expect(price.discount).toBeLessThanOrEqual(Math.ceil(sum / 2));
			}),
			{ seed: 11, numRuns: 300 },
		);
	});

	it("a bigger print never costs less, all else the same", () => {
		fc.assert(
			fc.property(spec, priceRates, fc.integer({ min: 1, max: 64 }), fc.boolean(), (drawn, drawnRates, grow, wider) => {
				const piece = toPiece(drawn);
				const bigger = {
					...piece,
					widthIn: piece.widthIn + (wider ? grow / 16 : 0),
					heightIn: piece.heightIn + (wider ? 0 : grow / 16),
				};
				const r = ratesFor(piece, drawnRates);
				expect(unitPrice(bigger, r).total).toBeGreaterThanOrEqual(unitPrice(piece, r).total);
			}),
			{ seed: 12, numRuns: 300 },
		);
	});
});
