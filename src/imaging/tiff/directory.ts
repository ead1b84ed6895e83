/**
 * A TIFF's directory, for the probe and the decoder alike: the header (byte order, classic or BigTIFF),
 * the first image file directory's entries, the image's size, where its strips or tiles are, and any
 * entry's values, read from the entry itself or from where it points. Every number is checked against
 * the bytes there are.
 */
import { ImageFault } from "../fault.ts";
import type { ByteReader } from "../reader.ts";

/** The tags read. */
export const TAG = {
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

/** The names of the tags a message may name. */
const TAG_NAMES: ReadonlyMap<number, string> = new Map([
	[TAG.width, "ImageWidth"],
	[TAG.height, "ImageLength"],
	[TAG.bitsPerSample, "BitsPerSample"],
	[TAG.stripOffsets, "StripOffsets"],
	[TAG.stripByteCounts, "StripByteCounts"],
	[TAG.tileOffsets, "TileOffsets"],
	[TAG.tileByteCounts, "TileByteCounts"],
]);

const SHORT = 3;
const LONG = 4;
const LONG8 = 16;

/** Bytes per value of the whole-number field types: BYTE, SHORT, LONG, IFD, LONG8, IFD8. */
const INTEGER_SIZES: ReadonlyMap<number, number> = new Map([
	[1, 1],
	[SHORT, 2],
	[LONG, 4],
	[13, 4],
	[LONG8, 8],
	[18, 8],
]);

/**
 * Most entries a directory may claim. Real first directories hold a few dozen; like libtiff, more than
 * 4,096 is taken for a corrupt count (or an offset that points at something else), not a big image.
 */
export const MAX_DIRECTORY_ENTRIES = 4096;

/** Classic TIFF (42) or BigTIFF (43), in either byte order. */
export type Layout = {
	littleEndian: boolean;
	bigTiff: boolean;
	/** Bytes of an offset or count: 4, or 8 in BigTIFF. */
	wordSize: number;
	entrySize: number;
};

/** One directory entry: its tag, field type, count of values, and its value field (the values, or their offset). */
export type Entry = { tag: number; type: number; count: number; field: Uint8Array };

/** The first directory: how the file's numbers are written, and its entries by tag. */
export type Directory = { layout: Layout; entries: Map<number, Entry> };

/** Reads the header and the first image file directory (wherever it is) and its entries. */
export async function readFirstDirectory(reader: ByteReader): Promise<Directory> {
	const head = await reader.read(0, 8);
	if (head.length < 8) throw new ImageFault("truncated", "The TIFF ends inside its header: the file is truncated.");
	const layout = layoutOf(head);
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	let ifdAt = view.getUint32(4, layout.littleEndian);
	if (layout.bigTiff) {
		// A BigTIFF's first directory offset is 64-bit and follows the classic header's 8 bytes.
		const offset = await reader.read(8, 8);
		if (offset.length < 8)
			throw new ImageFault("truncated", "The BigTIFF ends inside its header: the file is truncated.");
		ifdAt = readUint64(new DataView(offset.buffer, offset.byteOffset, 8), 0, layout.littleEndian);
	}
	const headerSize = layout.bigTiff ? 16 : 8;
	if (ifdAt === 0) throw new ImageFault("corrupt_header", "The TIFF header points to no image directory (IFD).");
	if (ifdAt < headerSize) {
		throw new ImageFault("corrupt_header", `The TIFF's first IFD offset (${ifdAt}) points inside its header.`);
	}
	if (ifdAt >= reader.size) {
		throw new ImageFault(
			"truncated",
			`The TIFF's first IFD is at byte ${ifdAt}, beyond the end of the ${reader.size}-byte file: the file is truncated.`,
		);
	}
	return { layout, entries: await readEntries(reader, layout, ifdAt) };
}

/** The byte order and version from the header's first 8 bytes. */
function layoutOf(head: Uint8Array): Layout {
	const order = String.fromCharCode(head[0] ?? 0, head[1] ?? 0);
	if (order !== "II" && order !== "MM") {
		throw new ImageFault("corrupt_header", "The TIFF header names no byte order (II or MM).");
	}
	const littleEndian = order === "II";
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	const version = view.getUint16(2, littleEndian);
	if (version === 42) return { littleEndian, bigTiff: false, wordSize: 4, entrySize: 12 };
	if (version !== 43) throw new ImageFault("corrupt_header", `The TIFF header has an unknown version (${version}).`);
	if (view.getUint16(4, littleEndian) !== 8 || view.getUint16(6, littleEndian) !== 0) {
		throw new ImageFault("corrupt_header", "The BigTIFF header declares an offset size other than 8 bytes.");
	}
	return { littleEndian, bigTiff: true, wordSize: 8, entrySize: 20 };
}

/** The entries of the directory at `at`, by tag (the first of any duplicate wins). */
async function readEntries(reader: ByteReader, layout: Layout, at: number): Promise<Map<number, Entry>> {
	const countSize = layout.bigTiff ? 8 : 2;
	const countBytes = await reader.read(at, countSize);
	if (countBytes.length < countSize) throw directoryPastEnd(at);
	const countView = new DataView(countBytes.buffer, countBytes.byteOffset, countBytes.byteLength);
	const count = layout.bigTiff
		? readUint64(countView, 0, layout.littleEndian)
		: countView.getUint16(0, layout.littleEndian);
	if (count === 0 || count > MAX_DIRECTORY_ENTRIES) {
		throw new ImageFault("corrupt_header", `The TIFF's first IFD claims ${count} entries.`);
	}
	const length = count * layout.entrySize;
	// The entries and the next-IFD offset after them: a file cut inside either is truncated.
	if (at + countSize + length + layout.wordSize > reader.size) throw directoryPastEnd(at);
	const bytes = await reader.read(at + countSize, length);
	if (bytes.length < length) throw directoryPastEnd(at);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const entries = new Map<number, Entry>();
	const le = layout.littleEndian;
	for (let index = 0; index < count; index++) {
		const start = index * layout.entrySize;
		const tag = view.getUint16(start, le);
		if (entries.has(tag)) continue;
		const fieldStart = start + (layout.bigTiff ? 12 : 8);
		entries.set(tag, {
			tag,
			type: view.getUint16(start + 2, le),
			count: layout.bigTiff ? readUint64(view, start + 4, le) : view.getUint32(start + 4, le),
			field: bytes.subarray(fieldStart, fieldStart + layout.wordSize),
		});
	}
	return entries;
}

function directoryPastEnd(at: number): ImageFault {
	return new ImageFault(
		"truncated",
		`The TIFF's first IFD (at byte ${at}) runs past the end of the file: the file is truncated.`,
	);
}

/** ImageWidth and ImageLength: each one SHORT or LONG (or LONG8 in BigTIFF), always inline. */
export function imageSize(directory: Directory): { widthPx: number; heightPx: number } {
	return {
		widthPx: dimension(directory, TAG.width),
		heightPx: dimension(directory, TAG.height),
	};
}

function dimension({ layout, entries }: Directory, tag: number): number {
	const name = nameOf(tag);
	const entry = entries.get(tag);
	if (entry === undefined) throw new ImageFault("corrupt_header", `The TIFF's first IFD has no ${name}.`);
	if (entry.count !== 1 || !isOffsetType(entry.type, layout)) {
		throw new ImageFault("corrupt_header", `The TIFF's ${name} is not a single whole number.`);
	}
	return decodeIntegers(entry.field, entry.type, 1, layout.littleEndian)[0] ?? 0;
}

/** The types an offset, a count or a size may have: SHORT or LONG, or LONG8 in BigTIFF. */
function isOffsetType(type: number, layout: Layout): boolean {
	return type === SHORT || type === LONG || (layout.bigTiff && type === LONG8);
}

/** Where the image's pieces are: its strips' or tiles' offsets and byte counts, and what a piece is called. */
export type PieceArrays = { tiled: boolean; unit: "strip" | "tile"; offsets: Entry; counts: Entry };

/** The strips' (or, in a tiled image, the tiles') offsets and byte counts entries, checked to be there and whole numbers. */
export function pieceArrays({ layout, entries }: Directory): PieceArrays {
	const tiled = entries.has(TAG.tileOffsets);
	const offsetsTag = tiled ? TAG.tileOffsets : TAG.stripOffsets;
	const countsTag = tiled ? TAG.tileByteCounts : TAG.stripByteCounts;
	const offsets = entries.get(offsetsTag);
	const counts = entries.get(countsTag);
	if (offsets === undefined) {
		throw new ImageFault("corrupt_header", "The TIFF's first IFD has neither StripOffsets nor TileOffsets.");
	}
	if (counts === undefined) {
		throw new ImageFault(
			"corrupt_header",
			`The TIFF's first IFD has ${nameOf(offsetsTag)} but no ${nameOf(countsTag)}.`,
		);
	}
	for (const entry of [offsets, counts]) {
		if (!isOffsetType(entry.type, layout)) {
			throw new ImageFault(
				"corrupt_header",
				`The TIFF's ${nameOf(entry.tag)} has field type ${entry.type}, not an integer type.`,
			);
		}
	}
	return { tiled, unit: tiled ? "tile" : "strip", offsets, counts };
}

/** Refuses piece `index` (of `total`) when its bytes run past the file's end; an empty piece (a sparse file's gap) is fine. */
export function checkPieceInFile(
	arrays: PieceArrays,
	index: number,
	offset: number,
	count: number,
	fileSize: number,
): void {
	if (count > 0 && offset + count > fileSize) {
		throw new ImageFault(
			"truncated",
			`The TIFF's ${arrays.unit} ${index + 1} of ${arrays.offsets.count} (bytes ${offset} to ${offset + count}) runs past the end of the ${fileSize}-byte file: the file is truncated.`,
		);
	}
}

/** Up to `length` whole-number values of `entry` from index `from`, read from the entry itself or from where it points. */
export async function valuesOf(
	reader: ByteReader,
	layout: Layout,
	entry: Entry,
	from: number,
	length: number,
): Promise<number[]> {
	const name = nameOf(entry.tag);
	const size = INTEGER_SIZES.get(entry.type);
	if (size === undefined) {
		throw new ImageFault("corrupt_header", `The TIFF's ${name} has field type ${entry.type}, not an integer type.`);
	}
	const taken = Math.max(0, Math.min(length, entry.count - from));
	if (entry.count * size <= layout.wordSize) {
		return decodeIntegers(entry.field.subarray(from * size), entry.type, taken, layout.littleEndian);
	}
	const fieldView = new DataView(entry.field.buffer, entry.field.byteOffset, entry.field.byteLength);
	const at = layout.bigTiff
		? readUint64(fieldView, 0, layout.littleEndian)
		: fieldView.getUint32(0, layout.littleEndian);
	if (at + entry.count * size > reader.size) {
		throw new ImageFault(
			"truncated",
			`The TIFF's ${name} array (${entry.count} values at byte ${at}) runs past the end of the ${reader.size}-byte file.`,
		);
	}
	const bytes = await reader.read(at + from * size, taken * size);
	if (bytes.length < taken * size) throw new ImageFault("truncated", `The TIFF ends inside its ${name} array.`);
	return decodeIntegers(bytes, entry.type, taken, layout.littleEndian);
}

function nameOf(tag: number): string {
	return TAG_NAMES.get(tag) ?? `tag ${tag}`;
}

function decodeIntegers(bytes: Uint8Array, type: number, count: number, littleEndian: boolean): number[] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const size = INTEGER_SIZES.get(type) ?? 1;
	const values: number[] = [];
	for (let index = 0; index < count && (index + 1) * size <= bytes.length; index++) {
		const at = index * size;
		if (size === 1) values.push(view.getUint8(at));
		else if (size === 2) values.push(view.getUint16(at, littleEndian));
		else if (size === 4) values.push(view.getUint32(at, littleEndian));
		else values.push(readUint64(view, at, littleEndian));
	}
	return values;
}

/** A 64-bit unsigned value as a number; beyond 2^53 it loses precision but is still far past any real file's end. */
function readUint64(view: DataView, at: number, littleEndian: boolean): number {
	const first = view.getUint32(at, littleEndian);
	const second = view.getUint32(at + 4, littleEndian);
	const [high, low] = littleEndian ? [second, first] : [first, second];
	return high * 2 ** 32 + low;
}
