/**
 * A JPEG read for decoding: its segments walked front to back once (markers.ts, the probe's walker),
 * the tables they set up, and the scans handed to the reader the decode chose; plus that reader at
 * 1/8 scale, from the DC coefficients alone.
 */
import type { ByteSource } from "../byte-source.ts";
import { ImageFault } from "../fault.ts";
import { checkDimensions } from "../limits.ts";
import type { Decoded, RasterSink } from "../raster.ts";
import { type ByteCursor, ByteReader, DECODER_READING, MAX_READ_BYTES } from "../reader.ts";
import { DcRaster } from "./dc-rows.ts";
import { decodeDcScan, skipScanData } from "./dc-scan.ts";
import type { HuffmanTable } from "./entropy.ts";
import {
	APP1,
	APP14,
	DHT,
	DQT,
	DRI,
	EOI,
	FRAME_MODES,
	nextSegment,
	readStartOfImage,
	SOI,
	SOS,
	strayMarker,
} from "./markers.ts";
import {
	adobeTransform,
	exifOrientation,
	type Frame,
	parseFrame,
	parseHuffmanTables,
	parseQuantTables,
	parseRestartInterval,
	parseScan,
	type Scan,
} from "./segments.ts";

/** Tuning for tests and benchmarks: the size of each source read (at most, and by default, 1 MiB). */
export type JpegDecodeOptions = { chunkBytes?: number };

/** The frame markers decoded: baseline, extended sequential and progressive, Huffman-coded. */
const DECODED_FRAMES = new Set([0xc0, 0xc1, 0xc2]);

/** What the headers before and between the scans set up. */
export type JpegTables = {
	frame: Frame | undefined;
	dcSteps: Int32Array;
	/** Each quantisation table's 64 steps, in natural order. */
	steps: Int32Array[];
	dc: (HuffmanTable | undefined)[];
	ac: (HuffmanTable | undefined)[];
	restartInterval: number;
	adobe: number | undefined;
	orientation: number | undefined;
};

/** How a decoder reads the scans of one file: each in turn, then (for one waiting for them all) the end. */
export type ScanReader = {
	/** Reads one scan (the cursor is just past its header); true once every row is delivered. */
	read(cursor: ByteCursor, scan: Scan): Promise<boolean>;
	/** At EOI: delivers the rows and returns true, or returns false when they cannot be made. */
	end(): boolean;
};

/**
 * Reads a JPEG's segments front to back, once, in chunks of at most 1 MiB, skipping those no decoder
 * needs. At the first scan `startScans` picks how the scans are read (it sees the frame and the tables
 * so far, which stay live as later segments change them); reading stops once it reports the rows
 * delivered.
 */
export async function readJpeg(
	source: ByteSource,
	options: JpegDecodeOptions,
	startScans: (tables: JpegTables, frame: Frame, first: Scan) => ScanReader,
): Promise<Decoded> {
	const cursor = new ByteReader(source, DECODER_READING).cursor(0, options.chunkBytes ?? MAX_READ_BYTES);
	await readStartOfImage(cursor);
	const tables: JpegTables = {
		frame: undefined,
		dcSteps: new Int32Array(4),
		steps: [0, 1, 2, 3].map(() => new Int32Array(64)),
		dc: [],
		ac: [],
		restartInterval: 0,
		adobe: undefined,
		orientation: undefined,
	};
	let scans: ScanReader | undefined;
	for (;;) {
		const segment = await nextSegment(cursor);
		const { code } = segment;
		if (code === EOI && scans?.end() === true) return { orientation: tables.orientation ?? 1 };
		if (code === SOI || code === EOI) throw strayMarker(segment, "before its image data is complete");
		if (!wanted(code)) {
			cursor.skip(segment.length);
			continue;
		}
		// A copy: the window moves on while the body is still in use.
		const body = (await cursor.take(segment.length, "a JPEG segment")).slice();
		if (code === SOS) {
			const frame = tables.frame;
			if (frame === undefined) {
				throw new ImageFault("corrupt_header", "The JPEG's first scan comes before any frame header (SOFn).");
			}
			const scan = parseScan(body, frame);
			if (frame.progressive && scan.spectralStart === 0 && scan.spectralEnd !== 0) {
				throw new ImageFault("corrupt_header", "The progressive JPEG has a scan mixing DC and AC coefficients.");
			}
			scans ??= startScans(tables, frame, scan);
			if (await scans.read(cursor, scan)) return { orientation: tables.orientation ?? 1 };
			continue;
		}
		readSegment(code, segment.markerAt, body, tables);
	}
}

/**
 * The 1/8 scale's scan reader. A first scan carrying every component streams its rows MCU row by MCU
 * row; scans of fewer components fill whole planes of DC values until the last component arrives, and
 * scans that add nothing to DC (progressive AC or refinement scans) are skipped unread.
 */
export function dcScans(sink: RasterSink, tables: JpegTables, frame: Frame): ScanReader {
	let raster: DcRaster | undefined;
	const dcDone: boolean[] = [];
	return {
		end: () => false,
		async read(cursor, scan) {
			const firstDc = !frame.progressive || (scan.spectralStart === 0 && scan.approximationHigh === 0);
			const fresh = scan.components.filter(({ index }) => dcDone[index] !== true);
			if (!firstDc || fresh.length === 0) {
				if (fresh.length > 0) {
					throw new ImageFault("corrupt_header", "The JPEG refines a component before its first DC scan.");
				}
				await skipScanData(cursor);
				return false;
			}
			const streaming = raster === undefined && scan.components.length === frame.components.length;
			raster ??= new DcRaster(frame, tables.dcSteps, tables.adobe, sink, !streaming);
			const rows = raster;
			await decodeDcScan(cursor, frame, scan, tables, rows.lanes, (row) => {
				// Each row waits for the next, whose chroma its interpolation reads.
				if (streaming && row > 0) rows.emit(row - 1);
			});
			for (const { index } of scan.components) dcDone[index] = true;
			if (streaming) {
				rows.emit(rows.mcuRows - 1);
				return true;
			}
			if (frame.components.some((_, index) => dcDone[index] !== true)) {
				await skipScanData(cursor);
				return false;
			}
			for (let row = 0; row < rows.mcuRows; row++) rows.emit(row);
			return true;
		},
	};
}

/** Segments whose body the decoder reads; the rest (ICC, XMP, comments) are skipped unread. */
function wanted(code: number): boolean {
	return (
		code === SOS ||
		code === DQT ||
		code === DHT ||
		code === DRI ||
		code === APP1 ||
		code === APP14 ||
		FRAME_MODES.has(code)
	);
}

function readSegment(code: number, markerAt: number, body: Uint8Array, tables: JpegTables): void {
	if (code === DQT) parseQuantTables(body, tables.dcSteps, tables.steps);
	else if (code === DHT) parseHuffmanTables(body, tables.dc, tables.ac);
	else if (code === DRI) tables.restartInterval = parseRestartInterval(body);
	else if (code === APP1) tables.orientation ??= exifOrientation(body);
	else if (code === APP14) tables.adobe ??= adobeTransform(body);
	else if (!DECODED_FRAMES.has(code)) {
		throw new ImageFault(
			"unsupported_variant",
			"The JPEG is lossless, hierarchical or arithmetic-coded; only baseline and progressive Huffman JPEG is read.",
		);
	} else {
		if (tables.frame !== undefined) throw new ImageFault("corrupt_header", "The JPEG has two frame headers.");
		tables.frame = decodableFrame(parseFrame(code, body, markerAt));
	}
}

/**
 * The frame, checked to be one the decoders read: 8-bit samples, 1, 3 or 4 components, sampling
 * factors of 1 to 4 that divide each other, and a size within the limits before anything is allocated.
 */
function decodableFrame(frame: Frame): Frame {
	if (frame.precision !== 8) {
		throw new ImageFault("unsupported_variant", `The JPEG has ${frame.precision}-bit samples; only 8-bit is read.`);
	}
	checkDimensions("jpeg", frame.widthPx, frame.heightPx);
	const count = frame.components.length;
	if (count !== 1 && count !== 3 && count !== 4) {
		throw new ImageFault("unsupported_variant", `The JPEG has ${count} components; 1, 3 or 4 are read.`);
	}
	for (const { h, v, quantTable } of frame.components) {
		if (h < 1 || h > 4 || v < 1 || v > 4) {
			throw new ImageFault("corrupt_header", "The JPEG has a component with sampling factors outside 1 to 4.");
		}
		if (quantTable > 3) {
			throw new ImageFault("corrupt_header", "The JPEG has a component naming a quantisation table beyond 3.");
		}
	}
	if (frame.components.some(({ h, v }) => frame.hMax % h !== 0 || frame.vMax % v !== 0)) {
		throw new ImageFault("unsupported_variant", "The JPEG's sampling factors do not divide each other.");
	}
	return frame;
}
