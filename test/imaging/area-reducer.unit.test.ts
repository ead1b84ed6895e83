import { describe, expect, it } from "vitest";
import { AreaReducer, orient, thumbnailSize } from "../../src/imaging/area-reducer.ts";

/** A deterministic noisy raster (so averages are not flattered by smooth gradients). */
function noise(width: number, height: number, seed = 1): Uint8Array {
	const rgb = new Uint8Array(width * height * 3);
	let state = seed;
	for (let i = 0; i < rgb.length; i++) {
		state = (state * 1103515245 + 12345) >>> 0;
		rgb[i] = state >>> 24;
	}
	return rgb;
}

/** The exact box filter computed the slow way: each target pixel integrates the source over its area. */
function boxReference(rgb: Uint8Array, width: number, height: number, tw: number, th: number): number[] {
	const out: number[] = [];
	const overlap = (a0: number, a1: number, b0: number, b1: number) => Math.max(0, Math.min(a1, b1) - Math.max(a0, b0));
	for (let ty = 0; ty < th; ty++) {
		for (let tx = 0; tx < tw; tx++) {
			const [x0, x1] = [(tx * width) / tw, ((tx + 1) * width) / tw];
			const [y0, y1] = [(ty * height) / th, ((ty + 1) * height) / th];
			for (let c = 0; c < 3; c++) {
				let sum = 0;
				for (let y = Math.floor(y0); y < Math.ceil(y1); y++) {
					for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
						sum += (rgb[(y * width + x) * 3 + c] ?? 0) * overlap(x, x + 1, x0, x1) * overlap(y, y + 1, y0, y1);
					}
				}
				out.push(Math.round(sum / ((x1 - x0) * (y1 - y0))));
			}
		}
	}
	return out;
}

function reduce(rgb: Uint8Array, width: number, height: number, rowsPerCall = 1) {
	const reducer = new AreaReducer();
	reducer.start(width, height);
	for (let y = 0; y < height; y += rowsPerCall) {
		const count = Math.min(rowsPerCall, height - y);
		reducer.rows(y, count, rgb.subarray(y * width * 3, (y + count) * width * 3));
	}
	return reducer;
}

describe("thumbnailSize", () => {
	it("brings the longest side to 1024 px, keeps the aspect and never upscales", () => {
		expect(thumbnailSize(4000, 3000)).toEqual({ width: 1024, height: 768 });
		expect(thumbnailSize(1097, 1531)).toEqual({ width: 734, height: 1024 });
		expect(thumbnailSize(1024, 10)).toEqual({ width: 1024, height: 10 });
		expect(thumbnailSize(300, 200)).toEqual({ width: 300, height: 200 });
		expect(thumbnailSize(100_000, 3)).toEqual({ width: 1024, height: 1 });
	});
});

describe("AreaReducer", () => {
	it("keeps a raster smaller than a thumbnail pixel for pixel", () => {
		const rgb = noise(53, 31);
		const thumbnail = reduce(rgb, 53, 31).finish();
		expect([thumbnail.width, thumbnail.height]).toEqual([53, 31]);
		expect(Array.from(thumbnail.rgb)).toEqual(Array.from(rgb));
	});

	it("averages each 2 × 2 block of a raster twice the thumbnail's size", () => {
		const rgb = noise(2048, 4, 3);
		const thumbnail = reduce(rgb, 2048, 4, 3).finish();
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 2]);
		expect(Array.from(thumbnail.rgb)).toEqual(boxReference(rgb, 2048, 4, 1024, 2));
		const topLeft = [0, 1, 2048, 2049].map((pixel) => rgb[pixel * 3] ?? 0);
		expect(thumbnail.rgb[0]).toBe(Math.round(topLeft.reduce((sum, value) => sum + value, 0) / 4));
	});

	it("weighs each source pixel by the part of it a thumbnail pixel covers, at a fractional scale", () => {
		const [width, height] = [1531, 7];
		const rgb = noise(width, height, 9);
		const thumbnail = reduce(rgb, width, height, 2).finish();
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 5]);
		const expected = boxReference(rgb, width, height, 1024, 5);
		const off = Array.from(thumbnail.rgb).filter((value, i) => Math.abs(value - (expected[i] ?? 0)) > 1);
		expect(off).toEqual([]);
	});

	it("refuses rows out of order, twice, or past the raster's end", () => {
		const reducer = new AreaReducer();
		reducer.start(4, 3);
		reducer.rows(0, 1, new Uint8Array(12));
		expect(() => reducer.rows(2, 1, new Uint8Array(12))).toThrow(/out of order/);
		expect(() => reducer.rows(0, 1, new Uint8Array(12))).toThrow(/out of order/);
		expect(() => reducer.rows(1, 3, new Uint8Array(36))).toThrow(/out of order/);
	});

	it("refuses to finish before every row arrived", () => {
		const reducer = new AreaReducer();
		reducer.start(4, 3);
		reducer.rows(0, 2, new Uint8Array(24));
		expect(() => reducer.finish()).toThrow(/after 2 of 3 rows/);
	});
});

describe("orient", () => {
	// A 3 × 2 image whose pixels are numbered 1..6 (in the red channel) row by row:
	//   1 2 3
	//   4 5 6
	const image = { width: 3, height: 2, rgb: Uint8Array.from([1, 2, 3, 4, 5, 6].flatMap((n) => [n, 0, 0])) };
	const shown = (orientation: number) => {
		const turned = orient(image, orientation);
		return { size: [turned.width, turned.height], red: Array.from(turned.rgb.filter((_, i) => i % 3 === 0)) };
	};

	it("turns the thumbnail as each EXIF orientation 1 to 8 asks", () => {
		expect(shown(1)).toEqual({ size: [3, 2], red: [1, 2, 3, 4, 5, 6] });
		expect(shown(2)).toEqual({ size: [3, 2], red: [3, 2, 1, 6, 5, 4] });
		expect(shown(3)).toEqual({ size: [3, 2], red: [6, 5, 4, 3, 2, 1] });
		expect(shown(4)).toEqual({ size: [3, 2], red: [4, 5, 6, 1, 2, 3] });
		expect(shown(5)).toEqual({ size: [2, 3], red: [1, 4, 2, 5, 3, 6] });
		expect(shown(6)).toEqual({ size: [2, 3], red: [4, 1, 5, 2, 6, 3] });
		expect(shown(7)).toEqual({ size: [2, 3], red: [6, 3, 5, 2, 4, 1] });
		expect(shown(8)).toEqual({ size: [2, 3], red: [3, 6, 2, 5, 1, 4] });
	});

	it("leaves the thumbnail as it is for an orientation outside 1 to 8", () => {
		expect(shown(0)).toEqual(shown(1));
		expect(shown(9)).toEqual(shown(1));
	});
});
