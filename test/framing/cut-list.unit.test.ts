import { describe, expect, it } from "vitest";
import { cutList, hardwareFor } from "../../src/framing/cut-list.ts";
import { completeFraming } from "../../src/framing/spec.ts";
import { MUSEUM_PIECE } from "./museum-piece.ts";

const PRINT_16_20 = { width_in: 16, height_in: 20 };

describe("cutList", () => {
	it("the museum piece: two mats with their openings and borders, the reveal, glazing, backing and four rails", () => {
		const cut = cutList(PRINT_16_20, completeFraming(MUSEUM_PIECE), 1.25);
		expect(cut).toEqual({
			print: { width_in: 16, height_in: 20 },
			paper: "cotton-rag",
			fit: "fill",
			mats: [
				{
					layer: "top",
					slug: "museum-rag-white-8ply",
					outer: { width_in: 21, height_in: 25.5 },
					opening: { width_in: 16.25, height_in: 20.25 },
					borders: { top_in: 2.375, sides_in: 2.375, bottom_in: 2.875 },
				},
				{
					layer: "inner",
					slug: "museum-rag-black-4ply",
					outer: { width_in: 21, height_in: 25.5 },
					opening: { width_in: 15.75, height_in: 19.75 },
					borders: { top_in: 2.625, sides_in: 2.625, bottom_in: 3.125 },
				},
			],
			reveal_in: 0.25,
			glazing: { slug: "museum-acrylic", size: { width_in: 21, height_in: 25.5 } },
			backing: { width_in: 21, height_in: 25.5 },
			frame: {
				slug: "walnut-flat-125",
				width_in: 1.25,
				rails: [
					{ side: "top", long_point_in: 23.5, short_point_in: 21 },
					{ side: "bottom", long_point_in: 23.5, short_point_in: 21 },
					{ side: "left", long_point_in: 28, short_point_in: 25.5 },
					{ side: "right", long_point_in: 28, short_point_in: 25.5 },
				],
				// (2 × 46.5 + 8 × 1.25) / 12 ft × 1.1 = 9.441…, rounded up to the hundredth.
				footage_ft: 9.45,
			},
			outside: { width_in: 23.5, height_in: 28 },
			united_inches: 46.5,
			hardware: ["2 D-rings (1 hole)", "Picture wire, 20 lb", "4 clear wall bumpers"],
		});
	});

	it("each mat's opening plus its borders is its outer size, and the rails' short points are the frame's inside", () => {
		const cut = cutList(PRINT_16_20, completeFraming(MUSEUM_PIECE), 1.25);
		for (const mat of cut?.mats ?? []) {
			expect(mat.opening.width_in + 2 * mat.borders.sides_in).toBe(mat.outer.width_in);
			expect(mat.opening.height_in + mat.borders.top_in + mat.borders.bottom_in).toBe(mat.outer.height_in);
		}
		expect(cut?.frame?.rails[0]?.short_point_in).toBe(cut?.backing?.width_in);
		expect(cut?.frame?.rails[2]?.short_point_in).toBe(cut?.backing?.height_in);
	});

	it("a framed print without a mat: the glazing and backing are the print's size", () => {
		const cut = cutList({ width_in: 8, height_in: 10 }, completeFraming({ frame: "gallery-black-075" }), 0.75);
		expect(cut?.mats).toEqual([]);
		expect(cut?.glazing).toEqual({ slug: "acrylic", size: { width_in: 8, height_in: 10 } });
		expect(cut?.outside).toEqual({ width_in: 9.5, height_in: 11.5 });
	});

	it("no glazing asked: no glazing line, the backing stays", () => {
		const cut = cutList(
			{ width_in: 8, height_in: 10 },
			completeFraming({ frame: "gallery-black-075", glazing: "none" }),
			0.75,
		);
		expect(cut?.glazing).toBeNull();
		expect(cut?.backing).toEqual({ width_in: 8, height_in: 10 });
	});

	it("an unframed print: no mats, glazing, backing or rails; it ships flat", () => {
		const cut = cutList({ width_in: 8, height_in: 10 }, completeFraming({}), null);
		expect(cut).toMatchObject({
			mats: [],
			glazing: null,
			backing: null,
			frame: null,
			outside: { width_in: 8, height_in: 10 },
		});
		expect(cut?.hardware).toEqual(["None: the print ships flat in a sleeve, between boards"]);
	});

	it("a size that is not whole sixteenths has no cut list", () => {
		expect(cutList({ width_in: 8.3, height_in: 10 }, completeFraming({}), null)).toBeNull();
	});
});

describe("hardwareFor", () => {
	it("grows with the piece: up to 60, up to 100, and above 100 united inches", () => {
		expect(hardwareFor(true, 60)).toContain("Picture wire, 20 lb");
		expect(hardwareFor(true, 60.5)).toContain("Braided wire, 30 lb");
		expect(hardwareFor(true, 100)).toContain("Braided wire, 30 lb");
		expect(hardwareFor(true, 100.5)).toEqual([
			"2 heavy-duty D-rings (3 hole)",
			"Braided wire, 50 lb",
			"2 security hangers",
			"4 clear wall bumpers",
		]);
	});
});
