import type { ByteSource } from "../print-files/byte-source.ts";
import { inflate } from "./inflate.ts";
import { BEST_RATIO, checkAgainstFile, checkSize } from "./limits.ts";
import { LzwDecoder, PackBitsDecoder } from "./lzw.ts";
import { type Decoded, type RasterSink, UndecodableImage } from "./raster.ts";
import { readAt, readRange } from "./sequential-reader.ts";

const TAG = {
	width: 256,
	height: 257,
	bitsPerSample: 258,
	compression: 259,
	photometric: 262,
	stripOffsets: 273,
	orientation: 274,
	samplesPerPixel: 277,
	rowsPerStrip: 278,
	stripByteCounts: 279,
	planarConfig: 284,
	predictor: 317,
	tileWidth: 322,
	tileLength: 323,
	tileOffsets: 324,
	tileByteCounts: 325,
	inkSet: 332,
	extraSamples: 338,
	sampleFormat: 339,
} as const;

/** Bytes per value of the field types a baseline reader meets (BYTE, SHORT, LONG, LONG8, IFD, IFD8). */
const TYPE_SIZES: Record<number, number> = { 1: 1, 3: 2, 4: 4, 13: 4, 16: 8, 18: 8 };
/** Compressions read: none, LZW, Deflate (Adobe's and the old code), PackBits. */
const COMPRESSIONS = new Set([1, 5, 8, 32946, 32773]);
/** Colour channels per photometric interpretation: min-is-white, min-is-black, RGB, separated (CMYK). */
const COLOUR_CHANNELS: Record<number, number> = { 0: 1, 1: 1, 2: 3, 5: 4 };
/** Most directory entries read; real files have a few dozen. */
const MAX_ENTRIES = 4096;
/** Largest decompressed tile held at once. */
const MAX_TILE_BYTES = 16 * 1024 * 1024;
/** Largest band of tile rows (as 8-bit RGB) held at once. */
const MAX_BAND_BYTES = 48 * 1024 * 1024;
/** LZW or PackBits bytes decoded at a time: 4 KiB expands to at most about 11 MiB of LZW output. */
const CODED_PIECE = 4096;
/** Offsets and byte counts are read this many at a time, as the strips and tiles come. */
const ARRAY_WINDOW = 4096;

type Entry = { type: number; count: number; field: Uint8Array };

/** How to read the file's numbers: byte order and classic or BigTIFF. */
type Layout = { littleEndian: boolean; big: boolean };

/** What a row needs to become RGB. */
type Pixels = {
	width: number;
	samples: number;
	bytesPerSample: number;
	photometric: number;
	alpha: "none" | "associated" | "unassociated";
	littleEndian: boolean;
	predictor: number;
	/** 1 when a pixel's samples are stored together; the number of samples when each has a plane of its own. */
	planes: number;
};

/**
 * Decodes the first page of a TIFF (strips or tiles, samples together or in separate planes;
 * uncompressed, LZW with or without the horizontal predictor, Deflate, PackBits; 8 or 16 bits;
 * gray, RGB or CMYK; either byte order; BigTIFF), handing `sink` its rows in order. Holds a strip's row or a band of tiles, never the image.
 */
export async function decodeTiff(source: ByteSource, sink: RasterSink): Promise<Decoded> {
	const head = await readAt(source, 0, Math.min(8, source.size));
	const layout = layoutOf(head);
	// A BigTIFF's first directory offset is 64-bit and follows the classic header's 8 bytes.
	const ifdOffset = layout.big
		? u64(await readAt(source, 8, 8), 0, layout.littleEndian)
		: u32(head, 4, layout.littleEndian);
	const entries = await readDirectory(source, layout, ifdOffset);
	const one = async (tag: number, fallback?: number): Promise<number> => {
		const entry = entries.get(tag);
		if (entry === undefined) {
			if (fallback === undefined) throw new UndecodableImage("corrupt", `The TIFF lacks the required tag ${tag}.`);
			return fallback;
		}
		const [value] = await valuesOf(source, layout, entry, 0, 1);
		return value ?? fallback ?? 0;
	};
	const width = await one(TAG.width);
	const height = await one(TAG.height);
	checkSize(width, height);
	const samples = await one(TAG.samplesPerPixel, 1);
	const compression = await one(TAG.compression, 1);
	const photometric = await one(TAG.photometric);
	const planar = await one(TAG.planarConfig, 1);
	const predictor = await one(TAG.predictor, 1);
	const sampleFormat = await one(TAG.sampleFormat, 1);
	const orientation = await one(TAG.orientation, 1);
	const inkSet = await one(TAG.inkSet, 1);
	const channels = COLOUR_CHANNELS[photometric];
	if (channels === undefined || (photometric === 5 && inkSet !== 1)) {
		throw new UndecodableImage("unsupported_variant", `TIFF photometric interpretation ${photometric} is not read.`);
	}
	if (samples < channels || samples > 8) {
		throw new UndecodableImage("corrupt", `The TIFF has ${samples} samples per pixel for ${channels} channels.`);
	}
	const depthEntry = entries.get(TAG.bitsPerSample);
	const depths = depthEntry === undefined ? [1] : await valuesOf(source, layout, depthEntry, 0, samples);
	const depth = depths[0] ?? 1;
	if ((depth !== 8 && depth !== 16) || depths.some((value) => value !== depth)) {
		throw new UndecodableImage("unsupported_variant", `TIFF samples of ${depths.join("/")} bits are not read.`);
	}
	if (!COMPRESSIONS.has(compression)) {
		throw new UndecodableImage("unsupported_variant", `TIFF compression ${compression} is not read.`);
	}
	if (planar !== 1 && planar !== 2) throw new UndecodableImage("corrupt", `TIFF planar configuration ${planar}.`);
	if (sampleFormat !== 1)
		throw new UndecodableImage("unsupported_variant", "TIFFs of signed or float samples are not read.");
	if (predictor !== 1 && predictor !== 2) {
		throw new UndecodableImage("unsupported_variant", `TIFF predictor ${predictor} is not read.`);
	}
	const extra = samples > channels ? await one(TAG.extraSamples, 0) : 0;
	const pixels: Pixels = {
		width,
		samples,
		bytesPerSample: depth / 8,
		photometric,
		alpha:
			samples > channels && extra === 1 ? "associated" : samples > channels && extra === 2 ? "unassociated" : "none",
		littleEndian: layout.littleEndian,
		predictor,
		planes: planar === 2 ? samples : 1,
	};
	const ratio =
		compression === 1
			? BEST_RATIO.none
			: compression === 5
				? BEST_RATIO.lzw
				: compression === 32773
					? BEST_RATIO.packBits
					: BEST_RATIO.deflate;
	checkAgainstFile(width * height * samples * pixels.bytesPerSample, source.size, ratio);
	const read = { source, layout, entries, compression, pixels, height, sink };
	if (entries.has(TAG.tileOffsets)) await readTiles(read, await one(TAG.tileWidth), await one(TAG.tileLength));
	else await readStrips(read, Math.min(await one(TAG.rowsPerStrip, height), height));
	return { orientation: orientation >= 1 && orientation <= 8 ? orientation : 1 };
}

type Read = {
	source: ByteSource;
	layout: Layout;
	entries: Map<number, Entry>;
	compression: number;
	pixels: Pixels;
	height: number;
	sink: RasterSink;
};

function layoutOf(head: Uint8Array): Layout {
	if (head.length < 8) throw new UndecodableImage("truncated", "The file ends inside the TIFF header.");
	const order = String.fromCharCode(head[0] ?? 0, head[1] ?? 0);
	if (order !== "II" && order !== "MM") throw new UndecodableImage("corrupt", "The file is not a TIFF.");
	const littleEndian = order === "II";
	const version = u16(head, 2, littleEndian);
	if (version === 42) return { littleEndian, big: false };
	if (version === 43 && u16(head, 4, littleEndian) === 8) return { littleEndian, big: true };
	throw new UndecodableImage("corrupt", `The TIFF's version ${version} is neither classic (42) nor BigTIFF (43).`);
}

async function readDirectory(source: ByteSource, layout: Layout, offset: number): Promise<Map<number, Entry>> {
	const countSize = layout.big ? 8 : 2;
	const entrySize = layout.big ? 20 : 12;
	const countBytes = await readAt(source, offset, countSize);
	const count = layout.big ? u64(countBytes, 0, layout.littleEndian) : u16(countBytes, 0, layout.littleEndian);
	if (count === 0 || count > MAX_ENTRIES)
		throw new UndecodableImage("corrupt", `The TIFF's directory has ${count} entries.`);
	const bytes = await readAt(source, offset + countSize, count * entrySize);
	const entries = new Map<number, Entry>();
	for (let i = 0; i < count; i++) {
		const at = i * entrySize;
		const tag = u16(bytes, at, layout.littleEndian);
		const type = u16(bytes, at + 2, layout.littleEndian);
		const valueCount = layout.big ? u64(bytes, at + 4, layout.littleEndian) : u32(bytes, at + 4, layout.littleEndian);
		const field = bytes.subarray(at + (layout.big ? 12 : 8), at + entrySize);
		if (!entries.has(tag)) entries.set(tag, { type, count: valueCount, field });
	}
	return entries;
}

/** Up to `length` values of `entry` from index `from`, read from the entry itself or from where it points. */
async function valuesOf(
	source: ByteSource,
	layout: Layout,
	entry: Entry,
	from: number,
	length: number,
): Promise<number[]> {
	const size = TYPE_SIZES[entry.type];
	if (size === undefined)
		throw new UndecodableImage("corrupt", `A TIFF tag has the unexpected field type ${entry.type}.`);
	const taken = Math.max(0, Math.min(length, entry.count - from));
	let bytes: Uint8Array;
	if (entry.count * size <= entry.field.length) {
		bytes = entry.field.subarray(from * size, (from + taken) * size);
	} else {
		const start = layout.big ? u64(entry.field, 0, layout.littleEndian) : u32(entry.field, 0, layout.littleEndian);
		bytes = await readAt(source, start + from * size, taken * size);
	}
	const values: number[] = [];
	for (let i = 0; i < taken; i++) {
		const at = i * size;
		if (size === 1) values.push(bytes[at] ?? 0);
		else if (size === 2) values.push(u16(bytes, at, layout.littleEndian));
		else if (size === 4) values.push(u32(bytes, at, layout.littleEndian));
		else values.push(u64(bytes, at, layout.littleEndian));
	}
	return values;
}

/** The offsets and byte counts of the strips or tiles, read a window at a time as they are needed. */
class Pieces {
	readonly #read: Read;
	readonly #offsets: Entry;
	readonly #counts: Entry;
	/** Index of this plane's first piece: pieces are stored plane after plane. */
	readonly #base: number;
	readonly #perPlane: number;
	#windowStart = -1;
	#offsetWindow: number[] = [];
	#countWindow: number[] = [];

	constructor(read: Read, offsetsTag: number, countsTag: number, perPlane: number, plane: number) {
		const offsets = read.entries.get(offsetsTag);
		const counts = read.entries.get(countsTag);
		const needed = perPlane * read.pixels.planes;
		if (offsets === undefined || counts === undefined || offsets.count < needed || counts.count < needed) {
			throw new UndecodableImage("corrupt", `The TIFF's offsets or byte counts do not cover its ${needed} pieces.`);
		}
		this.#base = plane * perPlane;
		this.#perPlane = perPlane;
		this.#read = read;
		this.#offsets = offsets;
		this.#counts = counts;
	}

	/** Where this plane's piece `index` starts and how many bytes it has, checked against the file's size. */
	async get(planeIndex: number): Promise<{ offset: number; count: number }> {
		const index = this.#base + planeIndex;
		if (this.#windowStart < 0 || index < this.#windowStart || index >= this.#windowStart + ARRAY_WINDOW) {
			this.#windowStart = index;
			const { source, layout } = this.#read;
			// Only this plane's entries: the other planes read theirs.
			const length = Math.min(ARRAY_WINDOW, this.#perPlane - planeIndex);
			this.#offsetWindow = await valuesOf(source, layout, this.#offsets, index, length);
			this.#countWindow = await valuesOf(source, layout, this.#counts, index, length);
		}
		const offset = this.#offsetWindow[index - this.#windowStart] ?? 0;
		const count = this.#countWindow[index - this.#windowStart] ?? 0;
		if (offset + count > this.#read.source.size) {
			throw new UndecodableImage("truncated", "A TIFF strip or tile lies past the end of the file.");
		}
		return { offset, count };
	}
}

/** The decompressed bytes of one strip or tile, at most `expected`, as they come. */
async function* decompressed(read: Read, offset: number, count: number, expected: number): AsyncGenerator<Uint8Array> {
	const { compression, source } = read;
	if (compression === 1) {
		yield* readRange(source, offset, Math.min(count, expected));
		return;
	}
	const compressed = readRange(source, offset, count);
	if (compression === 8 || compression === 32946) {
		yield* inflate(compressed, expected);
		return;
	}
	const decoder = compression === 5 ? new LzwDecoder() : new PackBitsDecoder();
	let left = expected;
	for await (const piece of compressed) {
		// Small inputs, so highly compressed data never expands into a large buffer at once.
		for (let at = 0; at < piece.length; at += CODED_PIECE) {
			let out: Uint8Array;
			try {
				out = decoder.push(piece.subarray(at, at + CODED_PIECE));
			} catch {
				throw new UndecodableImage("corrupt", "A TIFF strip's LZW data is damaged.");
			}
			const kept = out.subarray(0, left);
			left -= kept.length;
			if (kept.length > 0) yield kept;
			if (left <= 0 || (decoder instanceof LzwDecoder && decoder.ended)) return;
		}
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
	const pieces = new Pieces(read, TAG.stripOffsets, TAG.stripByteCounts, stripCount, plane);
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
		if (done < rows) throw new UndecodableImage("truncated", `TIFF strip ${strip} holds fewer rows than it should.`);
	}
}

async function readStrips(read: Read, rowsPerStrip: number): Promise<void> {
	const { pixels, height, sink } = read;
	if (rowsPerStrip < 1) throw new UndecodableImage("corrupt", "The TIFF declares strips of no rows.");
	const rgb = new Uint8Array(pixels.width * 3);
	sink.start(pixels.width, height);
	// Separate planes are read side by side, a row of each at a time, each plane's strips once.
	const planes = Array.from({ length: pixels.planes }, (_, plane) => stripRows(read, rowsPerStrip, plane));
	const row = new Uint8Array(pixels.width * pixels.samples * pixels.bytesPerSample);
	try {
		for (let y = 0; y < height; y++) {
			for (const [plane, rows] of planes.entries()) {
				const next = await rows.next();
				if (next.done === true)
					throw new UndecodableImage("truncated", "A TIFF plane holds fewer rows than it should.");
				if (pixels.planes === 1) row.set(next.value);
				else interleave(next.value, row, plane, pixels);
			}
			rowToRgb(pixels, row, pixels.width, rgb);
			sink.rows(y, 1, rgb);
		}
	} finally {
		// Planes still open after a failure release their streams.
		for (const rows of planes) await rows.return(undefined);
	}
}

/** Puts one plane's samples (a row or a tile) into their places among all the samples. */
function interleave(plane: Uint8Array, into: Uint8Array, index: number, pixels: Pixels): void {
	const { samples, bytesPerSample } = pixels;
	const count = plane.length / bytesPerSample;
	for (let i = 0; i < count; i++) {
		const to = (i * samples + index) * bytesPerSample;
		into[to] = plane[i * bytesPerSample] ?? 0;
		if (bytesPerSample === 2) into[to + 1] = plane[i * 2 + 1] ?? 0;
	}
}

async function readTiles(read: Read, tileWidth: number, tileLength: number): Promise<void> {
	const { pixels, height, sink } = read;
	const pixelBytes = pixels.samples * pixels.bytesPerSample;
	if (tileWidth < 1 || tileLength < 1 || tileWidth * tileLength * pixelBytes > MAX_TILE_BYTES) {
		throw new UndecodableImage("too_large", `TIFF tiles of ${tileWidth} × ${tileLength} are not read.`);
	}
	if (tileLength * pixels.width * 3 > MAX_BAND_BYTES) {
		throw new UndecodableImage("too_large", "A row of this TIFF's tiles is too large to hold.");
	}
	const across = Math.ceil(pixels.width / tileWidth);
	const down = Math.ceil(height / tileLength);
	const planes = Array.from(
		{ length: pixels.planes },
		(_, plane) => new Pieces(read, TAG.tileOffsets, TAG.tileByteCounts, across * down, plane),
	);
	const tileRowBytes = tileWidth * pixelBytes;
	const tile = new Uint8Array(tileRowBytes * tileLength);
	const stride = pixels.planes === 1 ? pixels.samples : 1;
	const planeTile = pixels.planes === 1 ? tile : new Uint8Array(tileWidth * tileLength * pixels.bytesPerSample);
	const planeRowBytes = tileWidth * stride * pixels.bytesPerSample;
	const band = new Uint8Array(tileLength * pixels.width * 3);
	const tileRgb = new Uint8Array(tileWidth * 3);
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
					throw new UndecodableImage("truncated", "A TIFF tile holds fewer bytes than it should.");
				}
				for (let r = 0; r < tileLength; r++) {
					undoPredictor(pixels, planeTile.subarray(r * planeRowBytes, (r + 1) * planeRowBytes), stride);
				}
				if (pixels.planes > 1) interleave(planeTile, tile, plane, pixels);
			}
			const x0 = tx * tileWidth;
			const columns = Math.min(tileWidth, pixels.width - x0);
			for (let r = 0; r < tileLength; r++) {
				rowToRgb(pixels, tile.subarray(r * tileRowBytes, (r + 1) * tileRowBytes), tileWidth, tileRgb);
				band.set(tileRgb.subarray(0, columns * 3), (r * pixels.width + x0) * 3);
			}
		}
		const y = ty * tileLength;
		const rows = Math.min(tileLength, height - y);
		sink.rows(y, rows, band.subarray(0, rows * pixels.width * 3));
	}
}

/** Undoes the horizontal predictor in place: each sample was stored as its difference from the one `stride` before. */
function undoPredictor(pixels: Pixels, row: Uint8Array, stride: number): void {
	if (pixels.predictor !== 2) return;
	if (pixels.bytesPerSample === 1) {
		for (let i = stride; i < row.length; i++) row[i] = ((row[i] ?? 0) + (row[i - stride] ?? 0)) & 0xff;
		return;
	}
	const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
	const { littleEndian } = pixels;
	for (let i = stride; i < row.length / 2; i++) {
		const sum = (view.getUint16(i * 2, littleEndian) + view.getUint16((i - stride) * 2, littleEndian)) & 0xffff;
		view.setUint16(i * 2, sum, littleEndian);
	}
}

/** A row of `width` pixels, samples together and predictor undone, as 8-bit RGB on white. */
function rowToRgb(pixels: Pixels, row: Uint8Array, width: number, rgb: Uint8Array): void {
	const { samples, bytesPerSample, littleEndian, photometric, alpha } = pixels;
	const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
	const max = bytesPerSample === 1 ? 255 : 65535;
	const sample = bytesPerSample === 1 ? (i: number) => row[i] ?? 0 : (i: number) => view.getUint16(i * 2, littleEndian);
	const channels = COLOUR_CHANNELS[photometric] ?? 1;
	const toByte = 255 / max;
	for (let x = 0; x < width; x++) {
		const base = x * samples;
		let r: number;
		let g: number;
		let b: number;
		if (photometric === 2) {
			r = sample(base);
			g = sample(base + 1);
			b = sample(base + 2);
		} else if (photometric === 5) {
			const k = max - sample(base + 3);
			r = ((max - sample(base)) * k) / max;
			g = ((max - sample(base + 1)) * k) / max;
			b = ((max - sample(base + 2)) * k) / max;
		} else {
			r = photometric === 0 ? max - sample(base) : sample(base);
			g = r;
			b = r;
		}
		if (alpha !== "none") {
			const a = sample(base + channels);
			const white = max - a;
			if (alpha === "associated") {
				r = Math.min(max, r + white);
				g = Math.min(max, g + white);
				b = Math.min(max, b + white);
			} else {
				r = (r * a) / max + white;
				g = (g * a) / max + white;
				b = (b * a) / max + white;
			}
		}
		rgb[x * 3] = Math.round(r * toByte);
		rgb[x * 3 + 1] = Math.round(g * toByte);
		rgb[x * 3 + 2] = Math.round(b * toByte);
	}
}

function u16(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 2 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(at, littleEndian);
}

function u32(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 4 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, littleEndian);
}

function u64(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 8 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	const value = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(at, littleEndian);
	if (value > BigInt(Number.MAX_SAFE_INTEGER))
		throw new UndecodableImage("corrupt", "A TIFF offset is beyond any file.");
	return Number(value);
}
