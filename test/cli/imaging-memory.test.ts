/**
 * The decoders' memory stays a band of rows, never the image: 20,000 × 20,000 pixel files (400 MB of
 * samples) decode through a sink that keeps nothing while the process grows by well under 64 MiB.
 * The files are generated, never held whole: the TIFFs are sparse (zeros but for their header and
 * directory), the PNGs a real zlib stream of zero rows. So do files whose data inflates a thousandfold
 * (a 9,000 × 6,000 smooth gradient of a few hundred kB, as a PNG and as a one-strip Deflate TIFF).
 * Runs in Node, where memory can be measured.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import type { ByteSource } from "../../src/imaging/byte-source.ts";
import { memorySource } from "../../src/imaging/byte-source.ts";
import { PNG_SIGNATURE } from "../../src/imaging/png/chunks.ts";
import { ADAM7, decodePng } from "../../src/imaging/png/decode.ts";
import type { RasterSink } from "../../src/imaging/raster.ts";
import { decodeTiff } from "../../src/imaging/tiff/decode.ts";
import { concat, u32be } from "../imaging/fixtures/bytes.ts";
import { pngChunk } from "../imaging/fixtures/png.ts";
import { sparseSource } from "../imaging/fixtures/sparse-file.ts";
import { tiffFile } from "../imaging/fixtures/tiff.ts";

const SIDE = 20_000;
const BUDGET = 64 * 1024 * 1024;

// A collection before each sample, so what is measured is what the decoder holds, not garbage not yet collected.
setFlagsFromString("--expose-gc");
const collect = runInNewContext("gc") as () => void;

/** Memory the decoder's buffers hold after a collection: the JavaScript heap and the ArrayBuffers outside it. */
function inUse(): number {
	collect();
	const { heapUsed, arrayBuffers } = process.memoryUsage();
	return heapUsed + arrayBuffers;
}

/** Rows between two samples: each sample costs a full collection. */
const SAMPLE_EVERY = 997;

/** A sink that keeps nothing but counts rows and samples the process's memory as they pass. */
function measuringSink(): RasterSink & { rowsSeen: number; peak: number; size: [number, number] } {
	const sink = {
		rowsSeen: 0,
		peak: 0,
		size: [0, 0] as [number, number],
		start(width: number, height: number) {
			sink.size = [width, height];
		},
		rows(y: number, count: number) {
			sink.rowsSeen += count;
			if (Math.floor((y + count) / SAMPLE_EVERY) > Math.floor(y / SAMPLE_EVERY))
				sink.peak = Math.max(sink.peak, inUse());
		},
	};
	return sink;
}

async function growthWhileDecoding(
	decode: (source: ByteSource, sink: RasterSink) => Promise<unknown>,
	source: ByteSource,
): Promise<{ growth: number; sink: ReturnType<typeof measuringSink> }> {
	const sink = measuringSink();
	const before = inUse();
	await decode(source, sink);
	return { growth: sink.peak - before, sink };
}

/** A gray 8-bit PNG of zero rows, its IDAT a real zlib stream made piece by piece (the raw rows never exist at once). */
async function zeroPng(width: number, height: number, interlaced: boolean): Promise<Uint8Array> {
	const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
	let rawBytes = 0;
	for (const [x0, y0, dx, dy] of passes) {
		rawBytes += Math.ceil((height - y0) / dy) * (1 + Math.ceil((width - x0) / dx));
	}
	const zeros = new Uint8Array(1024 * 1024);
	let left = rawBytes;
	const raw = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (left <= 0) {
				controller.close();
				return;
			}
			const piece = zeros.subarray(0, Math.min(left, zeros.length));
			left -= piece.length;
			controller.enqueue(piece);
		},
	});
	const zlib = new Uint8Array(await new Response(raw.pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
	const ihdr = concat(u32be(width), u32be(height), Uint8Array.of(8, 0, 0, 0, interlaced ? 1 : 0));
	return concat(PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", zlib), pngChunk("IEND", new Uint8Array(0)));
}

/** `height` rows of `rowBytes` deflated as zlib data a band at a time (the rows never exist at once), row `y` made by `fill`. */
async function zlibRows(
	height: number,
	rowBytes: number,
	fill: (y: number, row: Uint8Array) => void,
): Promise<Uint8Array> {
	let y = 0;
	const raw = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (y >= height) {
				controller.close();
				return;
			}
			const count = Math.min(64, height - y);
			const band = new Uint8Array(count * rowBytes);
			for (let r = 0; r < count; r++) fill(y + r, band.subarray(r * rowBytes, (r + 1) * rowBytes));
			y += count;
			controller.enqueue(band);
		},
	});
	return new Uint8Array(await new Response(raw.pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

const GRADIENT = { width: 9000, height: 6000 } as const;

/** Row `y` of a vertical RGB gradient (navy at the top, orange at the bottom, as ImageMagick's `gradient:navy-orange`) from byte `at`. */
function gradientRow(y: number, row: Uint8Array, at: number): void {
	const t = y / (GRADIENT.height - 1);
	const colour = [Math.round(255 * t), Math.round(165 * t), Math.round(128 * (1 - t))];
	for (let x = 0; x < GRADIENT.width; x++) row.set(colour, at + x * 3);
}

/** The gradient as an 8-bit RGB PNG (each scanline unfiltered), about 170 kB for 162 MB of rows. */
async function gradientPng(): Promise<Uint8Array> {
	const { width, height } = GRADIENT;
	const zlib = await zlibRows(height, 1 + width * 3, (y, row) => gradientRow(y, row, 1));
	const ihdr = concat(u32be(width), u32be(height), Uint8Array.of(8, 2, 0, 0, 0));
	return concat(PNG_SIGNATURE, pngChunk("IHDR", ihdr), pngChunk("IDAT", zlib), pngChunk("IEND", new Uint8Array(0)));
}

/** The gradient as an 8-bit RGB TIFF of one Deflate strip, as some writers store a whole image. */
async function gradientTiff(): Promise<Uint8Array> {
	const { width, height } = GRADIENT;
	const strip = await zlibRows(height, width * 3, (y, row) => gradientRow(y, row, 0));
	// Header, then the entries (tag, type, count, value), then the three bits per sample, then the strip.
	const entries: [number, number, number, number][] = [
		[256, 4, 1, width],
		[257, 4, 1, height],
		[258, 3, 3, 8 + 2 + 10 * 12 + 4],
		[259, 3, 1, 8],
		[262, 3, 1, 2],
		[273, 4, 1, 8 + 2 + 10 * 12 + 4 + 6],
		[277, 3, 1, 3],
		[278, 4, 1, height],
		[279, 4, 1, strip.length],
		[284, 3, 1, 1],
	];
	const head = new DataView(new ArrayBuffer(8 + 2 + entries.length * 12 + 4 + 6));
	head.setUint16(0, 0x4949, true);
	head.setUint16(2, 42, true);
	head.setUint32(4, 8, true);
	head.setUint16(8, entries.length, true);
	entries.forEach(([tag, type, count, value], index) => {
		const at = 10 + index * 12;
		head.setUint16(at, tag, true);
		head.setUint16(at + 2, type, true);
		head.setUint32(at + 4, count, true);
		if (type === 3 && count === 1) head.setUint16(at + 8, value, true);
		else head.setUint32(at + 8, value, true);
	});
	for (let sample = 0; sample < 3; sample++) head.setUint16(head.byteLength - 6 + sample * 2, 8, true);
	return concat(new Uint8Array(head.buffer), strip);
}

describe("the decoders' memory", () => {
	it("a 20,000 × 20,000 uncompressed gray TIFF (400 MB, one strip per row) decodes in under 64 MiB", async () => {
		const file = tiffFile({ order: "II", ifdAt: "start", layout: "strips", width: SIDE, height: SIDE });
		expect(file.size).toBeGreaterThan(400_000_000);
		const source = sparseSource(file);
		const { growth, sink } = await growthWhileDecoding(decodeTiff, source);
		expect(sink.rowsSeen).toBe(SIDE);
		expect(source.bytesRead).toBeLessThanOrEqual(file.size);
		expect(growth).toBeLessThan(BUDGET);
	});

	it("a 20,000 × 20,000 tiled gray TIFF decodes a band of tiles at a time, in under 64 MiB", async () => {
		const file = tiffFile({ order: "MM", ifdAt: "end", layout: "tiles", width: SIDE, height: SIDE, tileSize: 256 });
		const { growth, sink } = await growthWhileDecoding(decodeTiff, sparseSource(file));
		expect(sink.rowsSeen).toBe(SIDE);
		expect(growth).toBeLessThan(BUDGET);
	});

	it("a 20,000 × 20,000 PNG (400 MB of rows) decodes in under 64 MiB", async () => {
		const png = await zeroPng(SIDE, SIDE, false);
		const { growth, sink } = await growthWhileDecoding(decodePng, memorySource(png));
		expect(sink.rowsSeen).toBe(SIDE);
		expect(growth).toBeLessThan(BUDGET);
	});

	it("a 20,000 × 20,000 Adam7 PNG decodes into the thumbnail's sums, in under 64 MiB", async () => {
		const png = await zeroPng(SIDE, SIDE, true);
		const { growth, sink } = await growthWhileDecoding(decodePng, memorySource(png));
		expect(sink.size).toEqual([1024, 1024]);
		expect(growth).toBeLessThan(BUDGET);
	});

	it("a 9,000 × 6,000 gradient PNG whose data inflates a thousandfold decodes in under 64 MiB", async () => {
		const png = await gradientPng();
		expect((GRADIENT.height * (1 + GRADIENT.width * 3)) / png.length).toBeGreaterThan(900);
		const { growth, sink } = await growthWhileDecoding(decodePng, memorySource(png));
		expect(sink.rowsSeen).toBe(GRADIENT.height);
		expect(growth).toBeLessThan(BUDGET);
	}, 60_000);

	it("a 9,000 × 6,000 gradient TIFF of one Deflate strip that inflates a thousandfold decodes in under 64 MiB", async () => {
		const tiff = await gradientTiff();
		expect((GRADIENT.height * GRADIENT.width * 3) / tiff.length).toBeGreaterThan(900);
		const { growth, sink } = await growthWhileDecoding(decodeTiff, memorySource(tiff));
		expect(sink.rowsSeen).toBe(GRADIENT.height);
		expect(growth).toBeLessThan(BUDGET);
	}, 60_000);
});
