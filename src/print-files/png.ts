import { type BlockReader, InspectionFault, settle } from "./byte-source.ts";
import type { Inspection } from "./image-types.ts";

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** A complete IEND chunk: empty, so its bytes (length, type, CRC) never vary. */
const IEND_CHUNK = Uint8Array.of(0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82);

/** Signature + IHDR length, type, 13 data bytes and CRC. */
const HEADER_BYTES = 33;

/** How far from the end to look for IEND, tolerating a little junk some tools append. */
const TAIL_WINDOW = 1024;

/** Bit depths each PNG colour type allows, with its name. */
const COLOR_TYPES: ReadonlyMap<number, { name: string; depths: readonly number[] }> = new Map([
	[0, { name: "grayscale", depths: [1, 2, 4, 8, 16] }],
	[2, { name: "RGB", depths: [8, 16] }],
	[3, { name: "indexed", depths: [1, 2, 4, 8] }],
	[4, { name: "grayscale + alpha", depths: [8, 16] }],
	[6, { name: "RGBA", depths: [8, 16] }],
]);

const CRC_TABLE = (() => {
	const table = new Uint32Array(256);
	for (let n = 0; n < 256; n++) {
		let c = n;
		for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
		table[n] = c >>> 0;
	}
	return table;
})();

/** The CRC-32 PNG stores after each chunk (over its type and data). */
export function crc32(bytes: Uint8Array): number {
	let crc = 0xffffffff;
	for (const byte of bytes) crc = (CRC_TABLE[(crc ^ byte) & 0xff] ?? 0) ^ (crc >>> 8);
	return (crc ^ 0xffffffff) >>> 0;
}

/** Width, height, bit depth and colour type from the IHDR chunk; truncated when the file does not end with IEND. */
export function inspectPng(reader: BlockReader): Promise<Inspection> {
	return settle("png", () => readPngHeader(reader));
}

async function readPngHeader(reader: BlockReader): Promise<Inspection> {
	const head = await reader.read(0, HEADER_BYTES);
	if (!startsWith(head, PNG_SIGNATURE)) {
		if (head.length < PNG_SIGNATURE.length) {
			throw new InspectionFault("truncated", "The PNG ends inside its signature: the file is truncated.");
		}
		throw new InspectionFault(
			"corrupt_header",
			"The PNG signature is damaged (often by a transfer that rewrote line endings).",
		);
	}
	if (head.length < HEADER_BYTES) {
		throw new InspectionFault("truncated", "The PNG ends inside its IHDR chunk: the file is truncated.");
	}
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	const chunkLength = view.getUint32(8);
	const chunkType = String.fromCharCode(...head.subarray(12, 16));
	if (chunkType !== "IHDR" || chunkLength !== 13) {
		throw new InspectionFault("corrupt_header", "The PNG does not start with a 13-byte IHDR chunk.");
	}
	if (crc32(head.subarray(12, 29)) !== view.getUint32(29)) {
		throw new InspectionFault("corrupt_header", "The PNG's IHDR chunk fails its checksum: the header is corrupt.");
	}
	const widthPx = view.getUint32(16);
	const heightPx = view.getUint32(20);
	const bitDepth = view.getUint8(24);
	const colorType = view.getUint8(25);
	const interlace = view.getUint8(28);
	const color = COLOR_TYPES.get(colorType);
	if (color === undefined || !color.depths.includes(bitDepth)) {
		throw new InspectionFault(
			"corrupt_header",
			`The PNG's IHDR declares colour type ${colorType} at ${bitDepth} bits, which is not a valid combination.`,
		);
	}
	if (view.getUint8(26) !== 0 || view.getUint8(27) !== 0 || interlace > 1) {
		throw new InspectionFault(
			"corrupt_header",
			"The PNG's IHDR declares an unknown compression, filter or interlace method.",
		);
	}
	const tailStart = Math.max(HEADER_BYTES, reader.size - TAIL_WINDOW);
	const tail = await reader.read(tailStart, reader.size - tailStart);
	if (lastIndexOf(tail, IEND_CHUNK) < 0) {
		throw new InspectionFault("truncated", "The PNG ends before its IEND chunk: the file is truncated.");
	}
	const detail = `PNG ${bitDepth}-bit ${color.name}${interlace === 1 ? ", interlaced" : ""}`;
	return { ok: true, format: "png", widthPx, heightPx, detail };
}

function startsWith(bytes: Uint8Array, prefix: Uint8Array): boolean {
	return bytes.length >= prefix.length && prefix.every((byte, index) => bytes[index] === byte);
}

function lastIndexOf(haystack: Uint8Array, needle: Uint8Array): number {
	outer: for (let start = haystack.length - needle.length; start >= 0; start--) {
		for (let index = 0; index < needle.length; index++) {
			if (haystack[start + index] !== needle[index]) continue outer;
		}
		return start;
	}
	return -1;
}
