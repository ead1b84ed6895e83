import { ImageFault } from "../fault.ts";
import type { ByteCursor } from "../reader.ts";
import {
	type BlockLane,
	blockAt,
	decodeDcScan,
	keptPositions,
	MAX_AC_CATEGORY,
	type ScanTables,
	walkScan,
} from "./dc-scan.ts";
import type { BitReader, HuffmanTable } from "./entropy.ts";
import type { Frame, Scan } from "./segments.ts";

/**
 * One component's whole plane of kept coefficients, and which of each block's 64 coefficients are
 * nonzero so far (two 32-bit words a block, zig-zag order): a refinement scan sends a correction bit for
 * every nonzero coefficient of its band, kept or not, so the history must cover them all.
 */
export type ProgressivePlane = { lane: BlockLane; nonzero: Uint32Array };

function corrupt(message: string): ImageFault {
	return new ImageFault("corrupt_data", message);
}

function corruptHeader(message: string): ImageFault {
	return new ImageFault("corrupt_header", message);
}

/**
 * Decodes one scan of a progressive JPEG into whole planes (indexed by frame component): a first DC
 * scan, a DC refinement, a first AC scan of a band, or an AC refinement. Coefficients beyond what a
 * plane's blocks keep are read and dropped; only their nonzero history is kept.
 */
export async function decodeProgressiveScan(
	reader: ByteCursor,
	frame: Frame,
	scan: Scan,
	tables: ScanTables,
	planes: ProgressivePlane[],
): Promise<void> {
	const { spectralStart, spectralEnd, approximationHigh, approximationLow } = scan;
	if (approximationLow > 13) throw corruptHeader("The JPEG's scan has an impossible point shift.");
	const lanes = planes.map((plane) => plane.lane);
	if (spectralStart === 0) {
		if (approximationHigh === 0) return decodeDcScan(reader, frame, scan, tables, lanes, () => {});
		return refineDc(reader, frame, scan, tables, planes);
	}
	const only = scan.components[0];
	if (scan.components.length !== 1 || only === undefined) {
		throw corruptHeader("The progressive JPEG has an AC scan of more than one component.");
	}
	if (spectralEnd > 63 || spectralStart > spectralEnd) throw corruptHeader("The JPEG's scan has an impossible band.");
	const plane = planes[only.index];
	const table = tables.ac[only.acTable];
	if (plane === undefined || table === undefined) {
		throw corruptHeader("The JPEG's scan uses a Huffman table it never defines.");
	}
	const acScan: AcScan = {
		table,
		plane,
		positions: keptPositions(plane.lane.size),
		start: spectralStart,
		end: spectralEnd,
		shift: approximationLow,
	};
	const decodeBlock = approximationHigh === 0 ? firstAc : refineAc;
	let eobRun = 0;
	const unit = (bits: BitReader, x: number, y: number) => {
		eobRun = decodeBlock(bits, acScan, x, y, eobRun);
	};
	await walkScan(
		reader,
		frame,
		[plane.lane],
		tables.restartInterval,
		unit,
		() => {
			eobRun = 0;
		},
		() => {},
	);
}

/** A DC refinement: one more bit of each block's DC value. */
async function refineDc(
	reader: ByteCursor,
	frame: Frame,
	scan: Scan,
	tables: ScanTables,
	planes: ProgressivePlane[],
): Promise<void> {
	const lanes = scan.components.map(({ index }) => {
		const lane = planes[index]?.lane;
		if (lane === undefined) throw corruptHeader("The JPEG has a scan naming a component that is not in its frame.");
		return lane;
	});
	const bit = 1 << scan.approximationLow;
	const single = lanes.length === 1;
	await walkScan(
		reader,
		frame,
		lanes,
		tables.restartInterval,
		(bits, column, row) => {
			for (const lane of lanes) {
				const h = single ? 1 : lane.h;
				const v = single ? 1 : lane.v;
				for (let y = 0; y < v; y++) {
					for (let x = 0; x < h; x++) {
						if (bits.receive(1) === 0) continue;
						const at = blockAt(lane, column * h + x, row * v + y);
						lane.values[at] = (lane.values[at] ?? 0) | bit;
					}
				}
			}
		},
		() => {},
		() => {},
	);
}

/** An AC scan of one component: its table, its plane, where kept coefficients go, its band and point shift. */
type AcScan = {
	table: HuffmanTable;
	plane: ProgressivePlane;
	positions: Int8Array;
	start: number;
	end: number;
	shift: number;
};

/** Block (x, y)'s index in its plane. */
function blockIndex(lane: BlockLane, x: number, y: number): number {
	return (y % lane.rows) * lane.width + x;
}

/** The first AC scan of a band for block (x, y); returns the end-of-band run still to apply to the blocks after it. */
function firstAc(bits: BitReader, band: AcScan, x: number, y: number, eobRun: number): number {
	const { table, plane, positions } = band;
	if (eobRun > 0) return eobRun - 1;
	const { lane, nonzero } = plane;
	const block = blockIndex(lane, x, y);
	const at = block * lane.size * lane.size;
	for (let k = band.start; k <= band.end; ) {
		const symbol = bits.decode(table);
		const run = symbol >> 4;
		const size = symbol & 15;
		if (size === 0) {
			if (run < 15) return (1 << run) - 1 + bits.receive(run);
			k += 16;
			continue;
		}
		if (size > MAX_AC_CATEGORY) throw corrupt("The JPEG has an impossible AC value.");
		k += run;
		if (k > band.end) throw corrupt("The JPEG has a block with more coefficients than its scan's band.");
		const value = bits.receiveExtended(size) * (1 << band.shift);
		const position = positions[k] ?? -1;
		if (position >= 0) lane.values[at + position] = value;
		nonzero[2 * block + (k >> 5)] = (nonzero[2 * block + (k >> 5)] ?? 0) | (1 << (k & 31));
		k++;
	}
	return 0;
}

/**
 * An AC refinement of a band for block (x, y), as libjpeg reads it: a correction bit for each
 * coefficient already nonzero, and newly nonzero ones of magnitude 1 << shift placed among the zeros.
 */
function refineAc(bits: BitReader, band: AcScan, x: number, y: number, eobRun: number): number {
	const { table, plane, positions } = band;
	const { lane, nonzero } = plane;
	const block = blockIndex(lane, x, y);
	const at = block * lane.size * lane.size;
	const plus = 1 << band.shift;
	const isNonzero = (k: number) => (((nonzero[2 * block + (k >> 5)] ?? 0) >>> (k & 31)) & 1) === 1;
	const correct = (k: number) => {
		if (bits.receive(1) === 0) return;
		const position = positions[k] ?? -1;
		if (position < 0) return;
		const value = lane.values[at + position] ?? 0;
		if ((value & plus) === 0) lane.values[at + position] = value >= 0 ? value + plus : value - plus;
	};
	let run = eobRun;
	let k = band.start;
	if (run === 0) {
		for (; k <= band.end; k++) {
			const symbol = bits.decode(table);
			let zeros = symbol >> 4;
			const size = symbol & 15;
			let value = 0;
			if (size !== 0) {
				if (size !== 1) throw corrupt("The JPEG's refinement scan has an impossible value.");
				value = bits.receive(1) === 1 ? plus : -plus;
			} else if (zeros !== 15) {
				run = (1 << zeros) + bits.receive(zeros);
				break;
			}
			// Past the coefficients already nonzero (each with its correction bit) and `zeros` zero ones.
			for (; k <= band.end; k++) {
				if (isNonzero(k)) correct(k);
				else if (--zeros < 0) break;
			}
			if (value !== 0 && k <= band.end) {
				const position = positions[k] ?? -1;
				if (position >= 0) lane.values[at + position] = value;
				nonzero[2 * block + (k >> 5)] = (nonzero[2 * block + (k >> 5)] ?? 0) | (1 << (k & 31));
			}
		}
	}
	if (run > 0) {
		for (; k <= band.end; k++) if (isNonzero(k)) correct(k);
		run--;
	}
	return run;
}
