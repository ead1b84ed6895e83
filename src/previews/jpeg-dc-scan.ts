import { BitReader, type ChunkedReader, type HuffmanTable, WindowExhausted } from "./jpeg-entropy.ts";
import type { Frame, Scan } from "./jpeg-segments.ts";
import { UndecodableImage } from "./raster.ts";

/**
 * One component's DC values: `rows` block rows of `width` blocks, block row `y` kept at `y % rows`,
 * so the same lane serves as a band of one MCU row or as the component's whole plane.
 */
export type DcLane = { h: number; v: number; width: number; rows: number; values: Int16Array };

/** The Huffman tables and restart interval in force when a scan starts. */
export type ScanTables = {
	dc: (HuffmanTable | undefined)[];
	ac: (HuffmanTable | undefined)[];
	restartInterval: number;
};

/** The largest DC magnitude category an 8-bit JPEG can code. */
const MAX_DC_CATEGORY = 11;
/** The largest AC magnitude category an 8-bit JPEG can code. */
const MAX_AC_CATEGORY = 10;

type Entry = { lane: DcLane; dcTable: HuffmanTable; acTable: HuffmanTable | undefined };

function truncatedData(): UndecodableImage {
	return new UndecodableImage("truncated", "The JPEG's image data ends before its last block.");
}

/**
 * Decodes the DC coefficients of one scan (baseline, or a progressive first DC scan) into the lanes
 * of its components, walking AC codes past unread. `onRow` is called after each row of MCUs, once
 * its DC values are in the lanes.
 */
export async function decodeDcScan(
	reader: ChunkedReader,
	frame: Frame,
	scan: Scan,
	tables: ScanTables,
	lanes: DcLane[],
	onRow: (row: number) => void,
): Promise<void> {
	const entries = scanEntries(frame, scan, tables, lanes);
	const interleaved = entries.length > 1;
	const single = entries[0];
	let columns = Math.ceil(frame.widthPx / (8 * frame.hMax));
	let rows = Math.ceil(frame.heightPx / (8 * frame.vMax));
	if (!interleaved && single !== undefined) {
		// A scan of one component covers that component's own blocks, one block an MCU.
		columns = Math.ceil(Math.ceil((frame.widthPx * single.lane.h) / frame.hMax) / 8);
		rows = Math.ceil(Math.ceil((frame.heightPx * single.lane.v) / frame.vMax) / 8);
	}
	const bits = new BitReader(reader);
	const predictions = new Int32Array(entries.length);
	const saved = new Int32Array(entries.length);
	const shift = scan.approximationLow;
	let mcu = 0;
	for (let row = 0; row < rows; row++) {
		for (let column = 0; column < columns; column++, mcu++) {
			if (tables.restartInterval > 0 && mcu > 0 && mcu % tables.restartInterval === 0) {
				bits.reset();
				predictions.fill(0);
				await passRestartMarker(reader);
			}
			for (;;) {
				const state = bits.save();
				saved.set(predictions);
				try {
					if (interleaved) decodeMcu(bits, entries, predictions, column, row, shift);
					else if (single !== undefined) decodeBlock(bits, single, predictions, 0, column, row, shift);
					break;
				} catch (error) {
					if (!(error instanceof WindowExhausted)) throw error;
					bits.restore(state);
					predictions.set(saved);
					if (!(await reader.refill())) throw truncatedData();
				}
			}
			if (bits.overran) throw truncatedData();
		}
		onRow(row);
	}
}

function scanEntries(frame: Frame, scan: Scan, tables: ScanTables, lanes: DcLane[]): Entry[] {
	if (scan.approximationLow > 13)
		throw new UndecodableImage("corrupt", "The JPEG's scan has an impossible point shift.");
	const blocks = scan.components.reduce((sum, { index }) => {
		const component = frame.components[index];
		return sum + (component === undefined ? 0 : component.h * component.v);
	}, 0);
	if (scan.components.length > 1 && blocks > 10) {
		throw new UndecodableImage("corrupt", "The JPEG's MCU holds more than the 10 blocks the standard allows.");
	}
	return scan.components.map(({ index, dcTable, acTable }) => {
		const lane = lanes[index];
		const dc = tables.dc[dcTable];
		const ac = frame.progressive ? undefined : tables.ac[acTable];
		if (lane === undefined || dc === undefined || (!frame.progressive && ac === undefined)) {
			throw new UndecodableImage("corrupt", "The JPEG's scan uses a Huffman table it never defines.");
		}
		return { lane, dcTable: dc, acTable: ac };
	});
}

/** One MCU of an interleaved scan: each component's h × v blocks in turn. */
function decodeMcu(
	bits: BitReader,
	entries: Entry[],
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
			for (let x = 0; x < h; x++) decodeBlock(bits, entry, predictions, index, column * h + x, row * v + y, shift);
		}
	}
}

/** One block: its DC difference kept in the lane at (x, y), its AC codes walked past. */
function decodeBlock(
	bits: BitReader,
	entry: Entry,
	predictions: Int32Array,
	index: number,
	x: number,
	y: number,
	shift: number,
): void {
	const category = bits.decode(entry.dcTable);
	if (category > MAX_DC_CATEGORY) throw new UndecodableImage("corrupt", "The JPEG has an impossible DC value.");
	const prediction = (predictions[index] ?? 0) + bits.receiveExtended(category);
	predictions[index] = prediction;
	const lane = entry.lane;
	lane.values[(y % lane.rows) * lane.width + x] = prediction * (1 << shift);
	if (entry.acTable !== undefined) skipAc(bits, entry.acTable);
}

/** Walks a block's 63 AC coefficients' codes and extra bits without keeping them. */
function skipAc(bits: BitReader, table: HuffmanTable): void {
	for (let k = 1; k < 64; ) {
		const symbol = bits.decode(table);
		const run = symbol >> 4;
		const size = symbol & 15;
		if (size === 0) {
			if (run !== 15) return;
			k += 16;
			continue;
		}
		if (size > MAX_AC_CATEGORY) throw new UndecodableImage("corrupt", "The JPEG has an impossible AC value.");
		k += run + 1;
		if (k > 64) throw new UndecodableImage("corrupt", "The JPEG has a block with more than 64 coefficients.");
		bits.skipBits(size);
	}
}

/** Finds the restart marker the encoder put after an interval, past any padding. */
async function passRestartMarker(reader: ChunkedReader): Promise<void> {
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
export async function skipScanData(reader: ChunkedReader): Promise<void> {
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
