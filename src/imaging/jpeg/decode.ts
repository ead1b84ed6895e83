import type { ByteSource } from "../byte-source.ts";
import { ImageFault } from "../fault.ts";
import type { Decoded, RasterSink } from "../raster.ts";
import { DcRaster } from "./dc-rows.ts";
import { type BlockLane, decodeDcScan, skipScanData } from "./dc-scan.ts";
import { ReducedIdct } from "./idct.ts";
import { decodeProgressiveScan, type ProgressivePlane } from "./progressive-scan.ts";
import { dcScans, type JpegDecodeOptions, type JpegTables, readJpeg, type ScanReader } from "./scans.ts";
import type { Frame } from "./segments.ts";

/** What `decodeJpeg` is asked for: the output's long side it should reach, where the image allows. */
export type JpegScaleOptions = JpegDecodeOptions & { minLongSide: number };

/**
 * Most bytes of coefficients held for a file whose blocks are only final after every scan (a progressive
 * JPEG, or a sequential one with a scan per component): 48 MiB, leaving room in a 128 MB isolate for the
 * thumbnail, the read window and the rest. Past it the decode falls back to a coarser scale.
 */
export const COEFFICIENT_BUDGET_BYTES = 48 * 1024 * 1024;

/** The most scans read into held planes (libjpeg's progressive encoder writes 6 to 10; mozjpeg a few more). */
export const MAX_HELD_SCANS = 100;

/** Samples a block gives on a side at each scale, smallest first: 1/8, 1/4, 1/2, 1/1. */
const BLOCK_SIDES = [1, 2, 4, 8] as const;

/** Bytes of whole planes at `size` samples a block side: the kept coefficients (Int16) and the 8-byte nonzero history. */
export function planeBytes(frame: Frame, size: number): number {
	return planeBlocks(frame) * (size * size * 2 + 8);
}

function planeBlocks(frame: Frame): number {
	const mcusPerLine = Math.ceil(frame.widthPx / (8 * frame.hMax));
	const mcuRows = Math.ceil(frame.heightPx / (8 * frame.vMax));
	return frame.components.reduce((sum, { h, v }) => sum + mcusPerLine * h * mcuRows * v, 0);
}

/**
 * The samples a block gives on a side (1: 1/8 scale, 2: 1/4, 4: 1/2, 8: full size): the smallest scale
 * whose long side reaches `minLongSide` (or the image's own, never upscaled); when every block must be
 * held (`wholePlanes`) and that scale's planes pass the budget, the next coarser one that fits.
 */
export function jpegBlockSide(frame: Frame, minLongSide: number, wholePlanes: boolean): number {
	if (Number.isNaN(minLongSide)) throw new RangeError("The minimum long side of a JPEG decode must be a number.");
	const longSide = Math.max(frame.widthPx, frame.heightPx);
	const wanted = Math.min(Math.max(1, Math.floor(minLongSide)), longSide);
	let index = BLOCK_SIDES.findIndex((side) => Math.ceil((longSide * side) / 8) >= wanted);
	if (index < 0) index = BLOCK_SIDES.length - 1;
	while (index > 0 && wholePlanes && planeBytes(frame, BLOCK_SIDES[index] ?? 1) > COEFFICIENT_BUDGET_BYTES) index--;
	return BLOCK_SIDES[index] ?? 1;
}

/**
 * Decodes a JPEG at the smallest of 1/8, 1/4, 1/2 and 1/1 scale whose long side reaches
 * `options.minLongSide` (or the image's own), in bounded memory. 1/8 is the DC-only decode. Otherwise a
 * sequential file's AC coefficients are dequantised and each block goes through a reduced inverse DCT
 * (2 × 2, 4 × 4 or 8 × 8 from its lowest frequencies), one MCU row at a time, chroma upsampled, rows
 * handed on in order. A progressive file keeps only the coefficients its scale needs, for every block,
 * until EOI, and falls back to a coarser scale when they would pass COEFFICIENT_BUDGET_BYTES.
 */
export async function decodeJpeg(source: ByteSource, sink: RasterSink, options: JpegScaleOptions): Promise<Decoded> {
	return readJpeg(source, options, (tables, frame, first) => {
		const wholePlanes = frame.progressive || first.components.length !== frame.components.length;
		const side = jpegBlockSide(frame, options.minLongSide, wholePlanes);
		if (side === 1) return dcScans(sink, tables, frame);
		return wholePlanes ? planeScans(sink, tables, frame, side) : streamingScans(sink, tables, frame, side);
	});
}

/** Lanes of coefficients for every component: `mcuRows` rows of MCUs (one for a band, all for planes). */
function coefficientLanes(frame: Frame, side: number, mcuRows: number): BlockLane[] {
	const mcusPerLine = Math.ceil(frame.widthPx / (8 * frame.hMax));
	return frame.components.map(({ h, v }) => ({
		h,
		v,
		width: mcusPerLine * h,
		rows: mcuRows * v,
		size: side,
		values: new Int16Array(mcusPerLine * h * mcuRows * v * side * side),
	}));
}

/**
 * Runs the reduced inverse DCT of every block of MCU row `row` from the coefficient lanes into the
 * raster's lanes of samples, with each component's quantisation steps as they are now.
 */
function transformRow(
	frame: Frame,
	tables: JpegTables,
	lanes: BlockLane[],
	raster: DcRaster,
	idct: ReducedIdct,
	row: number,
): void {
	const side = idct.size;
	frame.components.forEach(({ v, quantTable }, c) => {
		const lane = lanes[c];
		const samples = raster.lanes[c];
		const steps = tables.steps[quantTable];
		if (lane === undefined || samples === undefined || steps === undefined) return;
		for (let y = row * v; y < (row + 1) * v; y++) {
			const from = (y % lane.rows) * lane.width * side * side;
			const sampleRow = ((y * side) % samples.rows) * samples.width;
			for (let x = 0; x < lane.width; x++) {
				idct.transform(lane.values, from + x * side * side, steps, samples.values, sampleRow + x * side, samples.width);
			}
		}
	});
}

/**
 * A sequential file whose first scan carries every component: decoded one MCU row at a time into a band
 * of coefficients, transformed into the raster's ring of samples, each row handed on once the next is
 * in (its chroma interpolation reads it).
 */
function streamingScans(sink: RasterSink, tables: JpegTables, frame: Frame, side: number): ScanReader {
	const raster = new DcRaster(frame, tables.dcSteps, tables.adobe, sink, false, side);
	const lanes = coefficientLanes(frame, side, 1);
	const idct = new ReducedIdct(side);
	return {
		end: () => false,
		async read(cursor, scan) {
			await decodeDcScan(cursor, frame, scan, tables, lanes, (row) => {
				transformRow(frame, tables, lanes, raster, idct, row);
				if (row > 0) raster.emit(row - 1);
			});
			raster.emit(raster.mcuRows - 1);
			return true;
		},
	};
}

/**
 * A progressive file (or a sequential one with a scan per component): every scan adds to whole planes
 * of kept coefficients, and at EOI the rows are transformed and handed on in order.
 */
function planeScans(sink: RasterSink, tables: JpegTables, frame: Frame, side: number): ScanReader {
	const mcuRows = Math.ceil(frame.heightPx / (8 * frame.vMax));
	const planes: ProgressivePlane[] = coefficientLanes(frame, side, mcuRows).map((lane) => ({
		lane,
		nonzero: new Uint32Array(frame.progressive ? lane.width * lane.rows * 2 : 0),
	}));
	const lanes = planes.map((plane) => plane.lane);
	const dcSeen: boolean[] = [];
	let raster: DcRaster | undefined;
	let scans = 0;
	return {
		async read(cursor, scan) {
			// Each scan walks every block of its components: a file of endless tiny scans would be endless work.
			if (++scans > MAX_HELD_SCANS) {
				throw new ImageFault(
					"unsupported_variant",
					`The progressive JPEG has more than ${MAX_HELD_SCANS} scans; encoders write about ten.`,
				);
			}
			const firstDc = !frame.progressive || (scan.spectralStart === 0 && scan.approximationHigh === 0);
			if (!firstDc && scan.components.some(({ index }) => dcSeen[index] !== true)) {
				throw new ImageFault("corrupt_header", "The JPEG refines a component before its first DC scan.");
			}
			if (frame.progressive) await decodeProgressiveScan(cursor, frame, scan, tables, planes);
			else await decodeDcScan(cursor, frame, scan, tables, lanes, () => {});
			for (const { index } of scan.components) dcSeen[index] = true;
			// Past any padding an encoder left after the last block, to the next marker.
			await skipScanData(cursor);
			return false;
		},
		end() {
			if (frame.components.some((_, index) => dcSeen[index] !== true)) return false;
			raster ??= new DcRaster(frame, tables.dcSteps, tables.adobe, sink, false, side);
			const idct = new ReducedIdct(side);
			for (let row = 0; row < mcuRows; row++) {
				transformRow(frame, tables, lanes, raster, idct, row);
				if (row > 0) raster.emit(row - 1);
			}
			raster.emit(mcuRows - 1);
			return true;
		},
	};
}
