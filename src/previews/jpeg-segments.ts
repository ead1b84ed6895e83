import { MAX_PIXELS, MAX_SIDE_PX } from "../print-files/inspect.ts";
import { type HuffmanTable, huffmanTable } from "./jpeg-entropy.ts";
import { UndecodableImage } from "./raster.ts";

/** One component of the frame: its id, sampling factors and quantisation table. */
export type FrameComponent = { id: number; h: number; v: number; quantTable: number };

/** The frame header (SOFn) as the DC decoder needs it. */
export type Frame = {
	progressive: boolean;
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

const SUPPORTED_FRAMES: ReadonlyMap<number, boolean> = new Map([
	[0xc0, false],
	[0xc1, false],
	[0xc2, true],
]);

/** The frame markers this decoder does not read: lossless, hierarchical and arithmetic-coded JPEG. */
export function isUnsupportedFrame(code: number): boolean {
	return code >= 0xc3 && code <= 0xcf && code !== 0xc4 && code !== 0xc8 && code !== 0xcc;
}

function corrupt(message: string): UndecodableImage {
	return new UndecodableImage("corrupt", message);
}

/** Parses SOF0, SOF1 or SOF2, checking the size against the inspector's limits before anything is allocated. */
export function parseFrame(code: number, body: Uint8Array): Frame {
	const progressive = SUPPORTED_FRAMES.get(code);
	if (progressive === undefined) throw new UndecodableImage("unsupported_variant", "The JPEG's coding is not read.");
	if (body.length < 6) throw corrupt("The JPEG's frame header is too short.");
	const precision = body[0] ?? 0;
	if (precision !== 8) {
		throw new UndecodableImage("unsupported_variant", `The JPEG has ${precision}-bit samples; only 8-bit is read.`);
	}
	const heightPx = ((body[1] ?? 0) << 8) | (body[2] ?? 0);
	const widthPx = ((body[3] ?? 0) << 8) | (body[4] ?? 0);
	const count = body[5] ?? 0;
	if (heightPx === 0) {
		throw new UndecodableImage("unsupported_variant", "The JPEG leaves its height to a DNL marker, which is not read.");
	}
	if (widthPx === 0) throw corrupt("The JPEG's frame header gives a width of 0.");
	if (widthPx > MAX_SIDE_PX || heightPx > MAX_SIDE_PX || widthPx * heightPx > MAX_PIXELS) {
		throw new UndecodableImage("too_large", `The JPEG is ${widthPx} × ${heightPx} pixels, beyond the accepted size.`);
	}
	if (count !== 1 && count !== 3 && count !== 4) {
		throw new UndecodableImage("unsupported_variant", `The JPEG has ${count} components; 1, 3 or 4 are read.`);
	}
	if (body.length < 6 + 3 * count) throw corrupt("The JPEG's frame header is shorter than its components.");
	const components: FrameComponent[] = [];
	for (let index = 0; index < count; index++) {
		const at = 6 + 3 * index;
		const sampling = body[at + 1] ?? 0;
		const h = count === 1 ? 1 : sampling >> 4;
		const v = count === 1 ? 1 : sampling & 15;
		const quantTable = body[at + 2] ?? 0;
		if (h < 1 || h > 4 || v < 1 || v > 4)
			throw corrupt("The JPEG has a component with sampling factors outside 1 to 4.");
		if (quantTable > 3) throw corrupt("The JPEG has a component naming a quantisation table beyond 3.");
		components.push({ id: body[at] ?? 0, h, v, quantTable });
	}
	const hMax = Math.max(...components.map((component) => component.h));
	const vMax = Math.max(...components.map((component) => component.v));
	if (components.some((component) => hMax % component.h !== 0 || vMax % component.v !== 0)) {
		throw new UndecodableImage("unsupported_variant", "The JPEG's sampling factors do not divide each other.");
	}
	return { progressive, widthPx, heightPx, components, hMax, vMax };
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
