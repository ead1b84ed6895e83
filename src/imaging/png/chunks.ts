/**
 * A PNG's structure, read front to back, for the probe and the decoder alike: the signature and the
 * IHDR header (checked against its CRC and the colour types and depths the format allows), each
 * chunk's head, and the image data carried across consecutive IDAT chunks. What the samples mean is
 * in scanlines.ts.
 */
import { ImageFault } from "../fault.ts";
import { type ByteCursor, MAX_READ_BYTES } from "../reader.ts";

/** The eight bytes every PNG starts with. */
export const PNG_SIGNATURE = Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a);

/** Signature + IHDR length, type, 13 data bytes and CRC. */
export const HEADER_BYTES = 33;

/** Each colour type's name, channels and allowed bit depths. */
export const COLOR_TYPES: ReadonlyMap<number, { name: string; channels: number; depths: readonly number[] }> = new Map([
	[0, { name: "grayscale", channels: 1, depths: [1, 2, 4, 8, 16] }],
	[2, { name: "RGB", channels: 3, depths: [8, 16] }],
	[3, { name: "indexed", channels: 1, depths: [1, 2, 4, 8] }],
	[4, { name: "grayscale + alpha", channels: 2, depths: [8, 16] }],
	[6, { name: "RGBA", channels: 4, depths: [8, 16] }],
]);

/** Channels of a colour type (one checked by readHeaderChunk). */
export function channelsOf(colorType: number): number {
	return COLOR_TYPES.get(colorType)?.channels ?? 1;
}

/** The IHDR header's fields. */
export type Header = { width: number; height: number; depth: number; colorType: number; interlaced: boolean };

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

/**
 * The signature and the IHDR chunk every PNG starts with, checked: its length, its CRC, a valid colour
 * type and depth, and the only compression, filter and interlace methods there are. The cursor is left
 * at the next chunk.
 */
export async function readHeaderChunk(cursor: ByteCursor): Promise<Header> {
	const complete = await cursor.ensure(HEADER_BYTES);
	const head = cursor.window.subarray(cursor.position, cursor.position + HEADER_BYTES);
	if (!PNG_SIGNATURE.every((byte, index) => head[index] === byte)) {
		if (head.length < PNG_SIGNATURE.length) {
			throw new ImageFault("truncated", "The PNG ends inside its signature: the file is truncated.");
		}
		throw new ImageFault(
			"corrupt_header",
			"The PNG signature is damaged (often by a transfer that rewrote line endings).",
		);
	}
	if (!complete) throw new ImageFault("truncated", "The PNG ends inside its IHDR chunk: the file is truncated.");
	cursor.position += HEADER_BYTES;
	const view = new DataView(head.buffer, head.byteOffset, head.byteLength);
	const chunkType = String.fromCharCode(...head.subarray(12, 16));
	if (chunkType !== "IHDR" || view.getUint32(8) !== 13) {
		throw new ImageFault("corrupt_header", "The PNG does not start with a 13-byte IHDR chunk.");
	}
	if (crc32(head.subarray(12, 29)) !== view.getUint32(29)) {
		throw new ImageFault("corrupt_header", "The PNG's IHDR chunk fails its checksum: the header is corrupt.");
	}
	const depth = view.getUint8(24);
	const colorType = view.getUint8(25);
	const interlace = view.getUint8(28);
	if (COLOR_TYPES.get(colorType)?.depths.includes(depth) !== true) {
		throw new ImageFault(
			"corrupt_header",
			`The PNG's IHDR declares colour type ${colorType} at ${depth} bits, which is not a valid combination.`,
		);
	}
	if (view.getUint8(26) !== 0 || view.getUint8(27) !== 0 || interlace > 1) {
		throw new ImageFault(
			"corrupt_header",
			"The PNG's IHDR declares an unknown compression, filter or interlace method.",
		);
	}
	return { width: view.getUint32(16), height: view.getUint32(20), depth, colorType, interlaced: interlace === 1 };
}

/** The next chunk's type and data length; the cursor is left at its data. */
export async function nextChunk(cursor: ByteCursor): Promise<{ type: string; length: number }> {
	const head = await cursor.take(8, "a PNG chunk's head");
	const view = new DataView(head.buffer, head.byteOffset, 8);
	const length = view.getUint32(0);
	if (length > 0x7fffffff) throw new ImageFault("corrupt_header", "A PNG chunk declares an impossible length.");
	return { type: String.fromCharCode(...head.subarray(4, 8)), length };
}

/** The IDAT chunks' data, one piece of at most 1 MiB at a time, across consecutive IDAT chunks. */
export async function* imageData(cursor: ByteCursor, firstLength: number): AsyncGenerator<Uint8Array> {
	let remaining = firstLength;
	for (;;) {
		while (remaining > 0) {
			const piece = await cursor.next(Math.min(remaining, MAX_READ_BYTES));
			remaining -= piece.length;
			yield piece;
		}
		cursor.skip(4);
		const { type, length } = await nextChunk(cursor);
		if (type !== "IDAT") return;
		remaining = length;
	}
}
