import jpeg from "jpeg-js";
import UPNG from "upng-js";
import type { ByteSource } from "../../src/print-files/byte-source.ts";
import type { ImageFormat, InvalidReason } from "../../src/print-files/image-types.ts";
import { crc32, PNG_SIGNATURE } from "../../src/print-files/png.ts";

// ─── Bytes ─────────────────────────────────────────────────────────────────────────────────────

/** The parts one after another. */
export function concat(...parts: Uint8Array[]): Uint8Array {
	const out = new Uint8Array(parts.reduce((total, part) => total + part.length, 0));
	let at = 0;
	for (const part of parts) {
		out.set(part, at);
		at += part.length;
	}
	return out;
}

/** The first `keep` bytes: a file whose upload stopped early. */
export function cut(bytes: Uint8Array, keep: number): Uint8Array {
	return bytes.slice(0, keep);
}

function ascii(text: string): Uint8Array {
	return Uint8Array.from(text, (char) => char.charCodeAt(0));
}

function u16be(value: number): Uint8Array {
	return Uint8Array.of(value >> 8, value & 0xff);
}

function u32be(value: number): Uint8Array {
	const bytes = new Uint8Array(4);
	new DataView(bytes.buffer).setUint32(0, value);
	return bytes;
}

/** A colourful RGBA picture (more than 256 colours, so encoders keep it true-colour). */
function gradientRgba(width: number, height: number, opaque: boolean): Uint8Array<ArrayBuffer> {
	const rgba = new Uint8Array(width * height * 4);
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const at = (y * width + x) * 4;
			rgba[at] = (x * 255) / Math.max(1, width - 1);
			rgba[at + 1] = (y * 255) / Math.max(1, height - 1);
			rgba[at + 2] = (x * y) % 256;
			rgba[at + 3] = opaque ? 255 : 64 + ((x + y) % 192);
		}
	}
	return rgba;
}

// ─── Large files without allocating them ───────────────────────────────────────────────────────

/** A file of `size` bytes that is zero except for its pieces. */
export type SparseFile = { size: number; pieces: { offset: number; bytes: Uint8Array }[] };

/** A ByteSource over a sparse file (e.g. 300 MB that is mostly zeros), counting what is read. */
export function sparseSource(file: SparseFile): ByteSource & { bytesRead: number; reads: number } {
	const source = {
		size: file.size,
		bytesRead: 0,
		reads: 0,
		read(offset: number, length: number): Promise<Uint8Array> {
			const out = new Uint8Array(Math.max(0, Math.min(length, file.size - offset)));
			for (const piece of file.pieces) {
				const from = Math.max(offset, piece.offset);
				const to = Math.min(offset + out.length, piece.offset + piece.bytes.length);
				if (from < to) out.set(piece.bytes.subarray(from - piece.offset, to - piece.offset), from - offset);
			}
			source.bytesRead += out.length;
			source.reads += 1;
			return Promise.resolve(out);
		},
	};
	return source;
}

/** The whole sparse file in memory (for small ones). */
export function materialize(file: SparseFile): Uint8Array {
	const out = new Uint8Array(file.size);
	for (const piece of file.pieces) out.set(piece.bytes, piece.offset);
	return out;
}

// ─── PNG ───────────────────────────────────────────────────────────────────────────────────────

/** One PNG chunk: length, type, data and the CRC over type and data. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
	const typeAndData = concat(ascii(type), data);
	return concat(u32be(data.length), typeAndData, u32be(crc32(typeAndData)));
}

/** A real 8-bit PNG encoded by upng-js: RGBA (colour type 6), or RGB (type 2) when `opaque`. */
export function encodePng(width: number, height: number, { opaque = false } = {}): Uint8Array {
	const rgba = gradientRgba(width, height, opaque);
	const png = new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0));
	// upng-js sizes its output buffer from the raw pixels, so a tiny image can come out cut short.
	if (!pngChunk("IEND", new Uint8Array(0)).every((byte, index) => png[png.length - 12 + index] === byte)) {
		throw new Error(`upng-js cut its ${width} × ${height} PNG short; use a larger image`);
	}
	return png;
}

/** Channels per PNG colour type. */
const PNG_CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };

/** Adam7's seven passes: x start, y start, x step, y step. */
const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
] as const;

/**
 * A real PNG written chunk by chunk, for what upng-js cannot encode (16-bit, Adam7 interlacing):
 * unfiltered scanlines of patterned samples, zlib-deflated with CompressionStream.
 */
export async function buildPng(options: {
	width: number;
	height: number;
	bitDepth: number;
	colorType: number;
	interlaced?: boolean;
}): Promise<Uint8Array> {
	const { width, height, bitDepth, colorType, interlaced = false } = options;
	const channels = PNG_CHANNELS[colorType] ?? 1;
	const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
	const rows: Uint8Array[] = [];
	for (const [xStart, yStart, xStep, yStep] of passes) {
		const passWidth = Math.ceil((width - xStart) / xStep);
		const passHeight = Math.ceil((height - yStart) / yStep);
		if (passWidth <= 0 || passHeight <= 0) continue;
		const rowBytes = Math.ceil((passWidth * channels * bitDepth) / 8);
		for (let y = 0; y < passHeight; y++) {
			const row = new Uint8Array(1 + rowBytes); // filter type 0, then the samples
			for (let x = 1; x <= rowBytes; x++) row[x] = (x * 7 + y * 13) & 0xff;
			rows.push(row);
		}
	}
	const ihdr = concat(u32be(width), u32be(height), Uint8Array.of(bitDepth, colorType, 0, 0, interlaced ? 1 : 0));
	const chunks = [pngChunk("IHDR", ihdr)];
	if (colorType === 3)
		chunks.push(
			pngChunk(
				"PLTE",
				Uint8Array.from({ length: 3 * 2 ** bitDepth }, (_, i) => i),
			),
		);
	chunks.push(pngChunk("IDAT", await deflate(concat(...rows))), pngChunk("IEND", new Uint8Array(0)));
	return concat(PNG_SIGNATURE, ...chunks);
}

async function deflate(bytes: Uint8Array): Promise<Uint8Array> {
	const stream = new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate"));
	return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** A copy of a PNG with its IHDR width/height rewritten and the IHDR CRC recomputed to match. */
export function patchIhdr(png: Uint8Array, patch: { width?: number; height?: number }): Uint8Array {
	const out = png.slice();
	const view = new DataView(out.buffer);
	if (patch.width !== undefined) view.setUint32(16, patch.width);
	if (patch.height !== undefined) view.setUint32(20, patch.height);
	view.setUint32(29, crc32(out.subarray(12, 29)));
	return out;
}

/** A 100 MB PNG as a sparse file: its real header at the start, IEND at the end. */
export function largePng(size: number, width: number, height: number): SparseFile {
	// A small real PNG whose IHDR claims the large size: the header parser never looks at pixels.
	const small = patchIhdr(encodePng(40, 30), { width, height });
	const iend = pngChunk("IEND", new Uint8Array(0));
	// The IDAT stream in between is zeros: the header parser never inflates it.
	return {
		size,
		pieces: [
			{ offset: 0, bytes: small.subarray(0, small.length - iend.length) },
			{ offset: size - iend.length, bytes: iend },
		],
	};
}

// ─── JPEG ──────────────────────────────────────────────────────────────────────────────────────

/** A real baseline JPEG (SOI, APP0 JFIF, DQT, SOF0, DHT, SOS, data, EOI) encoded by jpeg-js. */
export function encodeJpeg(width: number, height: number, quality = 85): Uint8Array {
	const encoded = jpeg.encode({ data: gradientRgba(width, height, true), width, height }, quality);
	return new Uint8Array(encoded.data);
}

/** One marker segment: FF, marker, a length that counts itself, then the payload (at most 65533 bytes). */
export function jpegSegment(marker: number, payload: Uint8Array): Uint8Array {
	if (payload.length > 65_533) throw new Error("a JPEG segment holds at most 65533 bytes");
	return concat(Uint8Array.of(0xff, marker), u16be(payload.length + 2), payload);
}

/** Where the segment with `marker` starts (its FF) and its total size, walking segment lengths from SOI. */
export function findSegment(bytes: Uint8Array, marker: number): { at: number; size: number } {
	let at = 2;
	while (at + 4 <= bytes.length) {
		while (bytes[at + 1] === 0xff) at++; // fill bytes
		const code = bytes[at + 1];
		const size = 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
		if (code === marker) return { at, size };
		if (code === 0xda) break;
		at += size;
	}
	throw new Error(`no segment FF${marker.toString(16)} before the scan`);
}

/** A copy with `segments` inserted right after APP0 (where cameras put EXIF, XMP and ICC data). */
export function insertAfterApp0(bytes: Uint8Array, ...segments: Uint8Array[]): Uint8Array {
	const app0 = findSegment(bytes, 0xe0);
	const at = app0.at + app0.size;
	return concat(bytes.subarray(0, at), ...segments, bytes.subarray(at));
}

/** A copy whose SOF0 marker byte is `code`: the same frame header under another coding process. */
export function withFrameMarker(bytes: Uint8Array, code: number): Uint8Array {
	const out = bytes.slice();
	out[findSegment(bytes, 0xc0).at + 1] = code;
	return out;
}

/**
 * A copy whose SOF0 is replaced by a hand-written frame header with `components` components (1 for
 * grayscale, 4 for CMYK). A header-level fixture: the scan after it is still the colour encoder's.
 */
export function withComponents(bytes: Uint8Array, components: number): Uint8Array {
	const sof = findSegment(bytes, 0xc0);
	const old = new DataView(bytes.buffer, bytes.byteOffset + sof.at);
	const payload = concat(Uint8Array.of(8), u16be(old.getUint16(5)), u16be(old.getUint16(7)), Uint8Array.of(components));
	const specs = Array.from({ length: components }, (_, index) => Uint8Array.of(index + 1, 0x11, 0));
	return concat(
		bytes.subarray(0, sof.at),
		jpegSegment(0xc0, concat(payload, ...specs)),
		bytes.subarray(sof.at + sof.size),
	);
}

/** Adobe's APP14 segment, whose transform byte says RGB/CMYK (0), YCbCr (1) or YCCK (2). */
export function adobeSegment(transform: number): Uint8Array {
	return jpegSegment(0xee, concat(ascii("Adobe"), u16be(100), u16be(0), u16be(0), Uint8Array.of(transform)));
}

/**
 * About `totalBytes` of APP1 data as a camera writes it: one full EXIF segment (a little-endian
 * TIFF header, an empty IFD, then a thumbnail-sized filler) and extended-XMP segments for the rest.
 */
export function exifSegments(totalBytes: number): Uint8Array[] {
	const segments: Uint8Array[] = [];
	const exifHeader = concat(
		ascii("Exif\0\0"),
		ascii("II"),
		Uint8Array.of(42, 0, 8, 0, 0, 0),
		Uint8Array.of(0, 0, 0, 0, 0, 0),
	);
	let left = totalBytes;
	const exifSize = Math.min(65_533, left);
	segments.push(jpegSegment(0xe1, concat(exifHeader, patterned(exifSize - exifHeader.length, 1))));
	left -= exifSize;
	const xmpHeader = ascii("http://ns.adobe.com/xmp/extension/\0");
	for (let index = 0; left > 0; index++) {
		const size = Math.min(65_533, left);
		segments.push(jpegSegment(0xe1, concat(xmpHeader, patterned(Math.max(0, size - xmpHeader.length), index + 2))));
		left -= size;
	}
	return segments;
}

/** An ICC profile of `profileBytes` split over APP2 segments of `chunkBytes`, numbered as ICC.1 says. */
export function iccSegments(profileBytes: number, chunkBytes: number): Uint8Array[] {
	const count = Math.ceil(profileBytes / chunkBytes);
	return Array.from({ length: count }, (_, index) => {
		const size = Math.min(chunkBytes, profileBytes - index * chunkBytes);
		return jpegSegment(0xe2, concat(ascii("ICC_PROFILE\0"), Uint8Array.of(index + 1, count), patterned(size, index)));
	});
}

/** A copy with `count` fill bytes (0xFF) before every marker between SOI and the scan, as the standard allows. */
export function withFillBytes(bytes: Uint8Array, count: number): Uint8Array {
	const parts: Uint8Array[] = [bytes.subarray(0, 2)];
	const fill = new Uint8Array(count).fill(0xff);
	let at = 2;
	for (;;) {
		const size = 2 + (((bytes[at + 2] ?? 0) << 8) | (bytes[at + 3] ?? 0));
		parts.push(fill);
		if (bytes[at + 1] === 0xda) break;
		parts.push(bytes.subarray(at, at + size));
		at += size;
	}
	parts.push(bytes.subarray(at));
	return concat(...parts);
}

/** A 50 MB JPEG as a sparse file: a real header with `appBytes` of APP segments, zeros, EOI at the end. */
export function largeJpeg(size: number, appBytes: number): { file: SparseFile; header: Uint8Array } {
	const real = insertAfterApp0(encodeJpeg(64, 48), ...exifSegments(appBytes));
	const header = real.subarray(0, real.length - 2); // all but EOI
	return {
		file: {
			size,
			pieces: [
				{ offset: 0, bytes: header },
				{ offset: size - 2, bytes: Uint8Array.of(0xff, 0xd9) },
			],
		},
		header,
	};
}

function patterned(length: number, seed: number): Uint8Array {
	// No FF bytes, so the filler never looks like a marker to a naive scanner.
	return Uint8Array.from({ length }, (_, index) => (index * 31 + seed) % 251);
}

// ─── TIFF ──────────────────────────────────────────────────────────────────────────────────────

/** TIFF field types: 16-bit, 32-bit and (BigTIFF) 64-bit unsigned. */
export const SHORT = 3;
/** See SHORT. */
export const LONG = 4;
/** See SHORT. */
export const LONG8 = 16;

export type TiffOptions = {
	order: "II" | "MM";
	bigTiff?: boolean;
	/** Where the first IFD goes: right after the header, or after the pixel data at the end of the file. */
	ifdAt: "start" | "end";
	layout: "strips" | "tiles";
	width: number;
	height: number;
	samplesPerPixel?: 1 | 3;
	/** Field type of ImageWidth/ImageLength (default LONG). */
	dimensionType?: number;
	/** Field type of the offset and byte-count arrays (default LONG, or LONG8 in BigTIFF). */
	arrayType?: number;
	rowsPerStrip?: number;
	/** Tile width and length, a multiple of 16. */
	tileSize?: number;
};

type TiffEntry = { tag: number; type: number; values: number[] };

const TIFF_TYPE_SIZES: Record<number, number> = { [SHORT]: 2, [LONG]: 4, [LONG8]: 8 };

/**
 * An uncompressed 8-bit TIFF written byte by byte, as a sparse file: header, IFD and out-of-line
 * arrays are real bytes, the pixel data is zeros (black), so a 300 MB one costs nothing to build.
 */
export function tiffFile(options: TiffOptions): SparseFile {
	const { order, width, height, bigTiff = false, samplesPerPixel = 1, dimensionType = LONG } = options;
	const le = order === "II";
	const arrayType = options.arrayType ?? (bigTiff ? LONG8 : LONG);
	const wordSize = bigTiff ? 8 : 4;
	const headerSize = bigTiff ? 16 : 8;

	const byteCounts: number[] = [];
	const entries: TiffEntry[] = [
		{ tag: 256, type: dimensionType, values: [width] },
		{ tag: 257, type: dimensionType, values: [height] },
		{ tag: 258, type: SHORT, values: Array(samplesPerPixel).fill(8) },
		{ tag: 259, type: SHORT, values: [1] },
		{ tag: 262, type: SHORT, values: [samplesPerPixel === 3 ? 2 : 1] },
		{ tag: 277, type: SHORT, values: [samplesPerPixel] },
		{ tag: 284, type: SHORT, values: [1] },
	];
	let offsetsTag: number;
	if (options.layout === "strips") {
		const rowsPerStrip = options.rowsPerStrip ?? Math.max(1, Math.floor(8192 / (width * samplesPerPixel)));
		for (let row = 0; row < height; row += rowsPerStrip) {
			byteCounts.push(Math.min(rowsPerStrip, height - row) * width * samplesPerPixel);
		}
		offsetsTag = 273;
		entries.push(
			{ tag: 273, type: arrayType, values: byteCounts.map(() => 0) },
			{ tag: 278, type: LONG, values: [rowsPerStrip] },
			{ tag: 279, type: arrayType, values: byteCounts },
		);
	} else {
		const tileSize = options.tileSize ?? 16;
		const tiles = Math.ceil(width / tileSize) * Math.ceil(height / tileSize);
		for (let index = 0; index < tiles; index++) byteCounts.push(tileSize * tileSize * samplesPerPixel);
		offsetsTag = 324;
		entries.push(
			{ tag: 322, type: LONG, values: [tileSize] },
			{ tag: 323, type: LONG, values: [tileSize] },
			{ tag: 324, type: arrayType, values: byteCounts.map(() => 0) },
			{ tag: 325, type: arrayType, values: byteCounts },
		);
	}
	entries.sort((a, b) => a.tag - b.tag);

	const outOfLine = (entry: TiffEntry) => entry.values.length * (TIFF_TYPE_SIZES[entry.type] ?? 1) > wordSize;
	const arraysSize = entries
		.filter(outOfLine)
		.reduce((total, entry) => total + even(entry.values.length * (TIFF_TYPE_SIZES[entry.type] ?? 1)), 0);
	const ifdSize = (bigTiff ? 8 : 2) + entries.length * (bigTiff ? 20 : 12) + wordSize;
	const pixelsSize = byteCounts.reduce((total, count) => total + count, 0);
	const ifdStart = options.ifdAt === "start" ? headerSize : even(headerSize + pixelsSize + arraysSize);
	const arraysStart = options.ifdAt === "start" ? headerSize + ifdSize : even(headerSize + pixelsSize);
	const pixelsStart = options.ifdAt === "start" ? arraysStart + arraysSize : headerSize;
	const size = options.ifdAt === "start" ? pixelsStart + pixelsSize : ifdStart + ifdSize;

	const offsets = entries.find((entry) => entry.tag === offsetsTag);
	if (offsets !== undefined) {
		let at = pixelsStart;
		offsets.values = byteCounts.map((count) => {
			const start = at;
			at += count;
			return start;
		});
	}

	const header = new Uint8Array(headerSize);
	const headerView = new DataView(header.buffer);
	header.set(ascii(order));
	headerView.setUint16(2, bigTiff ? 43 : 42, le);
	if (bigTiff) {
		headerView.setUint16(4, 8, le);
		writeWord(headerView, 8, ifdStart, 8, le);
	} else {
		headerView.setUint32(4, ifdStart, le);
	}

	const ifd = new Uint8Array(ifdSize);
	const ifdView = new DataView(ifd.buffer);
	const arrays = new Uint8Array(arraysSize);
	const arraysView = new DataView(arrays.buffer);
	writeWord(ifdView, 0, entries.length, bigTiff ? 8 : 2, le);
	let arrayAt = 0;
	entries.forEach((entry, index) => {
		const at = (bigTiff ? 8 : 2) + index * (bigTiff ? 20 : 12);
		ifdView.setUint16(at, entry.tag, le);
		ifdView.setUint16(at + 2, entry.type, le);
		writeWord(ifdView, at + 4, entry.values.length, wordSize, le);
		const field = at + (bigTiff ? 12 : 8);
		if (outOfLine(entry)) {
			writeWord(ifdView, field, arraysStart + arrayAt, wordSize, le);
			arrayAt = writeValues(arraysView, arrayAt, entry, le);
			arrayAt = even(arrayAt);
		} else {
			writeValues(ifdView, field, entry, le);
		}
	});

	return {
		size,
		pieces: [
			{ offset: 0, bytes: header },
			{ offset: ifdStart, bytes: ifd },
			{ offset: arraysStart, bytes: arrays },
		],
	};
}

/** A small TIFF in memory; see tiffFile. */
export function buildTiff(options: TiffOptions): Uint8Array {
	return materialize(tiffFile(options));
}

function writeValues(view: DataView, at: number, entry: TiffEntry, le: boolean): number {
	const size = TIFF_TYPE_SIZES[entry.type] ?? 1;
	for (const [index, value] of entry.values.entries()) writeWord(view, at + index * size, value, size, le);
	return at + entry.values.length * size;
}

function writeWord(view: DataView, at: number, value: number, size: number, le: boolean): void {
	if (size === 2) view.setUint16(at, value, le);
	else if (size === 4) view.setUint32(at, value, le);
	else view.setBigUint64(at, BigInt(value), le);
}

function even(value: number): number {
	return value + (value % 2);
}

/** The first IFD's entry for `tag` in a TIFF: where its type, count and value (or value offset) fields are. */
export function findTiffEntry(bytes: Uint8Array, tag: number): { typeAt: number; countAt: number; valueAt: number } {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const le = bytes[0] === 0x49;
	const bigTiff = view.getUint16(2, le) === 43;
	const ifdAt = bigTiff ? Number(view.getBigUint64(8, le)) : view.getUint32(4, le);
	const count = bigTiff ? Number(view.getBigUint64(ifdAt, le)) : view.getUint16(ifdAt, le);
	for (let index = 0; index < count; index++) {
		const at = ifdAt + (bigTiff ? 8 + index * 20 : 2 + index * 12);
		if (view.getUint16(at, le) === tag) return { typeAt: at + 2, countAt: at + 4, valueAt: at + (bigTiff ? 12 : 8) };
	}
	throw new Error(`no TIFF tag ${tag}`);
}

// ─── The fixture table ─────────────────────────────────────────────────────────────────────────

/** A file and what inspecting it must give: a format and size, or a reason. */
export type Fixture = {
	name: string;
	bytes: Uint8Array;
	expected:
		| { ok: true; format: ImageFormat; widthPx: number; heightPx: number }
		| { ok: false; format: ImageFormat | null; reason: InvalidReason };
};

function valid(name: string, bytes: Uint8Array, format: ImageFormat, widthPx: number, heightPx: number): Fixture {
	return { name, bytes, expected: { ok: true, format, widthPx, heightPx } };
}

function invalid(name: string, bytes: Uint8Array, format: ImageFormat | null, reason: InvalidReason): Fixture {
	return { name, bytes, expected: { ok: false, format, reason } };
}

/** Every fixture file, valid and not, for the table-driven and differential tests. */
export async function allFixtures(): Promise<Fixture[]> {
	const rgba = encodePng(40, 30);
	const rgb = encodePng(33, 17, { opaque: true });
	const png16 = await buildPng({ width: 21, height: 13, bitDepth: 16, colorType: 6 });
	const pngInterlaced = await buildPng({ width: 37, height: 29, bitDepth: 8, colorType: 6, interlaced: true });
	const pngGray16Interlaced = await buildPng({ width: 9, height: 11, bitDepth: 16, colorType: 0, interlaced: true });
	const pngIndexed = await buildPng({ width: 15, height: 7, bitDepth: 4, colorType: 3 });

	const baseline = encodeJpeg(64, 48);
	const exif = insertAfterApp0(baseline, ...exifSegments(200_000));
	const icc = insertAfterApp0(baseline, ...iccSegments(60_000, 1_000));
	const everything = withFillBytes(
		insertAfterApp0(encodeJpeg(50, 70), ...exifSegments(200_000), ...iccSegments(30_000, 3_000)),
		3,
	);

	const tiffs: [string, TiffOptions][] = [
		[
			"tiff II strips IFD at start",
			{ order: "II", ifdAt: "start", layout: "strips", width: 30, height: 20, rowsPerStrip: 3 },
		],
		[
			"tiff MM strips IFD at end",
			{ order: "MM", ifdAt: "end", layout: "strips", width: 30, height: 20, rowsPerStrip: 3 },
		],
		[
			"tiff II SHORT dimensions, one strip",
			{ order: "II", ifdAt: "start", layout: "strips", width: 25, height: 9, dimensionType: SHORT, rowsPerStrip: 9 },
		],
		[
			"tiff MM SHORT dimensions, SHORT arrays, RGB",
			{
				order: "MM",
				ifdAt: "start",
				layout: "strips",
				width: 41,
				height: 23,
				dimensionType: SHORT,
				arrayType: SHORT,
				samplesPerPixel: 3,
				rowsPerStrip: 4,
			},
		],
		["tiff II tiles IFD at end", { order: "II", ifdAt: "end", layout: "tiles", width: 40, height: 33 }],
		["tiff MM tiles RGB", { order: "MM", ifdAt: "start", layout: "tiles", width: 64, height: 16, samplesPerPixel: 3 }],
		[
			"bigtiff II strips IFD at end",
			{ order: "II", bigTiff: true, ifdAt: "end", layout: "strips", width: 70, height: 50 },
		],
		[
			"bigtiff MM tiles LONG8 dimensions",
			{ order: "MM", bigTiff: true, ifdAt: "start", layout: "tiles", width: 48, height: 35, dimensionType: LONG8 },
		],
		[
			"bigtiff II SHORT dimensions, LONG arrays",
			{
				order: "II",
				bigTiff: true,
				ifdAt: "start",
				layout: "strips",
				width: 19,
				height: 300,
				dimensionType: SHORT,
				arrayType: LONG,
			},
		],
	];
	const tiffStartCut = buildTiff({ order: "II", ifdAt: "start", layout: "strips", width: 30, height: 20 });
	const tiffEndCut = buildTiff({ order: "MM", ifdAt: "end", layout: "strips", width: 30, height: 20 });

	return [
		valid("png 8-bit RGBA (upng-js)", rgba, "png", 40, 30),
		valid("png 8-bit RGB (upng-js)", rgb, "png", 33, 17),
		valid("png 16-bit RGBA", png16, "png", 21, 13),
		valid("png 8-bit RGBA interlaced", pngInterlaced, "png", 37, 29),
		valid("png 16-bit grayscale interlaced", pngGray16Interlaced, "png", 9, 11),
		valid("png 4-bit indexed", pngIndexed, "png", 15, 7),
		valid("png with junk after IEND", concat(rgba, ascii("trailing junk from a careless uploader")), "png", 40, 30),
		invalid("png truncated (IEND cut)", cut(rgba, rgba.length - 6), "png", "truncated"),
		invalid("png truncated inside IHDR", cut(rgba, 20), "png", "truncated"),
		invalid("png 100000 × 100000", patchIhdr(rgba, { width: 100_000, height: 100_000 }), "png", "too_many_pixels"),
		invalid("png 2000000 wide", patchIhdr(rgba, { width: 2_000_000, height: 10 }), "png", "dimensions_out_of_range"),
		invalid("png zero height", patchIhdr(rgba, { height: 0 }), "png", "dimensions_out_of_range"),
		invalid("png IHDR CRC wrong", patchedByte(rgba, 30, 0x5a), "png", "corrupt_header"),
		invalid(
			"png signature damaged by CRLF conversion",
			concat(rgba.subarray(0, 4), ascii("\r\r\n"), rgba.subarray(6)),
			"png",
			"corrupt_header",
		),

		valid("jpeg baseline (jpeg-js)", baseline, "jpeg", 64, 48),
		valid("jpeg with 200 KB EXIF/XMP APP1", exif, "jpeg", 64, 48),
		valid("jpeg with ICC over 60 APP2 segments", icc, "jpeg", 64, 48),
		valid("jpeg with APP1, APP2 and fill bytes", everything, "jpeg", 50, 70),
		valid("jpeg progressive (SOF2)", withFrameMarker(baseline, 0xc2), "jpeg", 64, 48),
		valid("jpeg extended (SOF1)", withFrameMarker(baseline, 0xc1), "jpeg", 64, 48),
		valid("jpeg lossless (SOF3)", withFrameMarker(baseline, 0xc3), "jpeg", 64, 48),
		valid("jpeg arithmetic progressive (SOF10)", withFrameMarker(baseline, 0xca), "jpeg", 64, 48),
		valid("jpeg grayscale", withComponents(baseline, 1), "jpeg", 64, 48),
		valid("jpeg CMYK with Adobe APP14", insertAfterApp0(withComponents(baseline, 4), adobeSegment(0)), "jpeg", 64, 48),
		valid("jpeg with padding after EOI", concat(baseline, new Uint8Array(300)), "jpeg", 64, 48),
		invalid("jpeg truncated (EOI cut)", cut(baseline, baseline.length - 40), "jpeg", "truncated"),
		invalid("jpeg truncated inside the EXIF segments", cut(exif, 100_000), "jpeg", "truncated"),
		invalid("jpeg truncated before the scan", cut(baseline, findSegment(baseline, 0xda).at), "jpeg", "truncated"),

		...tiffs.map(([name, options]) => valid(name, buildTiff(options), "tiff", options.width, options.height)),
		invalid("tiff truncated (strips cut)", cut(tiffStartCut, tiffStartCut.length - 100), "tiff", "truncated"),
		invalid("tiff truncated (IFD at end cut)", cut(tiffEndCut, tiffEndCut.length - 100), "tiff", "truncated"),

		invalid(
			"text file named .png",
			ascii("This is not an image, just a note someone named photo.png\n"),
			null,
			"unsupported_format",
		),
		invalid("empty file", new Uint8Array(0), null, "empty_file"),
	];
}

function patchedByte(bytes: Uint8Array, at: number, value: number): Uint8Array {
	const out = bytes.slice();
	out[at] = value;
	return out;
}
