import { colourOrNone } from "../colour/parts.ts";
import { ImageFault } from "../fault.ts";
import type { ProbedHeader } from "../formats.ts";
import type { ByteReader } from "../reader.ts";
import {
	EXIF_HEAD_BYTES,
	ICC_HEAD_BYTES,
	iccPieceHead,
	isExifHead,
	type JpegColourFinds,
	jpegColour,
} from "./colour.ts";
import {
	APP1,
	APP2,
	APP14,
	EOI,
	FRAME_MODES,
	nextSegment,
	readStartOfImage,
	SOI,
	SOS,
	strayMarker,
} from "./markers.ts";
import { adobeTransform, type Frame, parseFrame } from "./segments.ts";

/** How far from the end to look for EOI, tolerating a little padding or junk after it. */
const TAIL_WINDOW = 1024;

/** Bytes a probe's cursor asks for at a time: a segment's head, the rest skipped by its length. */
const HEAD_CHUNK = 64;

/** Bytes of an Adobe APP14 body up to its colour transform. */
const ADOBE_BYTES = 12;

/**
 * Walks the marker segments by their lengths to the first SOFn, then on to the first scan, and
 * checks that the file ends with EOI. Reads the frame header and Adobe's colour transform, the heads
 * of APP2 (an ICC profile's pieces) and APP1 (EXIF), and of every other segment its head only; then
 * the colour facts' few ranges (jpeg/colour.ts).
 */
export async function probeJpeg(reader: ByteReader): Promise<ProbedHeader> {
	const cursor = reader.cursor(0, HEAD_CHUNK);
	await readStartOfImage(cursor);
	let frame: Frame | undefined;
	// Adobe's APP14 tells RGB from YCbCr and CMYK from YCCK; without it 3 components mean YCbCr.
	let adobe: number | undefined;
	const finds: JpegColourFinds = { pieces: [], exif: null };
	for (;;) {
		const segment = await nextSegment(cursor);
		const { code, length } = segment;
		if (code === SOI || code === EOI) throw strayMarker(segment, "before any image scan");
		if (FRAME_MODES.has(code) && frame === undefined) {
			frame = parseFrame(code, await cursor.take(length, "the JPEG's frame header"), segment.markerAt);
		} else if (code === APP14 && length >= ADOBE_BYTES) {
			adobe ??= adobeTransform(await cursor.take(ADOBE_BYTES, "the JPEG's APP14 segment"));
			cursor.skip(length - ADOBE_BYTES);
		} else if (code === APP2 && length >= ICC_HEAD_BYTES) {
			const head = iccPieceHead(await cursor.take(ICC_HEAD_BYTES, "the JPEG's APP2 segment"));
			if (head !== null) finds.pieces.push({ ...head, at: cursor.offset, length: length - ICC_HEAD_BYTES });
			cursor.skip(length - ICC_HEAD_BYTES);
		} else if (code === APP1 && length >= EXIF_HEAD_BYTES && finds.exif === null) {
			const exif = isExifHead(await cursor.take(EXIF_HEAD_BYTES, "the JPEG's APP1 segment"));
			if (exif) finds.exif = { at: cursor.offset, length: length - EXIF_HEAD_BYTES };
			cursor.skip(length - EXIF_HEAD_BYTES);
		} else if (code === SOS) {
			if (frame === undefined) {
				throw new ImageFault("corrupt_header", "The JPEG's first scan comes before any frame header (SOFn).");
			}
			await checkEndsWithEoi(reader, cursor.offset + length);
			const colour = await colourOrNone(jpegColour(reader, frame, finds));
			return { widthPx: frame.widthPx, heightPx: frame.heightPx, detail: describe(frame, adobe), colour };
		} else {
			cursor.skip(length);
		}
	}
}

/** Entropy-coded data never holds FF D9 (a data FF is followed by 00 or RSTn), so any FF D9 near the end is EOI. */
async function checkEndsWithEoi(reader: ByteReader, scanStart: number): Promise<void> {
	const tailStart = Math.max(scanStart, reader.size - TAIL_WINDOW);
	const tail = await reader.read(tailStart, reader.size - tailStart);
	for (let index = tail.length - 2; index >= 0; index--) {
		if (tail[index] === 0xff && tail[index + 1] === EOI) return;
	}
	throw new ImageFault("truncated", "The JPEG ends before its end-of-image (EOI) marker: the file is truncated.");
}

function describe(frame: Frame, adobe: number | undefined): string {
	const mode = FRAME_MODES.get(frame.code) ?? "";
	const count = frame.components.length;
	const precision = frame.precision === 8 ? "" : `, ${frame.precision}-bit`;
	const components = `${count} component${count === 1 ? "" : "s"}`;
	const model = colorModel(count, adobe);
	return `JPEG ${mode}${precision}, ${components}${model === undefined ? "" : ` (${model})`}`;
}

function colorModel(components: number, adobe: number | undefined): string | undefined {
	if (components === 1) return "grayscale";
	if (components === 3) return adobe === 0 ? "RGB" : "YCbCr";
	if (components === 4) return adobe === 2 ? "YCCK" : "CMYK";
	return undefined;
}
