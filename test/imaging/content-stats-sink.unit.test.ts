/**
 * The content's statistics taken while a thumbnail is made, and the flags they raise: each flag on the
 * broken exports it is for, and none on a photograph, a product shot on white, a night photo or a line
 * drawing. The images are drawn here in code, pixel by pixel (with a fixed pseudo-random grain).
 */
import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import { AreaReducer } from "../../src/imaging/area-reducer.ts";
import { memorySource } from "../../src/imaging/byte-source.ts";
import type { ContentFlag, ContentStats } from "../../src/imaging/content-stats.ts";
import { CONTENT_THRESHOLDS, ContentStatsSink, contentFlagsOf } from "../../src/imaging/content-stats-sink.ts";
import { decodePng } from "../../src/imaging/png/decode.ts";
import { type RasterSink, teeSink } from "../../src/imaging/raster.ts";

/** A pixel: 8-bit RGB and, optionally, its alpha. */
type Pixel = [number, number, number] | [number, number, number, number];
type Drawing = (x: number, y: number) => Pixel;

/** A repeatable grain in [-1, 1] for pixel (x, y). */
function grain(x: number, y: number): number {
	const n = Math.imul(x * 374761393 + y * 668265263, 1274126177) ^ 0x5bd1e995;
	return ((Math.imul(n ^ (n >>> 13), 1103515245) >>> 8) & 0xffff) / 32767.5 - 1;
}

const clamp = (value: number) => Math.max(0, Math.min(255, Math.round(value)));

/**
 * The statistics of a `width` × `height` drawing handed on as a decoder would: composited on white, rows in
 * order, the alpha (when the drawing has any) just before its row.
 */
function measure(width: number, height: number, draw: Drawing): ContentStats {
	const reducer = new AreaReducer();
	const stats = new ContentStatsSink();
	const sink = teeSink(reducer, stats);
	sink.start(width, height);
	const rgb = new Uint8Array(width * 3);
	const alpha = new Uint8Array(width);
	for (let y = 0; y < height; y++) {
		let transparent = false;
		for (let x = 0; x < width; x++) {
			const [r, g, b, a = 255] = draw(x, y);
			if (a < 255) transparent = true;
			rgb.set(
				[r, g, b].map((value) => clamp((value * a + 255 * (255 - a)) / 255)),
				x * 3,
			);
			alpha[x] = a;
		}
		if (transparent) sink.alpha?.(y, 1, alpha);
		sink.rows(y, 1, rgb);
	}
	return stats.finish(reducer.finish().rgb);
}

/** An outdoor photograph's stand-in: sky over a field, smooth shading, texture and sensor grain. */
const photograph: Drawing = (x, y) => {
	const horizon = 300 + 40 * Math.sin(x / 90);
	const grainy = 10 * grain(x, y);
	if (y < horizon) return [clamp(90 + y / 5 + grainy), clamp(140 + y / 6 + grainy), clamp(220 - y / 8 + grainy)];
	const texture = 30 * Math.sin(x / 7) * Math.sin(y / 5);
	return [clamp(70 + texture + grainy), clamp(120 + texture + y / 20 + grainy), clamp(40 + grainy)];
};

/** A product on a white sweep: a shaded object and its soft shadow over `share` of the frame, the rest white. */
function productShot(width: number, height: number, share: number): Drawing {
	const radius = Math.sqrt((share * width * height) / Math.PI);
	const [cx, cy] = [width / 2, height / 2];
	return (x, y) => {
		const d = Math.hypot(x - cx, y - cy);
		if (d < radius) {
			const shade = 1 - (0.5 * (x - cx + radius)) / (2 * radius);
			return [clamp(200 * shade), clamp(60 * shade), clamp(50 * shade)];
		}
		// A faint shadow under the object, then the sweep, white as a studio exposes it.
		const shadow = Math.hypot((x - cx) / 1.6, (y - cy - radius) * 3);
		if (shadow < radius * 0.6) return [232, 232, 234];
		return [255, 255, 255];
	};
}

/** A night street: a dark sky, a few stars and windows, a black foreground. */
const nightPhoto: Drawing = (x, y) => {
	if (y > 420) {
		const lit = (Math.floor(x / 40) + Math.floor(y / 30)) % 9 === 0 && x % 40 < 18 && y % 30 < 14;
		return lit ? [230, 190, 90] : [clamp(2 + 2 * grain(x, y)), clamp(2 + 2 * grain(y, x)), clamp(4 + 2 * grain(x, y))];
	}
	if (grain(x, y) > 0.996) return [210, 215, 225];
	const sky = 8 + y / 25;
	return [clamp(sky * 0.6 + 3 * grain(x, y)), clamp(sky * 0.8 + 3 * grain(y, x)), clamp(sky * 1.4 + 3 * grain(x, y))];
};

/** Black lines `stroke` px wide on `paper`: a grid of circles and a frame, at 1.2 px ink over about 1.5 % of a 900 × 700. */
function lineDrawing(paper: Pixel, stroke: number): Drawing {
	return (x, y) => {
		const ring = Math.abs(Math.hypot((x % 300) - 150, (y % 350) - 175) - 110);
		const frame = Math.min(x - 20, y - 20, 879 - x, 679 - y);
		return ring < stroke / 2 || Math.abs(frame) < stroke / 2 ? [20, 20, 25] : paper;
	};
}

const WHITE: Pixel = [255, 255, 255];
const CLEAR: Pixel = [0, 0, 0, 0];

describe("ContentStatsSink", () => {
	it("measures luma's spread exactly, the shares, and the thumbnail's mean colour", () => {
		const stats = measure(200, 100, (x) => (x < 100 ? [0, 0, 0] : [255, 255, 255]));
		expect(stats).toEqual({
			mean_rgb: [127.5, 127.5, 127.5],
			luma_spread: 127.5,
			transparent_share: 0,
			white_share: 0.5,
			black_share: 0.5,
			flags: [],
		});
	});

	it("weighs the channels as luma (Rec. 709, sRGB's primaries): pure green is brighter than pure red", () => {
		const stats = measure(100, 10, (x) => (x < 50 ? [255, 0, 0] : [0, 255, 0]));
		// Luma 54 and 182 of 255: a spread of half their difference.
		expect(stats.luma_spread).toBe(64);
	});

	it("counts every pixel the decoder hands on, not the thumbnail's: fine stripes stay black and white", () => {
		const stats = measure(2048, 16, (x) => (x % 2 === 0 ? [0, 0, 0] : [255, 255, 255]));
		expect([stats.white_share, stats.black_share, stats.luma_spread]).toEqual([0.5, 0.5, 127.5]);
		// The thumbnail (1024 px wide) averaged each pair to grey.
		expect(stats.mean_rgb).toEqual([128, 128, 128]);
	});

	it("counts pixels under 5 % alpha as transparent, and none without alpha", () => {
		const alphaOf = (x: number) => (x < 30 ? 0 : x < 60 ? 12 : x < 90 ? 13 : 255);
		const stats = measure(100, 10, (x) => [0, 0, 0, alphaOf(x)]);
		expect(stats.transparent_share).toBe(0.6);
		expect(measure(100, 10, () => [0, 0, 0]).transparent_share).toBe(0);
	});

	it("takes the alpha from a real decoder: an RGBA PNG clear but for a faint corner", async () => {
		const [width, height] = [120, 100];
		const rgba = new Uint8Array(width * height * 4);
		for (let i = 0; i < width * height; i++) {
			const corner = i % width < 12 && Math.floor(i / width) < 10;
			rgba.set(corner ? [225, 225, 225 - (i % 2), 255] : [(i * 13) % 256, 0, 0, 0], i * 4);
		}
		const png = new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0));
		const reducer = new AreaReducer();
		const stats = new ContentStatsSink();
		await decodePng(memorySource(png), teeSink(reducer, stats));
		const measured = stats.finish(reducer.finish().rgb);
		expect(measured.transparent_share).toBe(0.99);
		expect(measured.flags).toContain("mostly_transparent");
	});
});

describe("teeSink", () => {
	it("hands every call to each sink, and asks for the alpha only when one of them takes it", () => {
		const calls: string[] = [];
		const plain: RasterSink = { start: () => calls.push("start"), rows: (y) => calls.push(`rows ${y}`) };
		expect(teeSink(plain, new AreaReducer()).alpha).toBeUndefined();
		const tee = teeSink(plain, { ...plain, alpha: (y) => calls.push(`alpha ${y}`) });
		tee.start(1, 1);
		tee.alpha?.(0, 1, Uint8Array.of(9));
		tee.rows(0, 1, Uint8Array.of(1, 2, 3));
		expect(calls).toEqual(["start", "start", "alpha 0", "rows 0", "rows 0"]);
	});
});

describe("the flags: broken exports are flagged", () => {
	const cases: [string, number, number, Drawing, ContentFlag[]][] = [
		["a blank white canvas", 300, 200, () => WHITE, ["near_uniform_image", "mostly_white"]],
		[
			"a white canvas with a JPEG's faint noise",
			300,
			200,
			(x, y) => [clamp(254 + grain(x, y)), 255, clamp(254 + grain(y, x))],
			["near_uniform_image", "mostly_white"],
		],
		["a blank black canvas", 300, 200, () => [0, 0, 0], ["near_uniform_image", "mostly_black"]],
		[
			"a flat mid-grey with a grain of ±2 levels",
			300,
			200,
			(x, y) => [clamp(128 + 2 * grain(x, y)), clamp(128 + 2 * grain(y, x)), clamp(128 + 2 * grain(x + y, x))],
			["near_uniform_image"],
		],
		[
			"an empty layer: every pixel clear",
			300,
			200,
			() => CLEAR,
			["near_uniform_image", "mostly_transparent", "mostly_white"],
		],
		[
			"a clear layer but for a light grey smudge (4 %)",
			300,
			200,
			(x, y) => (x < 30 && y < 80 ? [225, 225, 225] : CLEAR),
			["mostly_transparent"],
		],
		["white but for a speck (0.1 %)", 300, 200, (x, y) => (x < 6 && y < 10 ? [0, 0, 0] : WHITE), ["mostly_white"]],
		["black but for a speck (0.1 %)", 300, 200, (x, y) => (x < 6 && y < 10 ? WHITE : [0, 0, 0]), ["mostly_black"]],
	];
	for (const [name, width, height, draw, flags] of cases) {
		it(`${name}: ${flags.join(", ")}`, () => {
			expect(measure(width, height, draw).flags).toEqual(flags);
		});
	}
});

describe("the flags: real pictures are not flagged", () => {
	it("a photograph", () => {
		const stats = measure(900, 600, photograph);
		expect(stats.luma_spread).toBeGreaterThan(10);
		expect(stats.flags).toEqual([]);
	});

	it("a product shot on white, the object over 7 % of the frame", () => {
		const stats = measure(900, 1200, productShot(900, 1200, 0.07));
		expect(stats.white_share).toBeGreaterThan(0.9);
		expect(stats.flags).toEqual([]);
	});

	it("a product shot on white whose object covers only 1.5 %: over 98 % white, but no mostly_white", () => {
		const stats = measure(900, 1200, productShot(900, 1200, 0.015));
		expect(stats.white_share).toBeGreaterThan(0.98);
		expect(stats.luma_spread).toBeGreaterThan(CONTENT_THRESHOLDS.faintSpread);
		expect(stats.flags).toEqual([]);
	});

	it("a dark night photo, its foreground black", () => {
		const stats = measure(900, 600, nightPhoto);
		expect(stats.black_share).toBeGreaterThan(0.25);
		expect(stats.mean_rgb.every((channel) => channel < 40)).toBe(true);
		expect(stats.flags).toEqual([]);
	});

	it("a sparse line drawing on white paper: over 98 % white, but no mostly_white", () => {
		const stats = measure(900, 700, lineDrawing(WHITE, 1.2));
		expect(stats.white_share).toBeGreaterThan(0.98);
		expect(stats.flags).toEqual([]);
	});

	it("the same drawing on a clear background: over 95 % transparent, but no mostly_transparent", () => {
		const stats = measure(900, 700, lineDrawing(CLEAR, 1.2));
		expect(stats.transparent_share).toBeGreaterThan(0.95);
		expect(stats.flags).toEqual([]);
	});
});

describe("contentFlagsOf", () => {
	const plain = { mean_rgb: [128, 128, 128], luma_spread: 40, transparent_share: 0, white_share: 0, black_share: 0 };
	const flagsOf = (change: Partial<ContentStats>) =>
		contentFlagsOf({ ...plain, ...change } as Omit<ContentStats, "flags">);

	it("near_uniform_image under a luma spread of 2, not at 2", () => {
		expect(flagsOf({ luma_spread: 1.99 })).toEqual(["near_uniform_image"]);
		expect(flagsOf({ luma_spread: 2 })).toEqual([]);
	});

	it("each share's flag over its threshold (95 % clear, 98 % white or black) with a spread under 10", () => {
		const faint = { luma_spread: 9.99 };
		expect(flagsOf({ ...faint, transparent_share: 0.9501 })).toEqual(["mostly_transparent"]);
		expect(flagsOf({ ...faint, transparent_share: 0.95 })).toEqual([]);
		expect(flagsOf({ ...faint, white_share: 0.9801 })).toEqual(["mostly_white"]);
		expect(flagsOf({ ...faint, white_share: 0.98 })).toEqual([]);
		expect(flagsOf({ ...faint, black_share: 0.9801 })).toEqual(["mostly_black"]);
		expect(flagsOf({ ...faint, black_share: 0.98 })).toEqual([]);
	});

	it("no share's flag at a spread of 10 or more: what is left there is a picture", () => {
		expect(flagsOf({ luma_spread: 10, transparent_share: 0.99, white_share: 0.99 })).toEqual([]);
		expect(flagsOf({ luma_spread: 10, black_share: 0.99 })).toEqual([]);
	});
});
