import type { ByteSource } from "../print-files/byte-source.ts";
import { DcRaster } from "./jpeg-dc-rows.ts";
import { decodeDcScan, skipScanData } from "./jpeg-dc-scan.ts";
import { ChunkedReader, type HuffmanTable, MAX_CHUNK_BYTES } from "./jpeg-entropy.ts";
import {
	adobeTransform,
	exifOrientation,
	type Frame,
	isUnsupportedFrame,
	parseFrame,
	parseHuffmanTables,
	parseQuantTables,
	parseRestartInterval,
	parseScan,
	type Scan,
} from "./jpeg-segments.ts";
import { type Decoded, type RasterSink, UndecodableImage } from "./raster.ts";

/** Tuning for tests and benchmarks: the size of each source read (at most, and by default, 1 MiB). */
export type JpegDecodeOptions = { chunkBytes?: number };

const SOI = 0xd8;
const EOI = 0xd9;
const SOS = 0xda;
const DQT = 0xdb;
const DHT = 0xc4;
const DRI = 0xdd;
const APP1 = 0xe1;
const APP14 = 0xee;

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
	/** Reads one scan (the reader is just past its header); true once every row is delivered. */
	read(reader: ChunkedReader, scan: Scan): Promise<boolean>;
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
	const reader = new ChunkedReader(source, options.chunkBytes ?? MAX_CHUNK_BYTES);
	const soi = await reader.take(2, "its first marker");
	if (soi[0] !== 0xff || soi[1] !== SOI) {
		throw new UndecodableImage("corrupt", "The file does not start with a JPEG start-of-image marker.");
	}
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
		const code = await nextMarker(reader);
		if (code === 0x01 || (code >= 0xd0 && code <= 0xd7)) continue;
		if (code === EOI && scans?.end() === true) return { orientation: tables.orientation ?? 1 };
		if (code === SOI || code === EOI) {
			throw new UndecodableImage("corrupt", "The JPEG has a stray SOI or EOI marker before its image data.");
		}
		const lengthBytes = await reader.take(2, "a segment's length");
		const length = ((lengthBytes[0] ?? 0) << 8) | (lengthBytes[1] ?? 0);
		if (length < 2) throw new UndecodableImage("corrupt", "The JPEG has a segment shorter than its length field.");
		if (!wanted(code)) {
			reader.skip(length - 2);
			continue;
		}
		// A copy: the window moves on while the body is still in use.
		const body = (await reader.take(length - 2, "a segment")).slice();
		if (code === SOS) {
			const frame = tables.frame;
			if (frame === undefined) throw new UndecodableImage("corrupt", "The JPEG's scan comes before its frame header.");
			const scan = parseScan(body, frame);
			if (frame.progressive && scan.spectralStart === 0 && scan.spectralEnd !== 0) {
				throw new UndecodableImage("corrupt", "The progressive JPEG has a scan mixing DC and AC coefficients.");
			}
			scans ??= startScans(tables, frame, scan);
			if (await scans.read(reader, scan)) return { orientation: tables.orientation ?? 1 };
			continue;
		}
		readSegment(code, body, tables);
	}
}

/**
 * Decodes a JPEG at 1/8 scale from its DC coefficients alone: each 8 × 8 block becomes one pixel, its
 * mean. AC codes are decoded only to be skipped (no dequantising, no inverse DCT), and a progressive
 * JPEG is read only to the end of the first scan(s) carrying every component's DC. The file is read
 * front to back once, in chunks of at most 1 MiB, and memory is three MCU rows of DC values plus a
 * chunk (whole DC planes, capped, only when the first scans carry one component each).
 */
export async function decodeJpegDc(
	source: ByteSource,
	sink: RasterSink,
	options: JpegDecodeOptions = {},
): Promise<Decoded> {
	return readJpeg(source, options, (tables, frame) => dcScans(sink, tables, frame));
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
		async read(reader, scan) {
			const firstDc = !frame.progressive || (scan.spectralStart === 0 && scan.approximationHigh === 0);
			const fresh = scan.components.filter(({ index }) => dcDone[index] !== true);
			if (!firstDc || fresh.length === 0) {
				if (fresh.length > 0)
					throw new UndecodableImage("corrupt", "The JPEG refines a component before its first DC scan.");
				await skipScanData(reader);
				return false;
			}
			const streaming = raster === undefined && scan.components.length === frame.components.length;
			raster ??= new DcRaster(frame, tables.dcSteps, tables.adobe, sink, !streaming);
			const rows = raster;
			await decodeDcScan(reader, frame, scan, tables, rows.lanes, (row) => {
				// Each row waits for the next, whose chroma its interpolation reads.
				if (streaming && row > 0) rows.emit(row - 1);
			});
			for (const { index } of scan.components) dcDone[index] = true;
			if (streaming) {
				rows.emit(rows.mcuRows - 1);
				return true;
			}
			if (frame.components.some((_, index) => dcDone[index] !== true)) {
				await skipScanData(reader);
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
		(code >= 0xc0 && code <= 0xcf)
	);
}

function readSegment(code: number, body: Uint8Array, tables: JpegTables): void {
	if (code === DQT) parseQuantTables(body, tables.dcSteps, tables.steps);
	else if (code === DHT) parseHuffmanTables(body, tables.dc, tables.ac);
	else if (code === DRI) tables.restartInterval = parseRestartInterval(body);
	else if (code === APP1) tables.orientation ??= exifOrientation(body);
	else if (code === APP14) tables.adobe ??= adobeTransform(body);
	else if (isUnsupportedFrame(code)) {
		throw new UndecodableImage(
			"unsupported_variant",
			"The JPEG is lossless, hierarchical or arithmetic-coded; only baseline and progressive Huffman JPEG is read.",
		);
	} else if (code !== 0xc8) {
		if (tables.frame !== undefined) throw new UndecodableImage("corrupt", "The JPEG has two frame headers.");
		tables.frame = parseFrame(code, body);
	}
}

/** The next marker's code, after any fill bytes; anything else where a marker belongs is corrupt. */
async function nextMarker(reader: ChunkedReader): Promise<number> {
	const first = await reader.take(1, "the headers");
	if (first[0] !== 0xff) {
		throw new UndecodableImage("corrupt", `The JPEG has no marker where one belongs, at byte ${reader.offset - 1}.`);
	}
	for (;;) {
		const code = (await reader.take(1, "the headers"))[0] ?? 0;
		if (code === 0xff) continue;
		if (code === 0x00) throw new UndecodableImage("corrupt", "The JPEG has an invalid marker.");
		return code;
	}
}
