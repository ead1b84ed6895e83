import { describe, expect, it } from "vitest";
import { innerSize, mouldingCut, type PieceSpec, toSixteenths } from "../../src/framing/dimensions.ts";
import { SEED_SHIPPING } from "../../src/pricing/seed-book.ts";
import { type FramedParcelItem, shippingOptions, zoneOf } from "../../src/pricing/shipping.ts";

/** A framed unit whose outside is `width` × `height` in: a moulding of 1 in at 0.5 lb a foot, acrylic, one mat. */
function framedOutside(width: number, height: number, quantity = 1): FramedParcelItem {
	const spec: PieceSpec = { widthIn: width - 2, heightIn: height - 2, frameWidthIn: 1, mat: null };
	return framedItem(spec, 5_000, true, 0, quantity);
}

function framedItem(
	spec: PieceSpec,
	frameWeightPerFoot: number,
	glazed: boolean,
	matLayers: number,
	quantity = 1,
): FramedParcelItem {
	const cut = mouldingCut(spec);
	if (cut === null || spec.frameWidthIn === null) throw new Error("a framed item needs a frame");
	const inner = innerSize(spec);
	const frame = toSixteenths(spec.frameWidthIn);
	return {
		kind: "framed",
		outside: { width: inner.width + 2 * frame, height: inner.height + 2 * frame },
		inner,
		print: { width: toSixteenths(spec.widthIn), height: toSixteenths(spec.heightIn) },
		footage: cut.footage,
		frameWeightPerFoot,
		glazed,
		matLayers,
		quantity,
	};
}

function methods(items: FramedParcelItem[], country = "US") {
	return shippingOptions(items, country, SEED_SHIPPING).map((option) => option.method);
}

describe("shipping zones", () => {
	it.each([
		["US", "US"],
		["CA", "north_america"],
		["MX", "north_america"],
		["DE", "europe"],
		["GB", "europe"],
		["CH", "europe"],
		["IS", "europe"],
		["JP", "world"],
		["AU", "world"],
	])("%s ships in the %s zone", (country, zone) => {
		expect(zoneOf(country)).toBe(zone);
	});

	it("budget is offered in the US only; freight everywhere", () => {
		expect(methods([framedOutside(20, 24)])).toEqual(["budget", "standard", "express", "freight"]);
		expect(methods([framedOutside(20, 24)], "FR")).toEqual(["standard", "express", "freight"]);
	});
});

describe("packages", () => {
	it("the worked example: a 23.5 × 28 in piece ships in a 32 × 27.5 × 4 in box, billed at its dimensional weight", () => {
		const piece = framedItem(
			{ widthIn: 16, heightIn: 20, frameWidthIn: 1.25, mat: { borderIn: 2.5, bottomBorderIn: 3, innerRevealIn: 0.25 } },
			5_000,
			true,
			2,
		);
		const express = shippingOptions([piece], "DE", SEED_SHIPPING).find((option) => option.method === "express");
		expect(express).toEqual({
			method: "express",
			packages: [
				{
					length_in: 32,
					width_in: 27.5,
					depth_in: 4,
					// 9.4417 ft × 0.5 + 535.5 × (0.0052 + 2 × 0.0012 + 0.0009) + 320 × 0.0002 + 1.5 = 10.8366 lb.
					weight_lb: 10.84,
					// 32 × 27.5 × 4 / 139 = 25.3 → 26 lb.
					billable_weight_lb: 26,
					oversize: false,
					length_plus_girth_in: 95,
				},
			],
			cost: 7_000 + 760 * 26,
			delivery_days: { min: 3 + 3, max: 3 + 5 },
		});
	});

	it("each framed unit ships in its own box", () => {
		const [standard] = shippingOptions([framedOutside(20, 24, 3)], "US", SEED_SHIPPING);
		expect(standard?.packages).toHaveLength(3);
	});

	it("unframed prints share one flat box sized by the largest sides, billed in whole pounds", () => {
		const flats = [
			{ kind: "flat" as const, print: { width: toSixteenths(12), height: toSixteenths(18) }, quantity: 1 },
			{ kind: "flat" as const, print: { width: toSixteenths(8), height: toSixteenths(10) }, quantity: 2 },
		];
		const [budget] = shippingOptions(flats, "US", SEED_SHIPPING);
		expect(budget?.packages).toEqual([
			{
				length_in: 22,
				width_in: 16,
				depth_in: 2,
				weight_lb: 1.08, // (216 + 2 × 80) × 0.0002 + 1.0
				billable_weight_lb: 6, // 22 × 16 × 2 / 139 = 5.06 → 6
				oversize: false,
				length_plus_girth_in: 58,
			},
		]);
		expect(budget?.delivery_days).toEqual({ min: 1 + 5, max: 1 + 8 });
	});
});

describe("size limits (length plus girth)", () => {
	// A framed box is (long + 4) × (short + 4) × 4, so length plus girth = long + 2 × short + 20.
	it("exactly 130 in is not oversize; 1/16 in more is (+$50 a package, not for freight)", () => {
		const atLimit = shippingOptions([framedOutside(50, 30)], "US", SEED_SHIPPING);
		expect(atLimit[0]?.packages[0]).toMatchObject({ length_plus_girth_in: 130, oversize: false });
		const over = shippingOptions([framedOutside(50.0625, 30)], "US", SEED_SHIPPING);
		expect(over[0]?.packages[0]).toMatchObject({ length_plus_girth_in: 130.0625, oversize: true });
		const budgetAt = atLimit.find((option) => option.method === "budget");
		const budgetOver = over.find((option) => option.method === "budget");
		const freightOver = over.find((option) => option.method === "freight");
		const billable = over[0]?.packages[0]?.billable_weight_lb ?? 0;
		expect(budgetOver?.cost).toBe(700 + 65 * billable + 5_000);
		expect(freightOver?.cost).toBe(15_000 + 150 * billable);
		expect(budgetAt?.cost).toBeLessThan(budgetOver?.cost ?? 0);
	});

	it("exactly 165 in still ships by parcel; above it the whole order ships by freight only", () => {
		expect(methods([framedOutside(55, 45)])).toEqual(["budget", "standard", "express", "freight"]);
		expect(methods([framedOutside(55.0625, 45), framedOutside(20, 24)])).toEqual(["freight"]);
	});
});
