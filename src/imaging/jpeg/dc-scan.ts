import { ImageFault } from "../fault.ts";
import type { ByteCursor } from "../reader.ts";
import { BitReader, type HuffmanTable } from "./entropy.ts";
import { type Frame, type Scan, ZIGZAG } from "./segments.ts";

/**
 * One component's coefficients: `rows` block rows of `width` blocks, block row `y` kept at `y % rows`,
 * so the same lane serves as a band of one MCU row or as the component's whole plane. Each block keeps
 * its `size` × `size` lowest-frequency coefficients in natural order (size 1: its DC value alone).
 */
export type BlockLane = { h: number; v: number; width: number; rows: number; size: number; values: Int16Array };

/** The Huffman tables and restart interval in force when a scan starts. */
export type ScanTables = {
	dc: (HuffmanTable | undefined)[];
	ac: (HuffmanTable | undefined)[];
	restartInterval: number;
};

/** The largest DC magnitude category an 8-bit JPEG can code. */
const MAX_DC_CATEGORY = 11;
/** The largest AC magnitude category an 8-bit JPEG can code. */
export const MAX_AC_CATEGORY = 10;
/**
 * Bytes made available before each MCU: more than its largest coding (10 blocks of 64 coefficients at
 * 26 bits, every byte stuffed), so a unit never meets the end of the window mid-way and need not be
 * retried (a refinement changes its block in place and could not be).
 */
const MCU_SLACK_BYTES = 16 * 1024;

type Entry = { lane: BlockLane; dcTable: HuffmanTable; acTable: HuffmanTable | undefined };

function truncatedData(): ImageFault {
	return new ImageFault("truncated", "The JPEG's image data ends before its last block.");
}

/** Where coefficient k (zig-zag order) goes in a size × size block, or -1 when the block does not keep it. */
export function keptPositions(size: number): Int8Array {
	return Int8Array.from(ZIGZAG, (natural) => {
		const row = natural >> 3;
		const column = natural & 7;
		return row < size && column < size ? row * size + column : -1;
	});
}

/** Where block (x, y) of a lane starts in its values. */
export function blockAt(lane: BlockLane, x: number, y: number): number {
	return ((y % lane.rows) * lane.width + x) * lane.size * lane.size;
}

/**
 * Walks a scan's MCUs in order, making the next bytes available before each and passing restart
 * markers: `unit` decodes MCU (column, row), `restart` resets the predictions at each marker, and
 * `onRow` runs after each row of MCUs. A scan of one component walks that component's own blocks.
 */
export async function walkScan(
	reader: ByteCursor,
	frame: Frame,
	lanes: BlockLane[],
	restartInterval: number,
	unit: (bits: BitReader, column: number, row: number) => void,
	restart: () => void,
	onRow: (row: number) => void,
): Promise<void> {
	const single = lanes.length === 1 ? lanes[0] : undefined;
	let columns = Math.ceil(frame.widthPx / (8 * frame.hMax));
	let rows = Math.ceil(frame.heightPx / (8 * frame.vMax));
	if (single !== undefined) {
		columns = Math.ceil(Math.ceil((frame.widthPx * single.h) / frame.hMax) / 8);
		rows = Math.ceil(Math.ceil((frame.heightPx * single.v) / frame.vMax) / 8);
	}
	const bits = new BitReader(reader);
	let endInWindow = false;
	let mcu = 0;
	for (let row = 0; row < rows; row++) {
		for (let column = 0; column < columns; column++, mcu++) {
			if (restartInterval > 0 && mcu > 0 && mcu % restartInterval === 0) {
				bits.reset();
				restart();
				await passRestartMarker(reader);
			}
			if (!endInWindow && reader.window.length - reader.position < MCU_SLACK_BYTES && !reader.atFileEnd) {
				// Reading on is needed only while the scan's end is not yet in the window.
				endInWindow = scanEndInWindow(reader);
				if (!endInWindow) await reader.ensure(MCU_SLACK_BYTES);
			}
			unit(bits, column, row);
			if (bits.overran) throw truncatedData();
		}
		onRow(row);
	}
}

/**
 * Decodes the DC coefficients of one scan (sequential, or a progressive first DC scan) into the lanes
 * of its components. A sequential scan's AC coefficients are kept up to what each lane's block holds
 * and walked past beyond it (all of them, unread, for a lane of DC values alone). `onRow` is called
 * after each row of MCUs, once its blocks are in the lanes.
 */
export async function decodeDcScan(
	reader: ByteCursor,
	frame: Frame,
	scan: Scan,
	tables: ScanTables,
	lanes: BlockLane[],
	onRow: (row: number) => void,
): Promise<void> {
	const entries = scanEntries(frame, scan, tables, lanes);
	const single = entries.length === 1 ? entries[0] : undefined;
	const predictions = new Int32Array(entries.length);
	const shift = scan.approximationLow;
	const positions = entries.map(({ lane }) => keptPositions(lane.size));
	await walkScan(
		reader,
		frame,
		entries.map((entry) => entry.lane),
		tables.restartInterval,
		(bits, column, row) => {
			if (single !== undefined) decodeBlock(bits, single, positions[0], predictions, 0, column, row, shift);
			else decodeMcu(bits, entries, positions, predictions, column, row, shift);
		},
		() => predictions.fill(0),
		onRow,
	);
}

function scanEntries(frame: Frame, scan: Scan, tables: ScanTables, lanes: BlockLane[]): Entry[] {
	if (scan.approximationLow > 13)
		throw new ImageFault("corrupt_header", "The JPEG's scan has an impossible point shift.");
	const blocks = scan.components.reduce((sum, { index }) => {
		const component = frame.components[index];
		return sum + (component === undefined ? 0 : component.h * component.v);
	}, 0);
	if (scan.components.length > 1 && blocks > 10) {
		throw new ImageFault("corrupt_header", "The JPEG's MCU holds more than the 10 blocks the standard allows.");
	}
	return scan.components.map(({ index, dcTable, acTable }) => {
		const lane = lanes[index];
		const dc = tables.dc[dcTable];
		const ac = frame.progressive ? undefined : tables.ac[acTable];
		if (lane === undefined || dc === undefined || (!frame.progressive && ac === undefined)) {
			throw new ImageFault("corrupt_header", "The JPEG's scan uses a Huffman table it never defines.");
		}
		return { lane, dcTable: dc, acTable: ac };
	});
}

/** One MCU of an interleaved scan: each component's h × v blocks in turn. */
function decodeMcu(
	bits: BitReader,
	entries: Entry[],
	positions: Int8Array[],
	predictions: Int32Array,
	column: number,
	row: number,
	shift: number,
): void {
	for (let index = 0; index < entries.length; index++) {
		const entry = entries[index];
		if (entry === undefined) continue;
		const { h, v } = entry.lane;
		for (let y = 0; y < v; y++) {
			for (let x = 0; x < h; x++) {
				decodeBlock(bits, entry, positions[index], predictions, index, column * h + x, row * v + y, shift);
			}
		}
	}
}

/** One block: its DC value kept in the lane at (x, y), its AC coefficients kept as far as the lane holds them. */
function decodeBlock(
	bits: BitReader,
	entry: Entry,
	positions: Int8Array | undefined,
	predictions: Int32Array,
	index: number,
	x: number,
	y: number,
	shift: number,
): void {
	const category = bits.decode(entry.dcTable);
	if (category > MAX_DC_CATEGORY) throw new ImageFault("corrupt_data", "The JPEG has an impossible DC value.");
	const prediction = (predictions[index] ?? 0) + bits.receiveExtended(category);
	predictions[index] = prediction;
	const lane = entry.lane;
	const at = blockAt(lane, x, y);
	lane.values[at] = prediction * (1 << shift);
	if (entry.acTable === undefined) return;
	if (lane.size === 1 || positions === undefined) {
		readAc(bits, entry.acTable, lane.values, at, NONE_KEPT);
		return;
	}
	lane.values.fill(0, at + 1, at + lane.size * lane.size);
	readAc(bits, entry.acTable, lane.values, at, positions);
}

/** No AC coefficient kept: a DC-only decode walks past them all. */
const NONE_KEPT = new Int8Array(64).fill(-1);

/**
 * Walks a block's 63 AC coefficients' codes and extra bits, keeping those that have a place in
 * `positions` (zig-zag k → index in the block at `at`) and skipping the rest without decoding them.
 */
function readAc(bits: BitReader, table: HuffmanTable, values: Int16Array, at: number, positions: Int8Array): void {
	for (let k = 1; k < 64; ) {
		const symbol = bits.decode(table);
		const run = symbol >> 4;
		const size = symbol & 15;
		if (size === 0) {
			if (run !== 15) return;
			k += 16;
			continue;
		}
		if (size > MAX_AC_CATEGORY) throw new ImageFault("corrupt_data", "The JPEG has an impossible AC value.");
		k += run;
		if (k > 63) throw new ImageFault("corrupt_data", "The JPEG has a block with more than 64 coefficients.");
		const position = positions[k] ?? -1;
		if (position >= 0) values[at + position] = bits.receiveExtended(size);
		else bits.skipBits(size);
		k++;
	}
}

/** Whether a marker ending the scan (not a restart marker, not a stuffed 0xFF) is in the window ahead. */
function scanEndInWindow(reader: ByteCursor): boolean {
	const window = reader.window;
	for (let at = reader.position; at + 1 < window.length; at++) {
		if (window[at] !== 0xff) continue;
		const next = window[at + 1] ?? 0;
		if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) return true;
	}
	return false;
}

/** Finds the restart marker the encoder put after an interval, past any padding. */
async function passRestartMarker(reader: ByteCursor): Promise<void> {
	for (;;) {
		if (!(await reader.ensure(2))) throw truncatedData();
		const byte = reader.window[reader.position];
		const next = reader.window[reader.position + 1] ?? 0;
		if (byte !== 0xff || next === 0x00 || next === 0xff) {
			reader.position += byte === 0xff && next === 0x00 ? 2 : 1;
			continue;
		}
		if (next >= 0xd0 && next <= 0xd7) {
			reader.position += 2;
			return;
		}
		throw truncatedData();
	}
}

/**
 * Moves past the rest of a scan's entropy-coded data (stuffed bytes and restart markers included) to
 * the next marker, reading it chunk by chunk without decoding it.
 */
export async function skipScanData(reader: ByteCursor): Promise<void> {
	for (;;) {
		const window = reader.window;
		let at = reader.position;
		while (at + 1 < window.length) {
			if (window[at] === 0xff) {
				const next = window[at + 1] ?? 0;
				if (next !== 0x00 && next !== 0xff && (next < 0xd0 || next > 0xd7)) {
					reader.position = at;
					return;
				}
			}
			at++;
		}
		reader.position = at;
		if (!(await reader.refill())) throw truncatedData();
	}
}
