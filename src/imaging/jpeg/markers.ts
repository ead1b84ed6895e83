/**
 * The one JPEG segment walker, for the probe and the decoder alike: the start-of-image marker, then
 * each marker segment in turn (fill bytes skipped, TEM and RSTn passed), its length checked against
 * its own length field and the file's end. What the segments hold is read in segments.ts.
 */
import { ImageFault } from "../fault.ts";
import type { ByteCursor } from "../reader.ts";

export const SOI = 0xd8;
export const EOI = 0xd9;
export const SOS = 0xda;
export const DQT = 0xdb;
export const DHT = 0xc4;
export const DRI = 0xdd;
export const APP1 = 0xe1;
export const APP2 = 0xe2;
export const APP14 = 0xee;

/**
 * Every start-of-frame marker and its coding process. C4 (DHT), C8 (JPG) and CC (DAC) sit in the
 * same range but are not frames.
 */
export const FRAME_MODES: ReadonlyMap<number, string> = new Map([
	[0xc0, "baseline"],
	[0xc1, "extended sequential"],
	[0xc2, "progressive"],
	[0xc3, "lossless"],
	[0xc5, "differential sequential"],
	[0xc6, "differential progressive"],
	[0xc7, "differential lossless"],
	[0xc9, "extended sequential, arithmetic"],
	[0xca, "progressive, arithmetic"],
	[0xcb, "lossless, arithmetic"],
	[0xcd, "differential sequential, arithmetic"],
	[0xce, "differential progressive, arithmetic"],
	[0xcf, "differential lossless, arithmetic"],
]);

/** A marker segment: its code, where its marker starts, and its body's length (none for SOI and EOI). */
export type Segment = { code: number; markerAt: number; length: number };

/** Checks the file starts with SOI; the cursor is left after it. */
export async function readStartOfImage(cursor: ByteCursor): Promise<void> {
	await cursor.ensure(2);
	const [first, second] = cursor.window.subarray(cursor.position, cursor.position + 2);
	if (first !== 0xff || second !== SOI) {
		throw new ImageFault("corrupt_header", "The JPEG does not start with a start-of-image (SOI) marker.");
	}
	cursor.position += 2;
}

/**
 * The next marker segment, the cursor left at its body: fill bytes before its code skipped, TEM and
 * RSTn (which stand alone) passed, and its length checked against its length field and the file's end.
 */
export async function nextSegment(cursor: ByteCursor): Promise<Segment> {
	for (;;) {
		const { code, markerAt } = await nextMarker(cursor);
		if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) continue;
		if (code === SOI || code === EOI) return { code, markerAt, length: 0 };
		if (!(await cursor.ensure(2))) throw truncatedBeforeScan();
		const length = ((cursor.window[cursor.position] ?? 0) << 8) | (cursor.window[cursor.position + 1] ?? 0);
		cursor.position += 2;
		if (length < 2) {
			throw new ImageFault(
				"corrupt_header",
				`The JPEG segment at byte ${markerAt} declares a length of ${length}, less than its own length field.`,
			);
		}
		if (markerAt + 2 + length > cursor.size) {
			throw new ImageFault(
				"truncated",
				`The JPEG segment at byte ${markerAt} (${length} bytes) runs past the end of the file: the file is truncated.`,
			);
		}
		return { code, markerAt, length: length - 2 };
	}
}

/** The error of an SOI or EOI where a segment belongs (`before`: what had not happened yet). */
export function strayMarker(segment: Segment, before: string): ImageFault {
	const name = segment.code === SOI ? "SOI" : "EOI";
	return new ImageFault(
		"corrupt_header",
		`The JPEG has a stray ${name} marker at byte ${segment.markerAt}, ${before}.`,
	);
}

/** The marker at the cursor, after any fill bytes (0xFF) before its code. */
async function nextMarker(cursor: ByteCursor): Promise<{ code: number; markerAt: number }> {
	if (!(await cursor.ensure(1))) throw truncatedBeforeScan();
	const markerAt = cursor.offset;
	if (cursor.window[cursor.position] !== 0xff) {
		throw new ImageFault(
			"corrupt_header",
			`The JPEG has no marker where one should be, at byte ${markerAt}: a segment length is wrong.`,
		);
	}
	for (;;) {
		cursor.position++;
		if (!(await cursor.ensure(1))) throw truncatedBeforeScan();
		const code = cursor.window[cursor.position] ?? 0;
		if (code === 0xff) continue;
		if (code === 0x00) {
			throw new ImageFault("corrupt_header", `The JPEG has an invalid marker at byte ${cursor.offset - 1}.`);
		}
		cursor.position++;
		return { code, markerAt: cursor.offset - 2 };
	}
}

function truncatedBeforeScan(): ImageFault {
	return new ImageFault("truncated", "The JPEG ends before its image data: the file is truncated.");
}
