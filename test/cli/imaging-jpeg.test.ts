/**
 * The DC-only JPEG decoder in Node against Debian's ImageMagick: real encoder output of every
 * sampling, colour model and coding compared with ImageMagick's box-filtered 1/8 reduction, a
 * progressive file read only to its first scan, and a 20000 × 20000 JPEG decoded from a generated
 * source with memory growth well under 64 MiB. The scaled decoder likewise at 1/4, 1/2 and 1/1, and a
 * 16000 × 12000 JPEG through it at 1/4.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AreaReducer } from "../../src/imaging/area-reducer.ts";
import { type ByteSource, memorySource } from "../../src/imaging/byte-source.ts";
import { decodeImage } from "../../src/imaging/decode.ts";
import { decodeJpeg } from "../../src/imaging/jpeg/decode.ts";
import type { RasterSink } from "../../src/imaging/raster.ts";
import { sparseSource } from "../imaging/fixtures/sparse-file.ts";
import { captureSink, decodeJpegDc, meanAbsoluteError, type Raster } from "../imaging/jpeg/capture.ts";
import { flatGrayJpeg } from "../imaging/jpeg/dc-fixtures.ts";

/** Debian's ImageMagick, which .ci/run installs when it is missing. */
const CONVERT = "/usr/bin/convert";
/** Without ImageMagick the comparison is skipped, as the browser tests are without Chromium, except in CI. */
const COMPARE = existsSync(CONVERT) || process.env.CI !== undefined;
const MAX_MEAN_ERROR = 6;

let dir = "";

/** Encodes the source as a JPEG with ImageMagick's `options`, returning its bytes. */
function encode(name: string, options: string[]): Uint8Array {
	const file = path.join(dir, `${name}.jpg`);
	execFileSync(CONVERT, [path.join(dir, "source.png"), ...options, file]);
	return new Uint8Array(readFileSync(file));
}

/** ImageMagick's reference: the JPEG decoded in full, then box-filtered to `width` × `height`. */
function reference(name: string, width: number, height: number): Raster {
	const rgb = execFileSync(
		CONVERT,
		[
			path.join(dir, `${name}.jpg`),
			"-colorspace",
			"sRGB",
			"-background",
			"white",
			"-flatten",
			"-scale",
			`${width}x${height}!`,
			"-depth",
			"8",
			"rgb:-",
		],
		{ maxBuffer: 64 * 1024 * 1024 },
	);
	return { width, height, rgb: new Uint8Array(rgb) };
}

const VARIANTS: [string, string[]][] = [
	["baseline 4:2:0", ["-quality", "90", "-sampling-factor", "2x2"]],
	["baseline 4:2:2", ["-quality", "85", "-sampling-factor", "2x1"]],
	["baseline 4:4:4", ["-quality", "95", "-sampling-factor", "1x1"]],
	["baseline 4:1:1", ["-quality", "85", "-sampling-factor", "4x1"]],
	["gray", ["-colorspace", "Gray", "-quality", "85"]],
	["progressive 4:2:0", ["-interlace", "Plane", "-quality", "85"]],
	["progressive gray", ["-colorspace", "Gray", "-interlace", "Plane"]],
	["CMYK", ["-colorspace", "CMYK", "-quality", "90"]],
	["progressive CMYK", ["-colorspace", "CMYK", "-interlace", "Plane"]],
	["low quality 4:2:0", ["-quality", "30"]],
];

describe.skipIf(!COMPARE)("decodeJpegDc against ImageMagick", () => {
	beforeAll(() => {
		dir = mkdtempSync(path.join(tmpdir(), "previews-jpeg-"));
		// A photograph-like source: smooth fractal colour with fine detail.
		execFileSync(CONVERT, [
			"-size",
			"384x256",
			"-seed",
			"7",
			"plasma:fractal",
			"-blur",
			"0x1",
			path.join(dir, "source.png"),
		]);
	});

	afterAll(() => {
		if (dir !== "") rmSync(dir, { recursive: true, force: true });
	});

	it("convert is Debian's ImageMagick", () => {
		expect(execFileSync(CONVERT, ["-version"]).toString()).toMatch(/ImageMagick 6\.9\.\d+/);
	});

	for (const [name, options] of VARIANTS) {
		it(`${name}: the 1/8 raster is within ${MAX_MEAN_ERROR}/255 of ImageMagick's box-filtered reduction`, async () => {
			const file = name.replace(/[^a-z0-9]+/gi, "-");
			const bytes = encode(file, options);
			const sink = captureSink();
			await decodeJpegDc(memorySource(bytes), sink);
			const raster = sink.raster();
			expect([raster.width, raster.height]).toEqual([48, 32]);
			const error = meanAbsoluteError(raster, reference(file, 48, 32));
			expect(error).toBeLessThan(MAX_MEAN_ERROR);
		});
	}

	it("a progressive JPEG is read only to the end of its first (DC) scan", async () => {
		execFileSync(CONVERT, ["-size", "1600x1200", "-seed", "3", "plasma:fractal", path.join(dir, "big.png")]);
		execFileSync(CONVERT, [
			path.join(dir, "big.png"),
			"-interlace",
			"Plane",
			"-quality",
			"92",
			path.join(dir, "big.jpg"),
		]);
		const bytes = new Uint8Array(readFileSync(path.join(dir, "big.jpg")));
		const source = memorySource(bytes);
		await decodeJpegDc(source, captureSink(), { chunkBytes: 64 * 1024 });
		expect(source.bytesRead).toBeLessThan(bytes.length * 0.4);
	});

	it("a 3000 × 2000 progressive JPEG's thumbnail is 1024 px (decoded at 1/2), within 6/255 of ImageMagick's", async () => {
		const png = path.join(dir, "photo-3000.png");
		const jpg = path.join(dir, "photo-3000.jpg");
		execFileSync(CONVERT, ["-size", "1000x667", "-seed", "5", "plasma:fractal", "-resize", "3000x2000!", png]);
		execFileSync(CONVERT, [png, "-interlace", "Plane", "-quality", "90", jpg]);
		const bytes = new Uint8Array(readFileSync(jpg));
		const source = memorySource(bytes);
		// As the queue's consumer makes it (makeThumbnail), short of the PNG encoding.
		const reducer = new AreaReducer();
		const { orientation } = await decodeImage("jpeg", source, reducer);
		const thumbnail = reducer.finish(orientation);
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 683]);
		// Every scan is read: the AC scans are most of the file.
		expect(source.bytesRead).toBe(bytes.length);
		const error = meanAbsoluteError(thumbnail, reference("photo-3000", 1024, 683));
		expect(error).toBeLessThan(MAX_MEAN_ERROR);
	}, 60_000);

	/** The scaled decoder's variants: every coding and colour model its inverse DCT path reads. */
	const SCALED_VARIANTS = VARIANTS.filter(([name]) => !name.startsWith("low quality"));
	for (const [scale, side] of [
		["1/4", 2],
		["1/2", 4],
		["1/1", 8],
	] as const) {
		for (const [name, options] of SCALED_VARIANTS) {
			it(`${name} at ${scale}: decodeJpeg is within ${MAX_MEAN_ERROR}/255 of ImageMagick's box-filtered reduction`, async () => {
				const file = `scaled-${name.replace(/[^a-z0-9]+/gi, "-")}`;
				const bytes = encode(file, options);
				const sink = captureSink();
				const width = (384 * side) / 8;
				const height = (256 * side) / 8;
				await decodeJpeg(memorySource(bytes), sink, { minLongSide: width });
				const raster = sink.raster();
				expect([raster.width, raster.height]).toEqual([width, height]);
				const error = meanAbsoluteError(raster, reference(file, width, height));
				expect(error).toBeLessThan(MAX_MEAN_ERROR);
			});
		}
	}
});

/** A ByteSource that checks it is read front to back, once, in chunks of at most 1 MiB. */
function frontToBack(inner: ByteSource): ByteSource & { bytesRead: number; largestRead: number } {
	let next = 0;
	const source = {
		size: inner.size,
		bytesRead: 0,
		largestRead: 0,
		async read(offset: number, length: number): Promise<Uint8Array> {
			if (offset < next) throw new Error(`read at ${offset}, behind ${next}`);
			const bytes = await inner.read(offset, length);
			next = offset + bytes.length;
			source.bytesRead += bytes.length;
			source.largestRead = Math.max(source.largestRead, length);
			return bytes;
		},
	};
	return source;
}

/**
 * Decodes a flat gray `width` × `height` JPEG from a generated source read front to back, checking
 * that every row is mid-gray, every read at most 1 MiB and the memory growth under 64 MiB.
 */
async function streamFlatGray(
	width: number,
	height: number,
	decode: (source: ByteSource, sink: RasterSink) => Promise<unknown>,
	expected: { width: number; height: number },
): Promise<void> {
	const file = flatGrayJpeg(width, height);
	const source = frontToBack(sparseSource(file));
	const before = process.memoryUsage();
	let peak = 0;
	let rows = 0;
	let wrong = 0;
	const sink: RasterSink = {
		start(w, h) {
			expect({ width: w, height: h }).toEqual(expected);
		},
		rows(_y, count, rgb) {
			rows += count;
			for (const value of rgb) if (value !== 128) wrong++;
			const now = process.memoryUsage();
			peak = Math.max(peak, now.heapUsed + now.arrayBuffers - before.heapUsed - before.arrayBuffers);
		},
	};
	await decode(source, sink);
	expect(rows).toBe(expected.height);
	expect(wrong).toBe(0);
	expect(source.largestRead).toBeLessThanOrEqual(1024 * 1024);
	expect(source.bytesRead).toBeLessThanOrEqual(file.size);
	expect(peak).toBeLessThan(64 * 1024 * 1024);
}

describe("decodeJpegDc memory", () => {
	it("a 20000 × 20000 JPEG streams through in a band of rows: memory grows by well under 64 MiB", async () => {
		await streamFlatGray(20_000, 20_000, (source, sink) => decodeJpegDc(source, sink), {
			width: 2500,
			height: 2500,
		});
	});
});

describe("decodeJpeg memory", () => {
	it("a 16000 × 12000 baseline JPEG at 1/4 streams through in a band of rows: memory grows by well under 64 MiB", async () => {
		await streamFlatGray(16_000, 12_000, (source, sink) => decodeJpeg(source, sink, { minLongSide: 4000 }), {
			width: 4000,
			height: 3000,
		});
	}, 60_000);
});
