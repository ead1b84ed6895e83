/**
 * The decoders' memory stays a band of rows, never the image: 20,000 × 20,000 pixel files (400 MB of
 * samples) decode through a sink that keeps nothing while the process grows by well under 64 MiB.
 * The files are generated, never held whole: the TIFFs are sparse (zeros but for their header and
 * directory), the PNGs a real zlib stream of zero rows. Runs in Node, where memory can be measured.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, it } from "vitest";
import { ADAM7, decodePng } from "../../src/previews/png-decoder.ts";
import type { RasterSink } from "../../src/previews/raster.ts";
import { decodeTiff } from "../../src/previews/tiff-decoder.ts";
import type { ByteSource } from "../../src/print-files/byte-source.ts";
import { memorySource } from "../../src/print-files/byte-source.ts";
import { PNG_SIGNATURE } from "../../src/print-files/png.ts";
import { concat, u32be } from "../print-files/fixtures/bytes.ts";
import { pngChunk } from "../print-files/fixtures/png.ts";
import { sparseSource } from "../print-files/fixtures/sparse-file.ts";
import { tiffFile } from "../print-files/fixtures/tiff.ts";

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
});
