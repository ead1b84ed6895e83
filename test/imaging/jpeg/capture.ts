/**
 * For the JPEG decoder's tests: a sink that keeps the whole (small) raster and checks the row contract,
 * and the 1/8-scale decode most of them run.
 */
import type { ByteSource } from "../../../src/imaging/byte-source.ts";
import { decodeJpeg } from "../../../src/imaging/jpeg/decode.ts";
import type { JpegDecodeOptions } from "../../../src/imaging/jpeg/scans.ts";
import type { Decoded, RasterSink } from "../../../src/imaging/raster.ts";

/** The 1/8-scale decode, from the DC coefficients alone: decodeJpeg asked for the smallest long side. */
export function decodeJpegDc(source: ByteSource, sink: RasterSink, options: JpegDecodeOptions = {}): Promise<Decoded> {
	return decodeJpeg(source, sink, { ...options, minLongSide: 1 });
}

/** A decoded raster: its size and 8-bit RGB pixels. */
export type Raster = { width: number; height: number; rgb: Uint8Array };

/**
 * A sink that assembles the raster, failing when rows come out of order, twice or outside it. With
 * `keep: false` it only checks (a lying header may claim a raster too large to hold).
 */
export function captureSink({ keep = true } = {}): RasterSink & { raster(): Raster } {
	let width = -1;
	let height = -1;
	let rgb = new Uint8Array(0);
	let nextRow = 0;
	return {
		start(w, h) {
			if (width !== -1) throw new Error("start called twice");
			width = w;
			height = h;
			if (keep) rgb = new Uint8Array(w * h * 3);
		},
		rows(y, count, bytes) {
			if (y !== nextRow) throw new Error(`rows from ${y}, expected ${nextRow}`);
			if (count < 1 || y + count > height) throw new Error(`rows ${y}+${count} outside a raster ${height} high`);
			if (bytes.length !== width * count * 3) throw new Error(`${bytes.length} bytes for ${count} rows of ${width}`);
			if (keep) rgb.set(bytes, y * width * 3);
			nextRow = y + count;
		},
		raster() {
			if (nextRow !== height) throw new Error(`${nextRow} of ${height} rows delivered`);
			return { width, height, rgb };
		},
	};
}

/** Mean absolute difference per channel value between two rasters of the same size (0 to 255). */
export function meanAbsoluteError(a: Raster, b: Raster): number {
	if (a.width !== b.width || a.height !== b.height) {
		throw new Error(`sizes differ: ${a.width}×${a.height} and ${b.width}×${b.height}`);
	}
	let sum = 0;
	for (let index = 0; index < a.rgb.length; index++) sum += Math.abs((a.rgb[index] ?? 0) - (b.rgb[index] ?? 0));
	return sum / a.rgb.length;
}
