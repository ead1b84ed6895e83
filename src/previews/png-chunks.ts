/**
 * A PNG's structure, read front to back: its chunks' headers, the IHDR header checked against the
 * colour types and depths the format allows, and the image data carried across consecutive IDAT
 * chunks. What the samples mean is in png-scanlines.ts.
 */
import { checkSize } from "./limits.ts";
import { UndecodableImage } from "./raster.ts";
import { READ_CHUNK, type SequentialReader } from "./sequential-reader.ts";

/** Channels per colour type: gray, RGB, palette, gray + alpha, RGBA. */
export const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = {
	0: [1, 2, 4, 8, 16],
	2: [8, 16],
	3: [1, 2, 4, 8],
	4: [8, 16],
	6: [8, 16],
};

/** The IHDR header's fields the decoder uses. */
export type Header = { width: number; height: number; depth: number; colorType: number; interlaced: boolean };

/** The next chunk's type and data length; the reader is left at its data. */
export async function nextChunk(reader: SequentialReader): Promise<{ type: string; length: number }> {
	const head = await reader.exact(8);
	const view = new DataView(head.buffer, head.byteOffset, 8);
	const length = view.getUint32(0);
	if (length > 0x7fffffff) throw new UndecodableImage("corrupt", "A PNG chunk declares an impossible length.");
	return { type: String.fromCharCode(...head.subarray(4, 8)), length };
}

/** Reads the IHDR chunk's head, which must come first and hold 13 bytes. */
export async function expectHeaderChunk(reader: SequentialReader): Promise<void> {
	const { type, length } = await nextChunk(reader);
	if (type !== "IHDR" || length !== 13)
		throw new UndecodableImage("corrupt", "The PNG does not start with a 13-byte IHDR chunk.");
}

/** The IHDR chunk's 13 bytes as a header, checked: a valid colour type and depth, a size within the limits. */
export function readHeader(data: Uint8Array): Header {
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const width = view.getUint32(0);
	const height = view.getUint32(4);
	const depth = data[8] ?? 0;
	const colorType = data[9] ?? 0;
	const interlace = data[12] ?? 0;
	if ((DEPTHS[colorType] ?? []).includes(depth) === false || (data[10] ?? 0) !== 0 || (data[11] ?? 0) !== 0) {
		throw new UndecodableImage("corrupt", `The PNG declares colour type ${colorType} at ${depth} bits.`);
	}
	if (interlace > 1) throw new UndecodableImage("unsupported_variant", `PNG interlace method ${interlace}.`);
	checkSize(width, height);
	return { width, height, depth, colorType, interlaced: interlace === 1 };
}

/** The IDAT chunks' data, one piece of at most 1 MiB at a time, across consecutive IDAT chunks. */
export async function* imageData(reader: SequentialReader, firstLength: number): AsyncGenerator<Uint8Array> {
	let remaining = firstLength;
	for (;;) {
		while (remaining > 0) {
			const piece = await reader.next(Math.min(remaining, READ_CHUNK));
			remaining -= piece.length;
			yield piece;
		}
		reader.skip(4);
		const { type, length } = await nextChunk(reader);
		if (type !== "IDAT") return;
		remaining = length;
	}
}
