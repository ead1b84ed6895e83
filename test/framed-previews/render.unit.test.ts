import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import {
	bevelColour,
	OUTLINE_GREY,
	PAPER_WHITE,
	PLACEHOLDER_GREY,
	type PreviewColours,
	RAIL_SHADES,
	renderFramedPreview,
	rgbOf,
	shade,
} from "../../src/framed-previews/render.ts";
import { fitFigures } from "../../src/framing/fit-figures.ts";
import { completeFraming, type FramingInput } from "../../src/framing/spec.ts";
import type { Thumbnail } from "../../src/imaging/area-reducer.ts";

type Rgb = readonly [number, number, number];
const RED: Rgb = [220, 30, 30];
const GREEN: Rgb = [30, 180, 60];
const BLUE: Rgb = [20, 40, 230];
const YELLOW: Rgb = [240, 220, 20];

const WALNUT = "#5C4033";
const MAT_FACE = "#F3E9D2";
const INNER_FACE = "#1E1E1E";
const COLOURS: PreviewColours = {
	frame: WALNUT,
	mats: [
		{ face: MAT_FACE, core: "white" },
		{ face: INNER_FACE, core: "black" },
	],
};

/** A source image painted row band by row band (then column bands over it), so the crop's edges can be found. */
function source(
	width: number,
	height: number,
	rows: [number, Rgb][],
	columns: [number, number, Rgb][] = [],
): Thumbnail {
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		const band = rows.find(([until]) => y < until)?.[1] ?? GREEN;
		for (let x = 0; x < width; x++) {
			const column = columns.find(([from, until]) => x >= from && x < until)?.[2];
			rgb.set(column !== undefined && band === GREEN ? column : band, (y * width + x) * 3);
		}
	}
	return { width, height, rgb };
}

/** The preview decoded: its PNG header and a pixel reader (RGB of upng-js's RGBA decoding). */
function decoded(png: Uint8Array) {
	const image = UPNG.decode(png.slice().buffer);
	const rgba = new Uint8Array(UPNG.toRGBA8(image)[0] ?? new ArrayBuffer(0));
	const at = (x: number, y: number): number[] => {
		const from = (y * image.width + x) * 4;
		return [rgba[from] ?? -1, rgba[from + 1] ?? -1, rgba[from + 2] ?? -1];
	};
	return {
		width: image.width,
		height: image.height,
		ctype: image.ctype,
		depth: image.depth,
		at,
		pixels: function* () {
			for (let y = 0; y < image.height; y++) for (let x = 0; x < image.width; x++) yield at(x, y);
		},
	};
}

function render(
	print: [number, number],
	input: FramingInput,
	frameWidthIn: number | null,
	image: Thumbnail | null,
	widthPx: number,
) {
	const piece = { print: { width_in: print[0], height_in: print[1] }, spec: completeFraming(input), frameWidthIn };
	const preview = renderFramedPreview(piece, COLOURS, image, widthPx);
	return { preview, png: decoded(preview.png) };
}

// An 8 × 10 in print, a 1 1/4 in moulding and a 2 in mat at 16 px to the inch (14.5 in → 232 px):
// the moulding is x 0-19, the mat from 20, the print under it from 52 (1.25 + 2 in), the opening
// 1/8 in (2 px) inside that at 54, its bevel the pixel before; the opening is 7.75 × 9.75 in (124 × 156 px).
const MATTED = { frame: "walnut-flat-125", mat: "cream" } as const;
// 256 × 400 filling 8 × 10 in keeps rows 40-359 (320 = 256 / 0.8), two source pixels to a preview pixel.
const TALL = source(
	256,
	400,
	[
		[40, BLUE],
		[48, RED],
		[352, GREEN],
		[360, RED],
		[400, BLUE],
	],
	[[0, 8, YELLOW]],
);

describe("renderFramedPreview", () => {
	it("writes an 8-bit RGB PNG exactly width_px wide and as tall as the piece at that scale", () => {
		const cases: [[number, number], FramingInput, number | null, number, [number, number]][] = [
			[[16, 20], {}, null, 1200, [1200, 1500]],
			[[8, 10], MATTED, 1.25, 232, [232, 264]],
			// 16 + 2 × 2.5 + 2 × 1.25 = 23.5 wide, 20 + 2.5 + 3 + 2.5 = 28 tall: 1000 × 1191.49.
			[[16, 20], { ...MATTED, mat_border_in: 2.5, mat_bottom_border_in: 3 }, 1.25, 1000, [1000, 1191]],
			[[24, 6], { frame: "walnut-flat-125" }, 1.25, 200, [200, 64]],
			// A piece ten times taller than wide is drawn narrower so its height stays at 3000 px.
			[[10, 100], {}, null, 2000, [300, 3000]],
		];
		for (const [print, input, frameWidth, widthPx, [width, height]] of cases) {
			const { preview, png } = render(print, input, frameWidth, TALL, widthPx);
			expect([png.width, png.height, preview.width, preview.height]).toEqual([width, height, width, height]);
			expect([png.ctype, png.depth]).toEqual([2, 8]);
		}
	});

	it("draws the moulding in the frame's colour, each rail shaded so the four mitres show", () => {
		const { png } = render([8, 10], MATTED, 1.25, TALL, 232);
		const walnut = rgbOf(WALNUT);
		expect(png.at(116, 5)).toEqual([...shade(walnut, RAIL_SHADES.top)]);
		expect(png.at(5, 132)).toEqual([...shade(walnut, RAIL_SHADES.left)]);
		expect(png.at(226, 132)).toEqual([...shade(walnut, RAIL_SHADES.right)]);
		expect(png.at(116, 258)).toEqual([...shade(walnut, RAIL_SHADES.bottom)]);
		// Either side of the top-left mitre, and the moulding's inner edge at 1.25 in = 20 px.
		expect(png.at(10, 3)).toEqual(png.at(116, 5));
		expect(png.at(3, 10)).toEqual(png.at(5, 132));
		expect(png.at(19, 132)).toEqual(png.at(5, 132));
		expect(new Set([5, 132, 226, 258].map((y, i) => png.at([116, 5, 226, 116][i] ?? 0, y).join()))).toHaveProperty(
			"size",
			4,
		);
	});

	it("draws the mat in its colour up to a bevel in its core's colour at the opening", () => {
		const { png } = render([8, 10], MATTED, 1.25, TALL, 232);
		const face = rgbOf(MAT_FACE);
		expect(png.at(20, 132)).toEqual([...face]);
		expect(png.at(52, 132)).toEqual([...face]);
		expect(png.at(53, 132)).toEqual([...bevelColour(face, "white")]);
		expect(png.at(116, 53)).toEqual([...bevelColour(face, "white")]);
		expect(png.at(178, 132)).toEqual([...bevelColour(face, "white")]);
		expect(png.at(116, 210)).toEqual([...bevelColour(face, "white")]);
		expect(png.at(179, 132)).toEqual([...face]);
		// The bevel is lighter than the cream face: a white core.
		expect(bevelColour(face, "white")).toEqual([255, 255, 255]);
	});

	it("crops the image for fill exactly as the print: centred, the mat hiding 1/8 in of each edge", () => {
		const { png } = render([8, 10], MATTED, 1.25, TALL, 232);
		// The red bands are 4 preview rows at the print's top and bottom edges: 2 under the mat, 2 showing.
		expect([png.at(116, 54), png.at(116, 55), png.at(116, 56)]).toEqual([[...RED], [...RED], [...GREEN]]);
		expect([png.at(116, 207), png.at(116, 208), png.at(116, 209)]).toEqual([[...GREEN], [...RED], [...RED]]);
		// The yellow columns are the image's first 8 (4 preview columns): the width is not cropped.
		expect([png.at(54, 132), png.at(55, 132), png.at(56, 132)]).toEqual([[...YELLOW], [...YELLOW], [...GREEN]]);
		expect(png.at(177, 132)).toEqual([...GREEN]);
		// What the crop removed never shows.
		expect([...png.pixels()].some((pixel) => pixel.join() === BLUE.join())).toBe(false);
	});

	it("letterboxes the image for fit in white bands, centred", () => {
		// A square image in an 8 × 10 in print: 128 × 128 px in 128 × 160, 16 px of white above and below.
		const square = source(256, 256, []);
		const { png } = render([8, 10], { ...MATTED, fit: "fit" }, 1.25, square, 232);
		const white = [...rgbOf(PAPER_WHITE)];
		expect([png.at(116, 54), png.at(116, 67), png.at(116, 68)]).toEqual([white, white, [...GREEN]]);
		expect([png.at(116, 195), png.at(116, 196), png.at(116, 209)]).toEqual([[...GREEN], white, white]);
		expect([png.at(54, 132), png.at(177, 132)]).toEqual([[...GREEN], [...GREEN]]);
	});

	it("shows a double mat's inner mat as its reveal, each opening with its own bevel", () => {
		// Reveal 1/4 in = 4 px: the top mat's opening is at 50, its bevel at 49; the inner mat 50-52, its bevel 53.
		const { png } = render([8, 10], { ...MATTED, inner_mat: "black-core-black" }, 1.25, TALL, 232);
		const inner = rgbOf(INNER_FACE);
		expect(png.at(48, 132)).toEqual([...rgbOf(MAT_FACE)]);
		expect(png.at(49, 132)).toEqual([...bevelColour(rgbOf(MAT_FACE), "white")]);
		expect([png.at(50, 132), png.at(52, 132)]).toEqual([[...inner], [...inner]]);
		expect(png.at(53, 132)).toEqual([...bevelColour(inner, "black")]);
		expect(bevelColour(inner, "black")).not.toEqual([...inner]);
		expect(png.at(54, 132)).toEqual([...YELLOW]);
	});

	it("draws an unframed print alone, edge to edge, in a thin neutral outline", () => {
		// 600 × 200 filling 10 × 10 in keeps columns 200-399, one to one at 200 px.
		const wide = source(
			600,
			200,
			[],
			[
				[0, 200, BLUE],
				[400, 600, BLUE],
			],
		);
		const { png } = render([10, 10], {}, null, wide, 200);
		const grey = [...rgbOf(OUTLINE_GREY)];
		expect([png.at(0, 100), png.at(199, 100), png.at(100, 0), png.at(100, 199)]).toEqual([grey, grey, grey, grey]);
		expect([png.at(1, 100), png.at(198, 100), png.at(100, 1)]).toEqual([[...GREEN], [...GREEN], [...GREEN]]);
		expect([...png.pixels()].filter((pixel) => pixel.join() !== GREEN.join() && pixel.join() !== grey.join())).toEqual(
			[],
		);
	});

	it("keeps cropped-away pixels out when it enlarges a small image", () => {
		// 64 × 100 behind a 2000 px preview: rows 10-89 kept, each source pixel over ten preview pixels.
		const small = source(64, 100, [
			[10, BLUE],
			[90, GREEN],
			[100, BLUE],
		]);
		const { png } = render([8, 10], MATTED, 1.25, small, 2000);
		const scale = 2000 / 14.5;
		for (let y = Math.round(3.375 * scale); y < Math.round(13.125 * scale); y++) {
			expect(png.at(1000, y)).toEqual([...GREEN]);
		}
	});

	it("fills the opening with a neutral placeholder when there is no image", () => {
		const { preview, png } = render([8, 10], MATTED, 1.25, null, 232);
		expect(preview.placeholder).toBe(true);
		expect([png.at(54, 54), png.at(177, 209)]).toEqual([[...rgbOf(PLACEHOLDER_GREY)], [...rgbOf(PLACEHOLDER_GREY)]]);
		expect(png.at(5, 132)).toEqual([...shade(rgbOf(WALNUT), RAIL_SHADES.left)]);
	});
});

/**
 * An image whose edges are marked: what fill's figures say is cut off each side is painted CUT (pure
 * blue), the next 6 pixels inside it MARK (red), the rest GREEN. Blue appears in nothing else, so any
 * preview pixel with blue in it shows a pixel the figures say is cut.
 */
function edgeMarked(width: number, height: number, cutAcross: number, cutDown: number): Thumbnail {
	const CUT: Rgb = [0, 0, 255];
	const MARK: Rgb = [255, 0, 0];
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const inset = Math.min(x - cutAcross, width - 1 - x - cutAcross, y - cutDown, height - 1 - y - cutDown);
			rgb.set(inset < 0 ? CUT : inset < 6 ? MARK : [0, 200, 0], (y * width + x) * 3);
		}
	}
	return { width, height, rgb };
}

describe("the framed preview shows the crop the figures give", () => {
	// Image sizes and prints of every orientation; each crop a whole number of pixels, so the marks fall on pixels.
	const cases: { image: [number, number]; print: [number, number] }[] = [
		{ image: [300, 200], print: [8, 10] },
		{ image: [200, 300], print: [10, 8] },
		{ image: [240, 240], print: [8, 10] },
		{ image: [400, 100], print: [6, 12] },
		{ image: [160, 200], print: [8, 10] },
		{ image: [300, 200], print: [12, 12] },
	];
	for (const { image, print } of cases) {
		it(`${image.join(" × ")} px on ${print.join(" × ")} in: nothing cut shows, and the marked edges meet the print's four edges`, () => {
			const figures = fitFigures({
				widthPx: image[0],
				heightPx: image[1],
				widthIn: print[0],
				heightIn: print[1],
				fit: "fill",
				matted: false,
			});
			const crop = figures.crop;
			if (crop === null) throw new Error("fill has a crop");
			expect(Number.isInteger(crop.px.left) && Number.isInteger(crop.px.top)).toBe(true);
			const { png } = render(print, {}, null, edgeMarked(image[0], image[1], crop.px.left, crop.px.top), 50 * print[0]);
			// Inside the one-pixel outline (its grey has blue in it).
			let blue = 0;
			for (let y = 1; y < png.height - 1; y++) {
				for (let x = 1; x < png.width - 1; x++) blue = Math.max(blue, png.at(x, y)[2] ?? 0);
			}
			expect(blue).toBe(0);
			// Just inside the outline, each edge of the print shows the red mark (a pixel in from the corner's blend).
			const inside = 2;
			const middle = { x: Math.floor(png.width / 2), y: Math.floor(png.height / 2) };
			const edges = [
				png.at(middle.x, inside),
				png.at(middle.x, png.height - 1 - inside),
				png.at(inside, middle.y),
				png.at(png.width - 1 - inside, middle.y),
			];
			for (const pixel of edges) expect(pixel[0]).toBeGreaterThan(200);
			expect(png.at(middle.x, middle.y)).toEqual([0, 200, 0]);
		});
	}

	it("turns a landscape image a quarter on a portrait print, its left edge to the top", () => {
		// Left third red, the rest green: turned clockwise, the red lies along the print's top.
		const wide = source(300, 200, [], [[0, 100, RED]]);
		const { png } = render([8, 12], {}, null, wide, 400);
		expect(png.at(200, 10)).toEqual([...RED]);
		expect(png.at(200, 590)).toEqual([...GREEN]);
		expect(png.at(10, 300)).toEqual(png.at(390, 300));
	});

	it("letterboxes a turned image with the bands the figures give", () => {
		// 300 × 200 on 8 × 10, fit: turned, 10 in along its 300 px, so it prints 10 × 6 2/3 in: 2/3 in each side.
		const wide = source(300, 200, []);
		const { png } = render([8, 10], { fit: "fit" }, null, wide, 400);
		const bands = fitFigures({
			widthPx: 300,
			heightPx: 200,
			widthIn: 8,
			heightIn: 10,
			fit: "fit",
			matted: false,
		}).bands_in;
		expect(bands).toEqual({ left: 0.667, right: 0.667, top: 0, bottom: 0 });
		const white = [...rgbOf(PAPER_WHITE)];
		const whiteColumns = Array.from({ length: 200 }, (_, x) => png.at(x, 250)).filter((p) => p.join() === white.join());
		// 0.667 in at 50 px an inch: 33 columns, one of them under the outline.
		expect(Math.abs(whiteColumns.length + 1 - 0.667 * 50)).toBeLessThanOrEqual(1);
		expect(png.at(200, 250)).toEqual([...GREEN]);
	});
});
