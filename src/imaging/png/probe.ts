import { colourOrNone } from "../colour/parts.ts";
import { ImageFault } from "../fault.ts";
import type { ProbedHeader } from "../formats.ts";
import type { ByteReader } from "../reader.ts";
import { COLOR_TYPES, HEADER_BYTES, readHeaderChunk } from "./chunks.ts";
import { pngColour } from "./colour.ts";

/** A complete IEND chunk: empty, so its bytes (length, type, CRC) never vary. */
const IEND_CHUNK = Uint8Array.of(0, 0, 0, 0, 0x49, 0x45, 0x4e, 0x44, 0xae, 0x42, 0x60, 0x82);

/** How far from the end to look for IEND, tolerating a little junk some tools append. */
const TAIL_WINDOW = 1024;

/** Bytes a probe's cursor asks for at a time: the signature and IHDR fit in one go. */
const HEAD_CHUNK = 64;

/**
 * Width, height, bit depth and colour type from the IHDR chunk, and the colour chunks before the image
 * data; truncated when the file does not end with IEND. Reads the first block (and the chunk heads up to
 * the image data, which usually lie in it) and the last KiB.
 */
export async function probePng(reader: ByteReader): Promise<ProbedHeader> {
	const cursor = reader.cursor(0, HEAD_CHUNK);
	const header = await readHeaderChunk(cursor);
	const colour = await colourOrNone(pngColour(cursor, header));
	const tailStart = Math.max(HEADER_BYTES, reader.size - TAIL_WINDOW);
	const tail = await reader.read(tailStart, reader.size - tailStart);
	if (lastIndexOf(tail, IEND_CHUNK) < 0) {
		throw new ImageFault("truncated", "The PNG ends before its IEND chunk: the file is truncated.");
	}
	const colourType = COLOR_TYPES.get(header.colorType)?.name ?? "";
	const detail = `PNG ${header.depth}-bit ${colourType}${header.interlaced ? ", interlaced" : ""}`;
	return { widthPx: header.width, heightPx: header.height, detail, colour };
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
