import { type BlockReader, InspectionFault, settle } from "./byte-source.ts";
import type { Inspection } from "./image-types.ts";

const TAG = {
	imageWidth: 256,
	imageLength: 257,
	stripOffsets: 273,
	stripByteCounts: 279,
	tileOffsets: 324,
	tileByteCounts: 325,
} as const;

const SHORT = 3;
const LONG = 4;
const LONG8 = 16;

/** Byte size of each TIFF field type, to know whether a value fits inline in its entry. */
const TYPE_SIZES: ReadonlyMap<number, number> = new Map([
	[1, 1],
	[2, 1],
	[3, 2],
	[4, 4],
	[5, 8],
	[6, 1],
	[7, 1],
	[8, 2],
	[9, 4],
	[10, 8],
	[11, 4],
	[12, 8],
	[13, 4],
	[16, 8],
	[17, 8],
	[18, 8],
]);

/** Real first IFDs hold a few dozen entries; more than this is a corrupt count, not a big image. */
const MAX_ENTRIES = 65_535;

/** Classic TIFF (42) or BigTIFF (43), in either byte order. */
type Layout = {
	littleEndian: boolean;
	bigTiff: boolean;
	/** Bytes of an offset or count: 4, or 8 in BigTIFF. */
	wordSize: number;
	entrySize: number;
};

/** One IFD entry; `value` is its inline value field, or the offset of its values when they do not fit. */
type Entry = { type: number; count: number; value: Uint8Array };

/**
 * Width and height from the first IFD (wherever it is), and a check that every strip or tile lies
 * inside the file. Reads the 16-byte header, the IFD and the offset/byte-count arrays, nothing else.
 */
export function inspectTiff(reader: BlockReader): Promise<Inspection> {
	return settle("tiff", () => readTiffHeader(reader));
}

async function readTiffHeader(reader: BlockReader): Promise<Inspection> {
	const head = await reader.read(0, 16);
	if (head.length < 8)
		throw new InspectionFault("truncated", "The TIFF ends inside its header: the file is truncated.");
	const layout = readLayout(head);
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	const ifdAt = layout.bigTiff ? readUint64(view, 8, layout.littleEndian) : view.getUint32(4, layout.littleEndian);
	const headerSize = layout.bigTiff ? 16 : 8;
	if (ifdAt === 0) throw new InspectionFault("corrupt_header", "The TIFF header points to no image directory (IFD).");
	if (ifdAt < headerSize) {
		throw new InspectionFault("corrupt_header", `The TIFF's first IFD offset (${ifdAt}) points inside its header.`);
	}
	if (ifdAt >= reader.size) {
		throw new InspectionFault(
			"truncated",
			`The TIFF's first IFD is at byte ${ifdAt}, beyond the end of the ${reader.size}-byte file: the file is truncated.`,
		);
	}
	const entries = await readIfd(reader, layout, ifdAt);
	const widthPx = dimension(entries, TAG.imageWidth, "ImageWidth", layout);
	const heightPx = dimension(entries, TAG.imageLength, "ImageLength", layout);
	const tiled = entries.has(TAG.tileOffsets);
	const unit = tiled ? "tile" : "strip";
	const offsetsEntry = entries.get(tiled ? TAG.tileOffsets : TAG.stripOffsets);
	const countsEntry = entries.get(tiled ? TAG.tileByteCounts : TAG.stripByteCounts);
	const offsetsName = tiled ? "TileOffsets" : "StripOffsets";
	const countsName = tiled ? "TileByteCounts" : "StripByteCounts";
	if (offsetsEntry === undefined) {
		throw new InspectionFault("corrupt_header", "The TIFF's first IFD has neither StripOffsets nor TileOffsets.");
	}
	if (countsEntry === undefined) {
		throw new InspectionFault("corrupt_header", `The TIFF's first IFD has ${offsetsName} but no ${countsName}.`);
	}
	const offsets = await readNumbers(reader, layout, offsetsEntry, offsetsName);
	const counts = await readNumbers(reader, layout, countsEntry, countsName);
	if (offsets.length === 0 || offsets.length !== counts.length) {
		throw new InspectionFault(
			"corrupt_header",
			`The TIFF has ${offsets.length} ${offsetsName} but ${counts.length} ${countsName}.`,
		);
	}
	for (const [index, offset] of offsets.entries()) {
		const count = counts[index] ?? 0;
		// An empty strip or tile (offset and count 0) is how sparse files mark a missing one.
		if (count > 0 && offset + count > reader.size) {
			throw new InspectionFault(
				"truncated",
				`The TIFF's ${unit} ${index + 1} of ${offsets.length} (bytes ${offset} to ${offset + count}) runs past the end of the ${reader.size}-byte file: the file is truncated.`,
			);
		}
	}
	const order = layout.littleEndian ? "little-endian" : "big-endian";
	const plural = offsets.length === 1 ? "" : "s";
	const detail = `TIFF ${order}${layout.bigTiff ? " BigTIFF" : ""}, ${tiled ? "tiled" : "stripped"} (${offsets.length} ${unit}${plural})`;
	return { ok: true, format: "tiff", widthPx, heightPx, detail };
}

function readLayout(head: Uint8Array): Layout {
	const order = String.fromCharCode(head[0] ?? 0, head[1] ?? 0);
	if (order !== "II" && order !== "MM") {
		throw new InspectionFault("corrupt_header", "The TIFF header names no byte order (II or MM).");
	}
	const littleEndian = order === "II";
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	const version = view.getUint16(2, littleEndian);
	if (version === 42) return { littleEndian, bigTiff: false, wordSize: 4, entrySize: 12 };
	if (version !== 43)
		throw new InspectionFault("corrupt_header", `The TIFF header has an unknown version (${version}).`);
	if (head.length < 16)
		throw new InspectionFault("truncated", "The BigTIFF ends inside its header: the file is truncated.");
	if (view.getUint16(4, littleEndian) !== 8 || view.getUint16(6, littleEndian) !== 0) {
		throw new InspectionFault("corrupt_header", "The BigTIFF header declares an offset size other than 8 bytes.");
	}
	return { littleEndian, bigTiff: true, wordSize: 8, entrySize: 20 };
}

/** The entries of the IFD at `at`, by tag (the first of any duplicate wins). */
async function readIfd(reader: BlockReader, layout: Layout, at: number): Promise<Map<number, Entry>> {
	const countSize = layout.bigTiff ? 8 : 2;
	const countBytes = await reader.read(at, countSize);
	if (countBytes.length < countSize) throw ifdPastEnd(at);
	const countView = new DataView(countBytes.buffer, countBytes.byteOffset, countBytes.byteLength);
	const count = layout.bigTiff
		? readUint64(countView, 0, layout.littleEndian)
		: countView.getUint16(0, layout.littleEndian);
	if (count === 0 || count > MAX_ENTRIES) {
		throw new InspectionFault("corrupt_header", `The TIFF's first IFD claims ${count} entries.`);
	}
	const length = count * layout.entrySize;
	// The entries and the next-IFD offset after them: a file cut inside either is truncated.
	if (at + countSize + length + layout.wordSize > reader.size) throw ifdPastEnd(at);
	const bytes = await reader.read(at + countSize, length);
	if (bytes.length < length) throw ifdPastEnd(at);
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const entries = new Map<number, Entry>();
	const le = layout.littleEndian;
	for (let index = 0; index < count; index++) {
		const start = index * layout.entrySize;
		const tag = view.getUint16(start, le);
		if (entries.has(tag)) continue;
		const valueStart = start + (layout.bigTiff ? 12 : 8);
		entries.set(tag, {
			type: view.getUint16(start + 2, le),
			count: layout.bigTiff ? readUint64(view, start + 4, le) : view.getUint32(start + 4, le),
			value: bytes.subarray(valueStart, valueStart + layout.wordSize),
		});
	}
	return entries;
}

function ifdPastEnd(at: number): InspectionFault {
	return new InspectionFault(
		"truncated",
		`The TIFF's first IFD (at byte ${at}) runs past the end of the file: the file is truncated.`,
	);
}

/** ImageWidth or ImageLength: one SHORT or LONG (or LONG8 in BigTIFF), always inline. */
function dimension(entries: Map<number, Entry>, tag: number, name: string, layout: Layout): number {
	const entry = entries.get(tag);
	if (entry === undefined) throw new InspectionFault("corrupt_header", `The TIFF's first IFD has no ${name}.`);
	if (entry.count !== 1 || !isIntegerType(entry.type, layout)) {
		throw new InspectionFault("corrupt_header", `The TIFF's ${name} is not a single whole number.`);
	}
	return readInline(entry, layout)[0] ?? 0;
}

function isIntegerType(type: number, layout: Layout): boolean {
	return type === SHORT || type === LONG || (layout.bigTiff && type === LONG8);
}

/** All values of an offsets or byte-counts entry, inline or from its out-of-line array. */
async function readNumbers(reader: BlockReader, layout: Layout, entry: Entry, name: string): Promise<number[]> {
	if (!isIntegerType(entry.type, layout)) {
		throw new InspectionFault(
			"corrupt_header",
			`The TIFF's ${name} has field type ${entry.type}, not an integer type.`,
		);
	}
	const typeSize = TYPE_SIZES.get(entry.type) ?? 0;
	const length = entry.count * typeSize;
	if (length <= layout.wordSize) return readInline(entry, layout);
	const valueView = new DataView(entry.value.buffer, entry.value.byteOffset, entry.value.byteLength);
	const at = layout.bigTiff
		? readUint64(valueView, 0, layout.littleEndian)
		: valueView.getUint32(0, layout.littleEndian);
	if (at + length > reader.size) {
		throw new InspectionFault(
			"truncated",
			`The TIFF's ${name} array (${entry.count} values at byte ${at}) runs past the end of the ${reader.size}-byte file.`,
		);
	}
	const bytes = await reader.read(at, length);
	if (bytes.length < length) throw new InspectionFault("truncated", `The TIFF ends inside its ${name} array.`);
	return decodeIntegers(bytes, entry.type, entry.count, layout.littleEndian);
}

function readInline(entry: Entry, layout: Layout): number[] {
	return decodeIntegers(entry.value, entry.type, Math.min(entry.count, layout.wordSize), layout.littleEndian);
}

function decodeIntegers(bytes: Uint8Array, type: number, count: number, littleEndian: boolean): number[] {
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const size = TYPE_SIZES.get(type) ?? 1;
	const values: number[] = [];
	for (let index = 0; index < count && (index + 1) * size <= bytes.length; index++) {
		const at = index * size;
		if (type === SHORT) values.push(view.getUint16(at, littleEndian));
		else if (type === LONG) values.push(view.getUint32(at, littleEndian));
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
