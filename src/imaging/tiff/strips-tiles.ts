/**
 * A TIFF's image data, read in file order with bounded memory: the strips' or tiles' offsets and
 * byte counts a window at a time, each piece decompressed as it comes, strips handed on a row at a
 * time and tiles a band (a row of tiles) at a time.
 */
import { ImageFault } from "../fault.ts";
import { inflate } from "../inflate.ts";
import { LzwDecoder, PackBitsDecoder } from "../lzw.ts";
import type { RasterSink } from "../raster.ts";
import type { ByteReader } from "../reader.ts";
import { checkPieceInFile, type Layout, type PieceArrays, valuesOf } from "./directory.ts";
import { interleave, type Pixels, rowToRgb, undoPredictor } from "./samples.ts";

/** Largest decompressed tile held at once. */
const MAX_TILE_BYTES = 16 * 1024 * 1024;
/** Largest band of tile rows (as 8-bit RGB) held at once. */
const MAX_BAND_BYTES = 48 * 1024 * 1024;
/** Offsets and byte counts are read this many at a time, as the strips and tiles come. */
const ARRAY_WINDOW = 4096;

/** What reading the image data needs: the file, where its pieces are, how its pixels are stored, and the sink. */
export type Read = {
	reader: ByteReader;
	layout: Layout;
	arrays: PieceArrays;
	compression: number;
	pixels: Pixels;
	height: number;
	sink: RasterSink;
};

/** The offsets and byte counts of the strips or tiles, read a window at a time as they are needed. */
class Pieces {
	readonly #read: Read;
	/** Index of this plane's first piece: pieces are stored plane after plane. */
	readonly #base: number;
	readonly #perPlane: number;
	#windowStart = -1;
	#offsetWindow: number[] = [];
	#countWindow: number[] = [];

	constructor(read: Read, perPlane: number, plane: number) {
		const { offsets, counts } = read.arrays;
		const needed = perPlane * read.pixels.planes;
		if (offsets.count < needed || counts.count < needed) {
			throw new ImageFault(
				"corrupt_header",
				`The TIFF's offsets or byte counts do not cover its ${needed} ${read.arrays.unit}s.`,
			);
		}
		this.#base = plane * perPlane;
		this.#perPlane = perPlane;
		this.#read = read;
	}

	/** Where this plane's piece `index` starts and how many bytes it has, checked against the file's size. */
	async get(planeIndex: number): Promise<{ offset: number; count: number }> {
		const index = this.#base + planeIndex;
		if (this.#windowStart < 0 || index < this.#windowStart || index >= this.#windowStart + ARRAY_WINDOW) {
			this.#windowStart = index;
			const { reader, layout, arrays } = this.#read;
			// Only this plane's entries: the other planes read theirs.
			const length = Math.min(ARRAY_WINDOW, this.#perPlane - planeIndex);
			this.#offsetWindow = await valuesOf(reader, layout, arrays.offsets, index, length);
			this.#countWindow = await valuesOf(reader, layout, arrays.counts, index, length);
		}
		const offset = this.#offsetWindow[index - this.#windowStart] ?? 0;
		const count = this.#countWindow[index - this.#windowStart] ?? 0;
		checkPieceInFile(this.#read.arrays, index, offset, count, this.#read.reader.size);
		return { offset, count };
	}
}

/** The decompressed bytes of one strip or tile, at most `expected`, as they come. */
async function* decompressed(read: Read, offset: number, count: number, expected: number): AsyncGenerator<Uint8Array> {
	const { compression, reader } = read;
	if (compression === 1) {
		yield* reader.pieces(offset, Math.min(count, expected));
		return;
	}
	const compressed = reader.pieces(offset, count);
	if (compression === 8 || compression === 32946) {
		yield* inflate(compressed, expected);
		return;
	}
	const decoder = compression === 5 ? new LzwDecoder() : new PackBitsDecoder();
	let left = expected;
	for await (const piece of compressed) {
		decoder.push(piece);
		// A piece at a time, each taken before the next is decoded: data that expands a thousandfold never piles up.
		for (;;) {
			let out: Uint8Array;
			try {
				out = decoder.next();
			} catch {
				throw new ImageFault("corrupt_data", "A TIFF strip's LZW data is damaged.");
			}
			if (out.length === 0) break;
			const kept = out.subarray(0, left);
			left -= kept.length;
			yield kept;
			if (left <= 0) return;
		}
		if (decoder instanceof LzwDecoder && decoder.ended) return;
	}
}

/**
 * One plane's rows (all samples' when they are stored together), strip after strip, each with its
 * predictor undone. The row yielded is reused for the next one.
 */
async function* stripRows(read: Read, rowsPerStrip: number, plane: number): AsyncGenerator<Uint8Array> {
	const { pixels, height } = read;
	const stride = pixels.planes === 1 ? pixels.samples : 1;
	const rowBytes = pixels.width * stride * pixels.bytesPerSample;
	const stripCount = Math.ceil(height / rowsPerStrip);
	const pieces = new Pieces(read, stripCount, plane);
	const row = new Uint8Array(rowBytes);
	for (let strip = 0; strip < stripCount; strip++) {
		const { offset, count } = await pieces.get(strip);
		const rows = Math.min(rowsPerStrip, height - strip * rowsPerStrip);
		let filled = 0;
		let done = 0;
		for await (const piece of decompressed(read, offset, count, rows * rowBytes)) {
			let at = 0;
			while (at < piece.length) {
				const taken = Math.min(rowBytes - filled, piece.length - at);
				row.set(piece.subarray(at, at + taken), filled);
				filled += taken;
				at += taken;
				if (filled === rowBytes) {
					undoPredictor(pixels, row, stride);
					yield row;
					done++;
					filled = 0;
				}
			}
		}
		if (done < rows) throw new ImageFault("truncated", `TIFF strip ${strip} holds fewer rows than it should.`);
	}
}

/** An alpha buffer of `length` bytes when the sink takes the alpha and the image has one; else null. */
function alphaBuffer(read: Read, length: number): Uint8Array | null {
	return read.sink.alpha !== undefined && read.pixels.alpha !== "none" ? new Uint8Array(length) : null;
}

/** Reads a stripped image, a row of every plane at a time, and hands the sink each row as RGB (and its alpha). */
export async function readStrips(read: Read, rowsPerStrip: number): Promise<void> {
	const { pixels, height, sink } = read;
	if (rowsPerStrip < 1) throw new ImageFault("corrupt_header", "The TIFF declares strips of no rows.");
	const rgb = new Uint8Array(pixels.width * 3);
	const alpha = alphaBuffer(read, pixels.width);
	sink.start(pixels.width, height);
	// Separate planes are read side by side, a row of each at a time, each plane's strips once.
	const planes = Array.from({ length: pixels.planes }, (_, plane) => stripRows(read, rowsPerStrip, plane));
	const row = new Uint8Array(pixels.width * pixels.samples * pixels.bytesPerSample);
	try {
		for (let y = 0; y < height; y++) {
			for (const [plane, rows] of planes.entries()) {
				const next = await rows.next();
				if (next.done === true) throw new ImageFault("truncated", "A TIFF plane holds fewer rows than it should.");
				if (pixels.planes === 1) row.set(next.value);
				else interleave(next.value, row, plane, pixels);
			}
			rowToRgb(pixels, row, pixels.width, rgb, alpha);
			if (alpha !== null) sink.alpha?.(y, 1, alpha);
			sink.rows(y, 1, rgb);
		}
	} finally {
		// Planes still open after a failure release their streams.
		for (const rows of planes) await rows.return(undefined);
	}
}

/**
 * Reads a tiled image a band of tiles at a time, each tile as RGB (and its alpha) into the band, and hands
 * the sink each band.
 */
export async function readTiles(read: Read, tileWidth: number, tileLength: number): Promise<void> {
	const { pixels, height, sink } = read;
	const pixelBytes = pixels.samples * pixels.bytesPerSample;
	if (tileWidth < 1 || tileLength < 1 || tileWidth * tileLength * pixelBytes > MAX_TILE_BYTES) {
		throw new ImageFault("exceeds_memory_budget", `TIFF tiles of ${tileWidth} × ${tileLength} are not read.`);
	}
	if (tileLength * pixels.width * 3 > MAX_BAND_BYTES) {
		throw new ImageFault("exceeds_memory_budget", "A row of this TIFF's tiles is too large to hold.");
	}
	const across = Math.ceil(pixels.width / tileWidth);
	const down = Math.ceil(height / tileLength);
	const planes = Array.from({ length: pixels.planes }, (_, plane) => new Pieces(read, across * down, plane));
	const tileRowBytes = tileWidth * pixelBytes;
	const tile = new Uint8Array(tileRowBytes * tileLength);
	const stride = pixels.planes === 1 ? pixels.samples : 1;
	const planeTile = pixels.planes === 1 ? tile : new Uint8Array(tileWidth * tileLength * pixels.bytesPerSample);
	const planeRowBytes = tileWidth * stride * pixels.bytesPerSample;
	const band = new Uint8Array(tileLength * pixels.width * 3);
	const tileRgb = new Uint8Array(tileWidth * 3);
	const bandAlpha = alphaBuffer(read, tileLength * pixels.width);
	const tileAlpha = alphaBuffer(read, tileWidth);
	sink.start(pixels.width, height);
	for (let ty = 0; ty < down; ty++) {
		for (let tx = 0; tx < across; tx++) {
			for (const [plane, pieces] of planes.entries()) {
				const { offset, count } = await pieces.get(ty * across + tx);
				let filled = 0;
				for await (const piece of decompressed(read, offset, count, planeTile.length)) {
					planeTile.set(piece, filled);
					filled += piece.length;
				}
				if (filled < planeTile.length) {
					throw new ImageFault("truncated", "A TIFF tile holds fewer bytes than it should.");
				}
				for (let r = 0; r < tileLength; r++) {
					undoPredictor(pixels, planeTile.subarray(r * planeRowBytes, (r + 1) * planeRowBytes), stride);
				}
				if (pixels.planes > 1) interleave(planeTile, tile, plane, pixels);
			}
			const x0 = tx * tileWidth;
			const columns = Math.min(tileWidth, pixels.width - x0);
			for (let r = 0; r < tileLength; r++) {
				rowToRgb(pixels, tile.subarray(r * tileRowBytes, (r + 1) * tileRowBytes), tileWidth, tileRgb, tileAlpha);
				band.set(tileRgb.subarray(0, columns * 3), (r * pixels.width + x0) * 3);
				if (tileAlpha !== null) bandAlpha?.set(tileAlpha.subarray(0, columns), r * pixels.width + x0);
			}
		}
		const y = ty * tileLength;
		const rows = Math.min(tileLength, height - y);
		if (bandAlpha !== null) sink.alpha?.(y, rows, bandAlpha.subarray(0, rows * pixels.width));
		sink.rows(y, rows, band.subarray(0, rows * pixels.width * 3));
	}
}
