import jpeg from "jpeg-js";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { decodeImage } from "../../../src/imaging/decode.ts";
import {
	COEFFICIENT_BUDGET_BYTES,
	decodeJpeg,
	jpegBlockSide,
	MAX_HELD_SCANS,
	planeBytes,
} from "../../../src/imaging/jpeg/decode.ts";
import { ReducedIdct } from "../../../src/imaging/jpeg/idct.ts";
import type { Frame } from "../../../src/imaging/jpeg/segments.ts";
import { thumbnailReasonOf } from "../decode-helpers.ts";
import { concat } from "../fixtures/bytes.ts";
import { encodeJpeg } from "../fixtures/jpeg.ts";
import { sparseSource } from "../fixtures/sparse-file.ts";
import { captureSink, decodeJpegDc, meanAbsoluteError, type Raster } from "./capture.ts";
import {
	type DcComponent,
	type DcJpegSpec,
	dcJpeg,
	flatGrayJpeg,
	progressiveAcScan,
	progressiveDcScans,
	refinedProgressiveJpeg,
} from "./dc-fixtures.ts";

async function decodeAt(bytes: Uint8Array, minLongSide: number): Promise<Raster> {
	const sink = captureSink();
	await decodeJpeg(memorySource(bytes), sink, { minLongSide });
	return sink.raster();
}

/** The reason decoding `bytes` gives up with, or "decoded". */
async function outcome(bytes: Uint8Array, minLongSide: number): Promise<string> {
	try {
		await decodeJpeg(memorySource(bytes), captureSink(), { minLongSide });
		return "decoded";
	} catch (error) {
		return thumbnailReasonOf(error);
	}
}

/** The raster size decodeJpeg picks for a `width` × `height` gray JPEG of flat blocks, and whether it stays flat. */
async function sizeChosen(
	width: number,
	height: number,
	minLongSide: number,
	progressive = false,
): Promise<{ width: number; height: number; flat: boolean }> {
	const source = sparseSource(flatGrayJpeg(width, height, progressive));
	const chosen = { width: 0, height: 0, flat: true };
	await decodeJpeg(
		source,
		{
			start(w, h) {
				chosen.width = w;
				chosen.height = h;
			},
			rows(_y, _count, rgb) {
				if (rgb.some((value) => value !== 128)) chosen.flat = false;
			},
		},
		{ minLongSide },
	);
	return chosen;
}

const frame = (widthPx: number, heightPx: number, progressive: boolean, sampling: [number, number][]): Frame => ({
	code: progressive ? 0xc2 : 0xc0,
	progressive,
	precision: 8,
	widthPx,
	heightPx,
	components: sampling.map(([h, v], index) => ({ id: index + 1, h, v, quantTable: 0 })),
	hMax: Math.max(...sampling.map(([h]) => h)),
	vMax: Math.max(...sampling.map(([, v]) => v)),
});

/** A gray component whose block (x, y) has DC value `x * 7 - y * 5` (a mean of 128 plus that). */
const ramp = (id: number, h = 1, v = 1): DcComponent => ({ id, h, v, dc: (x, y) => ((x * 7 - y * 5) % 120) + 1 });

/** jpeg-js's full decode as an RGB raster. */
function jpegJsRaster(bytes: Uint8Array): Raster {
	const full = jpeg.decode(bytes, { useTArray: true });
	const rgb = new Uint8Array(full.width * full.height * 3);
	for (let index = 0; index < full.width * full.height; index++) {
		rgb.set(full.data.subarray(index * 4, index * 4 + 3), index * 3);
	}
	return { width: full.width, height: full.height, rgb };
}

/** The `factor` × `factor` box average of a raster whose sides `factor` divides. */
function boxAverage(raster: Raster, factor: number): Raster {
	const width = raster.width / factor;
	const height = raster.height / factor;
	const rgb = new Uint8Array(width * height * 3);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			for (let c = 0; c < 3; c++) {
				let sum = 0;
				for (let dy = 0; dy < factor; dy++) {
					for (let dx = 0; dx < factor; dx++) {
						sum += raster.rgb[((y * factor + dy) * raster.width + x * factor + dx) * 3 + c] ?? 0;
					}
				}
				rgb[(y * width + x) * 3 + c] = Math.round(sum / factor ** 2);
			}
		}
	}
	return { width, height, rgb };
}

const refinedProgressive = refinedProgressiveJpeg();

describe("ReducedIdct", () => {
	it("a flat block keeps its mean at every scale: the DC coefficient alone gives DC × step / 8 in each sample", () => {
		for (const size of [2, 4, 8]) {
			const idct = new ReducedIdct(size);
			const coefficients = new Int16Array(size * size);
			coefficients[0] = -37;
			const steps = new Int32Array(64).fill(3);
			steps[0] = 16;
			const out = new Int16Array(size * size);
			idct.transform(coefficients, 0, steps, out, 0, size);
			expect([...out], `size ${size}`).toEqual(new Array(size * size).fill(Math.round((-37 * 16) / 8)));
		}
	});

	it("one horizontal frequency makes samples that fall left to right and keep the block's mean", () => {
		const idct = new ReducedIdct(4);
		const coefficients = new Int16Array(16);
		coefficients[1] = 40;
		const out = new Int16Array(16);
		idct.transform(coefficients, 0, new Int32Array(64).fill(1), out, 0, 4);
		const row = [...out.subarray(0, 4)];
		expect(row[0]).toBeGreaterThan(row[1] ?? 0);
		expect(row[2]).toBeGreaterThan(row[3] ?? 0);
		expect(row.reduce((sum, value) => sum + value, 0)).toBe(0);
		expect([...out.subarray(12, 16)]).toEqual(row);
	});
});

describe("decodeJpeg", () => {
	it("a JPEG of flat blocks gives each block's mean in every pixel of it at 1/4, 1/2 and 1/1", async () => {
		const bytes = dcJpeg({ width: 64, height: 40, components: [ramp(1)] });
		const sink = captureSink();
		await decodeJpegDc(memorySource(bytes), sink);
		const eighth = sink.raster();
		for (const side of [2, 4, 8]) {
			const raster = await decodeAt(bytes, (64 * side) / 8);
			expect([raster.width, raster.height]).toEqual([(64 * side) / 8, (40 * side) / 8]);
			for (let y = 0; y < raster.height; y++) {
				for (let x = 0; x < raster.width; x++) {
					const at = (y * raster.width + x) * 3;
					const block = (Math.floor(y / side) * eighth.width + Math.floor(x / side)) * 3;
					expect(raster.rgb[at], `side ${side}, pixel ${x},${y}`).toBe(eighth.rgb[block]);
				}
			}
		}
	});

	it("a 6000 × 4000 baseline JPEG decodes at 1/4 (1500 px, the first scale reaching 1024)", async () => {
		expect(await sizeChosen(6000, 4000, 1024)).toEqual({ width: 1500, height: 1000, flat: true });
	});

	it("a 12000 × 8000 JPEG decodes at 1/8 (1500 px): the DC-only decode already reaches 1024", async () => {
		expect(await sizeChosen(12_000, 8000, 1024)).toEqual({ width: 1500, height: 1000, flat: true });
	});

	it("an 800 × 600 JPEG decodes at full size: a thumbnail is never upscaled, but none is smaller than the image", async () => {
		expect(await sizeChosen(800, 600, 1024)).toEqual({ width: 800, height: 600, flat: true });
	});

	it("a 1024 px long side on its own is decoded at full size, a 1025 px one too, a 2048 px one at 1/2", async () => {
		expect((await sizeChosen(1024, 16, 1024)).width).toBe(1024);
		expect((await sizeChosen(1025, 16, 1024)).width).toBe(1025);
		expect((await sizeChosen(16, 2048, 1024)).height).toBe(1024);
	});

	it("a baseline file with a scan per component gives the same raster as its interleaved twin", async () => {
		const spec: DcJpegSpec = { width: 48, height: 40, components: [ramp(1, 2, 2), ramp(2), ramp(3)] };
		const interleaved = await decodeAt(dcJpeg(spec), 48);
		const separate = await decodeAt(dcJpeg({ ...spec, separateScans: true }), 48);
		expect(separate).toEqual(interleaved);
	});

	it("at 1/1 a jpeg-js baseline file (restart markers, AC detail) matches jpeg-js's own full decode", async () => {
		for (const bytes of [
			encodeJpeg(96, 64, 80),
			dcJpeg({
				width: 72,
				height: 40,
				restartInterval: 2,
				acNoise: true,
				components: [ramp(1), ramp(2), ramp(3)],
			}),
		]) {
			const raster = await decodeAt(bytes, 100_000);
			expect(meanAbsoluteError(raster, jpegJsRaster(bytes))).toBeLessThan(1);
		}
	});

	it("a progressive JPEG's AC bands, AC refinements and DC refinement give jpeg-js's full decode at 1/1", async () => {
		const raster = jpegJsRaster(refinedProgressive);
		expect(meanAbsoluteError(await decodeAt(refinedProgressive, 1000), raster)).toBeLessThan(1);
	});

	it("a progressive JPEG at 1/4 and 1/2 keeps only its low frequencies yet matches the box average of its full decode", async () => {
		const full = jpegJsRaster(refinedProgressive);
		for (const side of [2, 4]) {
			const raster = await decodeAt(refinedProgressive, (64 * side) / 8);
			expect(meanAbsoluteError(raster, boxAverage(full, 8 / side)), `side ${side}`).toBeLessThan(3);
		}
	});

	it("a progressive JPEG whose planes at the wanted scale pass 48 MiB falls back to a coarser scale", async () => {
		// 10000 × 10000 gray: at 1/2 its planes take 62.5 MB, at 1/4 25 MB.
		expect(planeBytes(frame(10_000, 10_000, true, [[1, 1]]), 4)).toBeGreaterThan(COEFFICIENT_BUDGET_BYTES);
		expect(await sizeChosen(10_000, 10_000, 5000, true)).toEqual({ width: 2500, height: 2500, flat: true });
		// A sequential twin streams, so it is decoded at the scale asked for.
		expect((await sizeChosen(10_000, 10_000, 5000)).width).toBe(5000);
	}, 60_000);

	it("a thumbnail decodes a progressive JPEG under 8,192 px at the smallest scale reaching 1,024 px, as its baseline twin", async () => {
		const decoded = async (width: number, height: number, progressive: boolean) => {
			const spec: DcJpegSpec = {
				width,
				height,
				components: [{ id: 1, h: 1, v: 1, dc: (x: number, y: number) => (x + y) % 50 }],
			};
			const blocks = Math.ceil(width / 8) * Math.ceil(height / 8);
			// The DC scan, then an AC scan of every block's band 1 to 63 (its first coefficient 6 in every block).
			const bytes = progressive
				? concat(
						progressiveDcScans(spec),
						progressiveAcScan(1, blocks, { start: 1, end: 63, shift: 0, refine: false }, (_, k) => (k === 1 ? 6 : 0)),
						Uint8Array.of(0xff, 0xd9),
					)
				: dcJpeg(spec);
			const source = memorySource(bytes);
			const sink = captureSink();
			await decodeImage("jpeg", source, sink);
			return { width: sink.raster().width, read: source.bytesRead, size: bytes.length };
		};
		// 3000 px at 1/2 and 6000 px at 1/4 (1500 px each; 1/8 would give 375 and 750), 800 px whole.
		for (const [width, height, decodedWidth] of [
			[3000, 2000, 1500],
			[6000, 4000, 1500],
			[800, 600, 800],
		] as const) {
			for (const progressive of [true, false]) {
				const result = await decoded(width, height, progressive);
				expect(result.width, `${width} px, ${progressive ? "progressive" : "baseline"}`).toBe(decodedWidth);
				// Every scan is read: the AC scans come after the DC ones.
				expect(result.read).toBe(result.size);
			}
		}
	}, 60_000);

	it("a thumbnail reads a progressive JPEG of 8,192 px or more only to its DC scans: 1/8 already reaches 1,024 px", async () => {
		const bytes = dcJpeg({
			width: 8192,
			height: 5464,
			components: [{ id: 1, h: 1, v: 1, dc: (x: number, y: number) => (x + y) % 50 }],
			progressive: { shift: 0, trailingBytes: 3_000_000 },
		});
		const source = memorySource(bytes);
		const sink = captureSink();
		await decodeImage("jpeg", source, sink);
		expect(sink.raster().width).toBe(1024);
		// Read in chunks of 1 MiB: the first holds the DC scans, and the AC scans after them are never read.
		expect(source.bytesRead).toBeLessThanOrEqual(1024 * 1024);
		expect(bytes.length).toBeGreaterThan(3_000_000);
	}, 60_000);

	it("a progressive JPEG too large even at 1/4 falls back to the DC-only 1/8", () => {
		const big = frame(16_000, 14_000, true, [[1, 1]]);
		expect(jpegBlockSide(big, 4000, true)).toBe(1);
		expect(jpegBlockSide(big, 4000, false)).toBe(2);
		// An 8000 px 4:4:4 CMYK file's planes at 1/4 take 64 MB: its thumbnail is its 1/8 (1000 px), the only scale within the budget.
		const cmyk = frame(8000, 8000, true, [
			[1, 1],
			[1, 1],
			[1, 1],
			[1, 1],
		]);
		expect(planeBytes(cmyk, 2)).toBeGreaterThan(COEFFICIENT_BUDGET_BYTES);
		expect(jpegBlockSide(cmyk, 1024, true)).toBe(1);
		expect(
			jpegBlockSide(
				frame(8000, 8000, true, [
					[2, 2],
					[1, 1],
					[1, 1],
				]),
				1024,
				true,
			),
		).toBe(2);
		const camera = frame(6000, 4000, true, [
			[2, 2],
			[1, 1],
			[1, 1],
		]);
		expect(jpegBlockSide(camera, 1024, true)).toBe(2);
		expect(planeBytes(camera, 2)).toBeLessThan(10 * 1024 * 1024);
	});

	it("a minimum long side of 0, a negative one or Infinity picks 1/8 or full size; NaN is refused as a caller's bug", () => {
		const photo = frame(6000, 4000, false, [[1, 1]]);
		expect(jpegBlockSide(photo, 0, false)).toBe(1);
		expect(jpegBlockSide(photo, -5, false)).toBe(1);
		expect(jpegBlockSide(photo, Number.POSITIVE_INFINITY, false)).toBe(8);
		expect(() => jpegBlockSide(photo, Number.NaN, false)).toThrow(RangeError);
	});

	it("a progressive JPEG of more than 100 scans is refused (each walks every block), one of 100 is read", async () => {
		const gray: DcJpegSpec = {
			width: 16,
			height: 16,
			components: [ramp(1)],
			progressive: { shift: 0, trailingBytes: 0 },
		};
		const withScans = (count: number) =>
			concat(
				progressiveDcScans(gray),
				...Array.from({ length: count - 1 }, () =>
					progressiveAcScan(1, 4, { start: 1, end: 63, shift: 0, refine: false }, () => 0),
				),
				Uint8Array.of(0xff, 0xd9),
			);
		expect(await outcome(withScans(MAX_HELD_SCANS), 16)).toBe("decoded");
		expect(await outcome(withScans(MAX_HELD_SCANS + 1), 16)).toBe("unsupported_variant");
		expect(await outcome(withScans(MAX_HELD_SCANS + 1), 1)).toBe("decoded");
	});

	it("a progressive file cut before EOI is truncated; one that refines before its DC scan is corrupt", async () => {
		const bytes = dcJpeg({ width: 32, height: 24, components: [ramp(1)], progressive: { shift: 0, trailingBytes: 0 } });
		expect(await outcome(bytes.subarray(0, bytes.length - 2), 32)).toBe("truncated");
		const acFirst = bytes.slice();
		// The first scan's header, turned into an AC scan (Ss = 1, Se = 63).
		const sos = acFirst.findIndex((byte, at) => byte === 0xff && acFirst[at + 1] === 0xda);
		acFirst.set([1, 63], sos + 7);
		expect(await outcome(acFirst, 32)).toBe("corrupt");
	});
});
