import { type BlockReader, InspectionFault, settle } from "./byte-source.ts";
import type { Inspection } from "./image-types.ts";

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const APP14 = 0xee;

/**
 * Every start-of-frame marker and its coding process. C4 (DHT), C8 (JPG) and CC (DAC) sit in the
 * same range but are not frames.
 */
const FRAME_MODES: ReadonlyMap<number, string> = new Map([
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

/** How far from the end to look for EOI, tolerating a little padding or junk after it. */
const TAIL_WINDOW = 1024;

/** Bytes scanned at a time while skipping fill bytes (0xFF) before a marker. */
const FILL_CHUNK = 64;

type Frame = { mode: string; precision: number; widthPx: number; heightPx: number; components: number };

/**
 * Walks the marker segments by their lengths to the first SOFn, then on to the first scan, and
 * checks that the file ends with EOI. Reads segment headers only, never a segment's body.
 */
export function inspectJpeg(reader: BlockReader): Promise<Inspection> {
	return settle("jpeg", () => readJpegHeader(reader));
}

async function readJpegHeader(reader: BlockReader): Promise<Inspection> {
	const soi = await reader.read(0, 2);
	if (soi[0] !== 0xff || soi[1] !== SOI) {
		throw new InspectionFault("corrupt_header", "The JPEG does not start with a start-of-image (SOI) marker.");
	}
	let position = 2;
	let frame: Frame | undefined;
	// Adobe's APP14 tells RGB from YCbCr and CMYK from YCCK; without it 3 components mean YCbCr.
	let adobeTransform: number | undefined;
	for (;;) {
		const { code, markerAt, next } = await nextMarker(reader, position);
		// TEM and RSTn stand alone, with no length.
		if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) {
			position = next;
			continue;
		}
		if (code === SOI || code === EOI) {
			throw new InspectionFault(
				"corrupt_header",
				`The JPEG has a stray ${code === SOI ? "SOI" : "EOI"} marker at byte ${markerAt}, before any image scan.`,
			);
		}
		const lengthBytes = await reader.read(next, 2);
		const high = lengthBytes[0];
		const low = lengthBytes[1];
		if (high === undefined || low === undefined) throw truncatedBeforeScan();
		const length = (high << 8) | low;
		if (length < 2) {
			throw new InspectionFault(
				"corrupt_header",
				`The JPEG segment at byte ${markerAt} declares a length of ${length}, less than its own length field.`,
			);
		}
		const end = next + length;
		if (end > reader.size) {
			throw new InspectionFault(
				"truncated",
				`The JPEG segment at byte ${markerAt} (${length} bytes) runs past the end of the file: the file is truncated.`,
			);
		}
		const mode = FRAME_MODES.get(code);
		if (mode !== undefined && frame === undefined) {
			frame = await readFrame(reader, mode, next + 2, length - 2, markerAt);
		} else if (code === APP14 && length >= 14) {
			const adobe = await reader.read(next + 2, 12);
			if (String.fromCharCode(...adobe.subarray(0, 5)) === "Adobe") adobeTransform = adobe[11];
		} else if (code === SOS) {
			if (frame === undefined) {
				throw new InspectionFault("corrupt_header", "The JPEG's first scan comes before any frame header (SOFn).");
			}
			await checkEndsWithEoi(reader, end);
			return {
				ok: true,
				format: "jpeg",
				widthPx: frame.widthPx,
				heightPx: frame.heightPx,
				detail: describe(frame, adobeTransform),
			};
		}
		position = end;
	}
}

/** The marker at `position`, after any fill bytes (0xFF) before its code. */
async function nextMarker(
	reader: BlockReader,
	position: number,
): Promise<{ code: number; markerAt: number; next: number }> {
	const first = await reader.read(position, FILL_CHUNK);
	if (first.length === 0) throw truncatedBeforeScan();
	if (first[0] !== 0xff) {
		throw new InspectionFault(
			"corrupt_header",
			`The JPEG has no marker where one should be, at byte ${position}: a segment length is wrong.`,
		);
	}
	let chunk = first;
	let chunkAt = position;
	let index = 1;
	for (;;) {
		for (; index < chunk.length; index++) {
			const code = chunk[index];
			if (code === 0xff) continue;
			if (code === 0x00 || code === undefined) {
				throw new InspectionFault("corrupt_header", `The JPEG has an invalid marker at byte ${chunkAt + index - 1}.`);
			}
			return { code, markerAt: chunkAt + index - 1, next: chunkAt + index + 1 };
		}
		chunkAt += chunk.length;
		chunk = await reader.read(chunkAt, FILL_CHUNK);
		if (chunk.length === 0) throw truncatedBeforeScan();
		index = 0;
	}
}

async function readFrame(
	reader: BlockReader,
	mode: string,
	at: number,
	length: number,
	markerAt: number,
): Promise<Frame> {
	const bytes = await reader.read(at, Math.min(length, 6));
	if (length < 6 || bytes.length < 6) {
		throw new InspectionFault("corrupt_header", `The JPEG frame header at byte ${markerAt} is too short.`);
	}
	const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	const frame = {
		mode,
		precision: view.getUint8(0),
		heightPx: view.getUint16(1),
		widthPx: view.getUint16(3),
		components: view.getUint8(5),
	};
	if (frame.components === 0 || length < 6 + 3 * frame.components) {
		throw new InspectionFault(
			"corrupt_header",
			`The JPEG frame header at byte ${markerAt} declares ${frame.components} components but has room for ${Math.floor((length - 6) / 3)}.`,
		);
	}
	if (frame.heightPx === 0) {
		// Legal JPEG (the height comes in a DNL marker after the first scan) but unreadable from the header.
		throw new InspectionFault(
			"dimensions_out_of_range",
			"The JPEG leaves its height to a DNL marker after the image data, which is not supported.",
		);
	}
	return frame;
}

/** Entropy-coded data never holds FF D9 (a data FF is followed by 00 or RSTn), so any FF D9 near the end is EOI. */
async function checkEndsWithEoi(reader: BlockReader, scanStart: number): Promise<void> {
	const tailStart = Math.max(scanStart, reader.size - TAIL_WINDOW);
	const tail = await reader.read(tailStart, reader.size - tailStart);
	for (let index = tail.length - 2; index >= 0; index--) {
		if (tail[index] === 0xff && tail[index + 1] === EOI) return;
	}
	throw new InspectionFault("truncated", "The JPEG ends before its end-of-image (EOI) marker: the file is truncated.");
}

function truncatedBeforeScan(): InspectionFault {
	return new InspectionFault("truncated", "The JPEG ends before its image data: the file is truncated.");
}

function describe(frame: Frame, adobeTransform: number | undefined): string {
	const precision = frame.precision === 8 ? "" : `, ${frame.precision}-bit`;
	const count = `${frame.components} component${frame.components === 1 ? "" : "s"}`;
	const model = colorModel(frame.components, adobeTransform);
	return `JPEG ${frame.mode}${precision}, ${count}${model === undefined ? "" : ` (${model})`}`;
}

function colorModel(components: number, adobeTransform: number | undefined): string | undefined {
	if (components === 1) return "grayscale";
	if (components === 3) return adobeTransform === 0 ? "RGB" : "YCbCr";
	if (components === 4) return adobeTransform === 2 ? "YCCK" : "CMYK";
	return undefined;
}
