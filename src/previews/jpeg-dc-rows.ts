import { BitReader, type ChunkedReader, type HuffmanTable, WindowExhausted } from "./jpeg-entropy.ts";
import type { Frame, Scan } from "./jpeg-segments.ts";
import { type RasterSink, UndecodableImage } from "./raster.ts";

/** Everything the first scan's decoding needs from the headers. */
export type ScanSetup = {
	frame: Frame;
	scan: Scan;
	dcSteps: Int32Array;
	dc: (HuffmanTable | undefined)[];
	ac: (HuffmanTable | undefined)[];
	restartInterval: number;
	adobe: number | undefined;
};

/** How the decoded components become RGB. */
type ColorModel = "gray" | "ycbcr" | "rgb" | "cmyk" | "inverted-cmyk" | "ycck";

/** One scan component's tables and its band of DC values (one MCU row). */
type Lane = {
	dcTable: HuffmanTable;
	acTable: HuffmanTable | undefined;
	h: number;
	v: number;
	step: number;
	bandWidth: number;
	band: Int32Array;
};

/** The largest DC magnitude category an 8-bit JPEG can code. */
const MAX_DC_CATEGORY = 11;
/** The largest AC magnitude category an 8-bit JPEG can code. */
const MAX_AC_CATEGORY = 10;

/**
 * Decodes the first scan's DC coefficients one MCU row at a time and hands each row of block means
 * to the sink as RGB. The scan must carry every component (an interleaved scan, or a gray image).
 */
export async function jpegDcRows(reader: ChunkedReader, sink: RasterSink, setup: ScanSetup): Promise<void> {
	const { frame, scan } = setup;
	checkScan(setup);
	const model = colorModel(frame, setup.adobe);
	const mcusPerLine = Math.ceil(frame.widthPx / (8 * frame.hMax));
	const mcuRows = Math.ceil(frame.heightPx / (8 * frame.vMax));
	const outWidth = Math.ceil(frame.widthPx / 8);
	const outHeight = Math.ceil(frame.heightPx / 8);
	const lanes: Lane[] = frame.components.map((component, index) => {
		const inScan = scan.components.find((entry) => entry.index === index);
		const dcTable = inScan === undefined ? undefined : setup.dc[inScan.dcTable];
		if (inScan === undefined || dcTable === undefined) {
			throw new UndecodableImage("corrupt", "The JPEG's scan uses a Huffman table it never defines.");
		}
		const acTable = frame.progressive ? undefined : setup.ac[inScan.acTable];
		if (!frame.progressive && acTable === undefined) {
			throw new UndecodableImage("corrupt", "The JPEG's scan uses a Huffman table it never defines.");
		}
		const bandWidth = mcusPerLine * component.h;
		return {
			dcTable,
			acTable,
			h: component.h,
			v: component.v,
			step: setup.dcSteps[component.quantTable] ?? 0,
			bandWidth,
			band: new Int32Array(bandWidth * component.v),
		};
	});
	// Lanes in the scan's order: the order the blocks come in each MCU.
	const order = scan.components.map((entry) => lanes[entry.index]).filter((lane) => lane !== undefined);
	const bits = new BitReader(reader);
	const predictions = new Int32Array(order.length);
	const saved = new Int32Array(order.length);
	const shift = scan.approximationLow;
	const rgb = new Uint8Array(outWidth * frame.vMax * 3);
	sink.start(outWidth, outHeight);
	let mcu = 0;
	for (let row = 0; row < mcuRows; row++) {
		for (let column = 0; column < mcusPerLine; column++, mcu++) {
			if (setup.restartInterval > 0 && mcu > 0 && mcu % setup.restartInterval === 0) {
				bits.reset();
				predictions.fill(0);
				await passRestartMarker(reader);
			}
			for (;;) {
				const state = bits.save();
				saved.set(predictions);
				try {
					decodeMcu(bits, order, predictions, column, shift);
					break;
				} catch (error) {
					if (!(error instanceof WindowExhausted)) throw error;
					bits.restore(state);
					predictions.set(saved);
					if (!(await reader.refill())) throw error;
				}
			}
			if (bits.overran) {
				throw new UndecodableImage("truncated", "The JPEG's image data ends before its last block.");
			}
		}
		const firstRow = row * frame.vMax;
		const count = Math.min(frame.vMax, outHeight - firstRow);
		writeRows(lanes, model, frame, outWidth, count, rgb);
		sink.rows(firstRow, count, rgb.subarray(0, outWidth * count * 3));
	}
}

function checkScan(setup: ScanSetup): void {
	const { frame, scan } = setup;
	if (scan.components.length !== frame.components.length) {
		throw new UndecodableImage(
			"unsupported_variant",
			"The JPEG's first scan does not carry every component; only interleaved first scans are read.",
		);
	}
	if (frame.progressive && (scan.spectralStart !== 0 || scan.spectralEnd !== 0 || scan.approximationHigh !== 0)) {
		throw new UndecodableImage("corrupt", "The progressive JPEG's first scan is not a first DC scan.");
	}
	const blocks = frame.components.reduce((sum, component) => sum + component.h * component.v, 0);
	if (frame.components.length > 1 && blocks > 10) {
		throw new UndecodableImage("corrupt", "The JPEG's MCU holds more than the 10 blocks the standard allows.");
	}
	if (scan.approximationLow > 13)
		throw new UndecodableImage("corrupt", "The JPEG's scan has an impossible point shift.");
}

/** One MCU: each lane's h × v blocks, DC kept, AC codes walked past. */
function decodeMcu(bits: BitReader, order: Lane[], predictions: Int32Array, column: number, shift: number): void {
	for (let index = 0; index < order.length; index++) {
		const lane = order[index];
		if (lane === undefined) continue;
		for (let y = 0; y < lane.v; y++) {
			const rowAt = y * lane.bandWidth + column * lane.h;
			for (let x = 0; x < lane.h; x++) {
				const category = bits.decode(lane.dcTable);
				if (category > MAX_DC_CATEGORY) throw new UndecodableImage("corrupt", "The JPEG has an impossible DC value.");
				const prediction = (predictions[index] ?? 0) + bits.receiveExtended(category);
				predictions[index] = prediction;
				lane.band[rowAt + x] = prediction * (1 << shift);
				if (lane.acTable !== undefined) skipAc(bits, lane.acTable);
			}
		}
	}
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
		if (!(await reader.ensure(2))) {
			throw new UndecodableImage("truncated", "The JPEG's image data ends before its last block.");
		}
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
		throw new UndecodableImage("truncated", "The JPEG's image data ends before its last block.");
	}
}

function colorModel(frame: Frame, adobe: number | undefined): ColorModel {
	const count = frame.components.length;
	if (count === 1) return "gray";
	if (count === 3) {
		const ids = frame.components.map((component) => String.fromCharCode(component.id)).join("");
		return adobe === 0 || (adobe === undefined && ids === "RGB") ? "rgb" : "ycbcr";
	}
	if (adobe === 2) return "ycck";
	return adobe === undefined ? "cmyk" : "inverted-cmyk";
}

/** A block's mean sample from its DC coefficient: DC × step is 8 × (mean − 128). */
function sample(lane: Lane, index: number): number {
	const value = ((lane.band[index] ?? 0) * lane.step) / 8 + 128;
	return Math.max(0, Math.min(255, value));
}

function clamp(value: number): number {
	return Math.max(0, Math.min(255, Math.round(value)));
}

/** The band's `count` output rows as RGB, chroma of subsampled components repeated over its blocks. */
function writeRows(lanes: Lane[], model: ColorModel, frame: Frame, width: number, count: number, rgb: Uint8Array) {
	const values = new Float64Array(4);
	let out = 0;
	for (let y = 0; y < count; y++) {
		for (let x = 0; x < width; x++) {
			for (let c = 0; c < lanes.length; c++) {
				const lane = lanes[c];
				if (lane === undefined) continue;
				const by = Math.floor((y * lane.v) / frame.vMax);
				const bx = Math.floor((x * lane.h) / frame.hMax);
				values[c] = sample(lane, by * lane.bandWidth + bx);
			}
			out = toRgb(model, values, rgb, out);
		}
	}
}

function toRgb(model: ColorModel, values: Float64Array, rgb: Uint8Array, at: number): number {
	const [a = 0, b = 0, c = 0, k = 0] = values;
	let red = a;
	let green = a;
	let blue = a;
	if (model === "rgb") {
		green = b;
		blue = c;
	} else if (model === "ycbcr" || model === "ycck") {
		red = a + 1.402 * (c - 128);
		green = a - 0.344136 * (b - 128) - 0.714136 * (c - 128);
		blue = a + 1.772 * (b - 128);
		if (model === "ycck") {
			// YCCK holds the inverted CMY as YCbCr: the colour conversion gives 255 − stored value.
			red = ((255 - clamp(red)) * k) / 255;
			green = ((255 - clamp(green)) * k) / 255;
			blue = ((255 - clamp(blue)) * k) / 255;
		}
	} else if (model === "inverted-cmyk") {
		red = (a * k) / 255;
		green = (b * k) / 255;
		blue = (c * k) / 255;
	} else if (model === "cmyk") {
		red = ((255 - a) * (255 - k)) / 255;
		green = ((255 - b) * (255 - k)) / 255;
		blue = ((255 - c) * (255 - k)) / 255;
	}
	rgb[at] = clamp(red);
	rgb[at + 1] = clamp(green);
	rgb[at + 2] = clamp(blue);
	return at + 3;
}
