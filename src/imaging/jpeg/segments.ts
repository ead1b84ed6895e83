/**
 * What a JPEG's segments hold, read from their bodies (the walker in markers.ts finds them): the frame
 * header, the quantisation and Huffman tables, a scan's header, the restart interval, Adobe's colour
 * transform and the EXIF orientation.
 */
import { ImageFault } from "../fault.ts";
import { type HuffmanTable, huffmanTable } from "./entropy.ts";

/** One component of the frame: its id, sampling factors and quantisation table. */
export type FrameComponent = { id: number; h: number; v: number; quantTable: number };

/** The frame header (SOFn). */
export type Frame = {
	/** The SOFn marker's code, which names the coding process. */
	code: number;
	progressive: boolean;
	/** Bits per sample. */
	precision: number;
	widthPx: number;
	heightPx: number;
	components: FrameComponent[];
	/** The largest sampling factors: an MCU is 8 × hMax by 8 × vMax pixels. */
	hMax: number;
	vMax: number;
};

/** A scan header (SOS): which components, with which tables, and the progressive parameters. */
export type Scan = {
	components: { index: number; dcTable: number; acTable: number }[];
	spectralStart: number;
	spectralEnd: number;
	approximationHigh: number;
	approximationLow: number;
};

/** The progressive frame markers, Huffman-coded or arithmetic, plain or differential. */
const PROGRESSIVE_FRAMES = new Set([0xc2, 0xc6, 0xca, 0xce]);

function corrupt(message: string): ImageFault {
	return new ImageFault("corrupt_header", message);
}

/**
 * Parses a frame header (any SOFn), checking it holds what it declares: room for its components,
 * and a height (one left to a DNL marker after the image data is not supported). The sampling factors
 * of a single component do not matter (its blocks are not interleaved) and read as 1.
 */
export function parseFrame(code: number, body: Uint8Array, markerAt: number): Frame {
	if (body.length < 6) throw corrupt(`The JPEG frame header at byte ${markerAt} is too short.`);
	const precision = body[0] ?? 0;
	const heightPx = ((body[1] ?? 0) << 8) | (body[2] ?? 0);
	const widthPx = ((body[3] ?? 0) << 8) | (body[4] ?? 0);
	const count = body[5] ?? 0;
	if (count === 0 || body.length < 6 + 3 * count) {
		throw corrupt(
			`The JPEG frame header at byte ${markerAt} declares ${count} components but has room for ${Math.floor((body.length - 6) / 3)}.`,
		);
	}
	if (heightPx === 0) {
		// Legal JPEG (the height comes in a DNL marker after the first scan) but unreadable from the header.
		throw new ImageFault(
			"dimensions_out_of_range",
			"The JPEG leaves its height to a DNL marker after the image data, which is not supported.",
		);
	}
	const components: FrameComponent[] = [];
	for (let index = 0; index < count; index++) {
		const at = 6 + 3 * index;
		const sampling = body[at + 1] ?? 0;
		components.push({
			id: body[at] ?? 0,
			h: count === 1 ? 1 : sampling >> 4,
			v: count === 1 ? 1 : sampling & 15,
			quantTable: body[at + 2] ?? 0,
		});
	}
	const hMax = Math.max(...components.map((component) => component.h));
	const vMax = Math.max(...components.map((component) => component.v));
	return { code, progressive: PROGRESSIVE_FRAMES.has(code), precision, widthPx, heightPx, components, hMax, vMax };
}

/**
 * JPEG's zig-zag order: the natural (row-major, 8 × 8) index of the coefficient coded at each position.
 */
export const ZIGZAG = Uint8Array.from([
	0, 1, 8, 16, 9, 2, 3, 10, 17, 24, 32, 25, 18, 11, 4, 5, 12, 19, 26, 33, 40, 48, 41, 34, 27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36, 29, 22, 15, 23, 30, 37, 44, 51, 58, 59, 52, 45, 38, 31, 39, 46, 53, 60, 61, 54, 47,
	55, 62, 63,
]);

/**
 * Reads DQT: each table's first entry (the DC step) into `dcSteps` and, when `steps` is given, all 64
 * steps in natural order into `steps[id]` (the scaled decoder dequantises AC coefficients too).
 */
export function parseQuantTables(body: Uint8Array, dcSteps: Int32Array, steps?: Int32Array[]): void {
	let at = 0;
	while (at < body.length) {
		const head = body[at] ?? 0;
		const wide = head >> 4;
		const id = head & 15;
		const size = wide === 0 ? 64 : 128;
		if (wide > 1 || id > 3 || at + 1 + size > body.length)
			throw corrupt("The JPEG has a malformed quantisation table.");
		const table = steps?.[id];
		for (let k = 0; k < 64; k++) {
			const step =
				wide === 0 ? (body[at + 1 + k] ?? 0) : ((body[at + 1 + 2 * k] ?? 0) << 8) | (body[at + 2 + 2 * k] ?? 0);
			if (k === 0) dcSteps[id] = step;
			if (table !== undefined) table[ZIGZAG[k] ?? 0] = step;
			else break;
		}
		at += 1 + size;
	}
}

/** Reads DHT into the DC and AC table slots. */
export function parseHuffmanTables(
	body: Uint8Array,
	dc: (HuffmanTable | undefined)[],
	ac: (HuffmanTable | undefined)[],
) {
	let at = 0;
	while (at < body.length) {
		const head = body[at] ?? 0;
		const tableClass = head >> 4;
		const id = head & 15;
		if (tableClass > 1 || id > 3 || at + 17 > body.length) throw corrupt("The JPEG has a malformed Huffman table.");
		const counts = body.subarray(at + 1, at + 17);
		const total = counts.reduce((sum, count) => sum + count, 0);
		if (total > 256 || at + 17 + total > body.length) throw corrupt("The JPEG has a malformed Huffman table.");
		const table = huffmanTable(counts, body.subarray(at + 17, at + 17 + total).slice());
		if (tableClass === 0) dc[id] = table;
		else ac[id] = table;
		at += 17 + total;
	}
}

/** Reads SOS, matching its components to the frame's. */
export function parseScan(body: Uint8Array, frame: Frame): Scan {
	const count = body[0] ?? 0;
	if (count < 1 || count > 4 || body.length < 4 + 2 * count) throw corrupt("The JPEG has a malformed scan header.");
	const components: Scan["components"] = [];
	for (let n = 0; n < count; n++) {
		const id = body[1 + 2 * n] ?? 0;
		const tables = body[2 + 2 * n] ?? 0;
		const index = frame.components.findIndex((component) => component.id === id);
		if (index < 0 || components.some((component) => component.index === index)) {
			throw corrupt("The JPEG has a scan naming a component that is not in its frame.");
		}
		components.push({ index, dcTable: tables >> 4, acTable: tables & 15 });
	}
	const at = 1 + 2 * count;
	const approximation = body[at + 2] ?? 0;
	return {
		components,
		spectralStart: body[at] ?? 0,
		spectralEnd: body[at + 1] ?? 0,
		approximationHigh: approximation >> 4,
		approximationLow: approximation & 15,
	};
}

/** Reads DRI: MCUs between restart markers (0: none). */
export function parseRestartInterval(body: Uint8Array): number {
	if (body.length < 2) throw corrupt("The JPEG has a malformed restart interval.");
	return ((body[0] ?? 0) << 8) | (body[1] ?? 0);
}

/** Adobe's APP14 colour transform (0: none, 1: YCbCr, 2: YCCK), or undefined when the segment is not Adobe's. */
export function adobeTransform(body: Uint8Array): number | undefined {
	if (body.length < 12) return undefined;
	if (String.fromCharCode(...body.subarray(0, 5)) !== "Adobe") return undefined;
	return body[11];
}

const ORIENTATION_TAG = 0x0112;
const SHORT = 3;

/**
 * The EXIF orientation in an APP1 segment (1 to 8), or undefined when the segment is not EXIF or has
 * no usable orientation. Every offset is checked against the segment, so a lying IFD reads as none.
 */
export function exifOrientation(body: Uint8Array): number | undefined {
	if (body.length < 14 || String.fromCharCode(...body.subarray(0, 6)) !== "Exif\0\0") return undefined;
	const tiff = body.subarray(6);
	const order = String.fromCharCode(tiff[0] ?? 0, tiff[1] ?? 0);
	if (order !== "II" && order !== "MM") return undefined;
	const view = new DataView(tiff.buffer, tiff.byteOffset, tiff.byteLength);
	const little = order === "II";
	if (view.getUint16(2, little) !== 42) return undefined;
	const ifd = view.getUint32(4, little);
	if (ifd < 8 || ifd + 2 > tiff.length) return undefined;
	const entries = view.getUint16(ifd, little);
	for (let n = 0; n < entries; n++) {
		const at = ifd + 2 + 12 * n;
		if (at + 12 > tiff.length) return undefined;
		if (view.getUint16(at, little) !== ORIENTATION_TAG) continue;
		if (view.getUint16(at + 2, little) !== SHORT || view.getUint32(at + 4, little) < 1) return undefined;
		const value = view.getUint16(at + 8, little);
		return value >= 1 && value <= 8 ? value : undefined;
	}
	return undefined;
}
