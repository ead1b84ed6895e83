/**
 * A TIFF's directory: the header (byte order, classic or BigTIFF), the first image file directory's
 * entries, and their values, read from the entry itself or from where it points, a window at a time.
 * Every number is read checked against the bytes there are.
 */
import type { ByteSource } from "../print-files/byte-source.ts";
import { UndecodableImage } from "./raster.ts";
import { readAt } from "./sequential-reader.ts";

/** The tags the decoder reads. */
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

/** Bytes per value of the field types a baseline reader meets (BYTE, SHORT, LONG, LONG8, IFD, IFD8). */
const TYPE_SIZES: Record<number, number> = { 1: 1, 3: 2, 4: 4, 13: 4, 16: 8, 18: 8 };

/** Most directory entries read; real files have a few dozen. */
const MAX_ENTRIES = 4096;

/** One directory entry: its field type, its count of values, and its value or offset field. */
export type Entry = { type: number; count: number; field: Uint8Array };

/** How to read the file's numbers: byte order and classic or BigTIFF. */
export type Layout = { littleEndian: boolean; big: boolean };

/** The header's byte order and version: classic TIFF (42) or BigTIFF (43). */
export function layoutOf(head: Uint8Array): Layout {
	if (head.length < 8) throw new UndecodableImage("truncated", "The file ends inside the TIFF header.");
	const order = String.fromCharCode(head[0] ?? 0, head[1] ?? 0);
	if (order !== "II" && order !== "MM") throw new UndecodableImage("corrupt", "The file is not a TIFF.");
	const littleEndian = order === "II";
	const version = u16(head, 2, littleEndian);
	if (version === 42) return { littleEndian, big: false };
	if (version === 43 && u16(head, 4, littleEndian) === 8) return { littleEndian, big: true };
	throw new UndecodableImage("corrupt", `The TIFF's version ${version} is neither classic (42) nor BigTIFF (43).`);
}

/** The entries of the directory at `offset`, by tag; a repeated tag keeps its first entry. */
export async function readDirectory(source: ByteSource, layout: Layout, offset: number): Promise<Map<number, Entry>> {
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
export async function valuesOf(
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

function u16(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 2 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint16(at, littleEndian);
}

/** A 32-bit unsigned number at `at`, in the file's byte order. */
export function u32(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 4 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(at, littleEndian);
}

/** A 64-bit unsigned number at `at`, in the file's byte order; one beyond any file is `corrupt`. */
export function u64(bytes: Uint8Array, at: number, littleEndian: boolean): number {
	if (at + 8 > bytes.length) throw new UndecodableImage("truncated", "The TIFF ends inside its header or directory.");
	const value = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getBigUint64(at, littleEndian);
	if (value > BigInt(Number.MAX_SAFE_INTEGER))
		throw new UndecodableImage("corrupt", "A TIFF offset is beyond any file.");
	return Number(value);
}
