/**
 * JPEGs written byte by byte whose blocks are flat (a DC value each, optional AC noise that does not
 * move the mean), so a DC decoder's output is known exactly: baseline or progressive, any sampling,
 * restart intervals, Adobe's APP14 and an EXIF orientation.
 */
import { ascii, concat, u16be } from "../fixtures/bytes.ts";
import { jpegSegment } from "../fixtures/jpeg.ts";
import type { SparseFile } from "../fixtures/sparse-file.ts";

/** One component: its sampling factors and the DC value of block (x, y) in its own block grid. */
export type DcComponent = { id: number; h: number; v: number; dc: (x: number, y: number) => number };

export type DcJpegSpec = {
	width: number;
	height: number;
	components: DcComponent[];
	/** The DC quantisation step (default 8, so a block's mean is 128 + its DC value). */
	step?: number;
	restartInterval?: number;
	/** Adobe's APP14 colour transform byte; no APP14 when absent. */
	adobe?: number;
	/** An APP1 EXIF segment's body. */
	exif?: Uint8Array;
	/** Writes AC codes (runs, sizes, ZRL, EOB) after each DC, which a DC decoder must skip. */
	acNoise?: boolean;
	/** The quantisation step of every AC coefficient (default 1). */
	acStep?: number;
	/** SOF2 with a first DC scan at this point shift, then `trailingBytes` of a second scan. */
	progressive?: { shift: number; trailingBytes: number };
	/** One scan a component (progressive: the first component's AC scan comes between its DC scans). */
	separateScans?: boolean;
};

/** The DC table: categories 0 to 11, a 4-bit code each. */
const DC_COUNTS = Uint8Array.from({ length: 16 }, (_, index) => (index === 3 ? 12 : 0));
const DC_VALUES = Uint8Array.from({ length: 12 }, (_, index) => index);
/** The AC table: EOB, ZRL and every (run, size), the first 100 with 8-bit codes and the rest with 12-bit ones. */
const AC_SYMBOLS = [
	0x00,
	0xf0,
	...Array.from({ length: 160 }, (_, index) => ((index % 16) << 4) | (Math.floor(index / 16) + 1)),
];
const AC_COUNTS = Uint8Array.from({ length: 16 }, (_, index) => (index === 7 ? 100 : index === 11 ? 62 : 0));

/** Canonical codes for a DHT's counts and values: symbol → [code, length]. */
function canonicalCodes(counts: Uint8Array, values: readonly number[]): Map<number, [number, number]> {
	const codes = new Map<number, [number, number]>();
	let code = 0;
	let index = 0;
	for (let length = 1; length <= 16; length++) {
		for (let n = 0; n < (counts[length - 1] ?? 0); n++) codes.set(values[index++] ?? 0, [code++, length]);
		code <<= 1;
	}
	return codes;
}

const DC_CODES = canonicalCodes(DC_COUNTS, [...DC_VALUES]);
const AC_CODES = canonicalCodes(AC_COUNTS, AC_SYMBOLS);

/** Writes bits MSB first, stuffing a 0x00 after each 0xFF. */
class BitWriter {
	readonly bytes: number[] = [];
	#bits = 0;
	#count = 0;

	write(value: number, length: number): void {
		for (let bit = length - 1; bit >= 0; bit--) {
			this.#bits = (this.#bits << 1) | ((value >> bit) & 1);
			this.#count++;
			if (this.#count === 8) this.#flushByte();
		}
	}

	/** Pads the last byte with ones, as encoders do. */
	pad(): void {
		while (this.#count !== 0) this.write(1, 1);
	}

	raw(...bytes: number[]): void {
		this.bytes.push(...bytes);
	}

	#flushByte(): void {
		this.bytes.push(this.#bits);
		if (this.#bits === 0xff) this.bytes.push(0);
		this.#bits = 0;
		this.#count = 0;
	}
}

function writeCode(writer: BitWriter, codes: Map<number, [number, number]>, symbol: number): void {
	const code = codes.get(symbol);
	if (code === undefined) throw new Error(`no code for ${symbol}`);
	writer.write(code[0], code[1]);
}

function category(value: number): number {
	let magnitude = Math.abs(value);
	let size = 0;
	while (magnitude > 0) {
		size++;
		magnitude >>= 1;
	}
	return size;
}

function writeValue(writer: BitWriter, value: number, size: number): void {
	writer.write(value >= 0 ? value : value + (1 << size) - 1, size);
}

/** AC coefficients that use runs, ZRL, 8- and 12-bit codes and extra bits, then EOB. */
function writeAcNoise(writer: BitWriter, seed: number): void {
	let k = 1;
	for (const [run, value] of [
		[0, 3 + (seed % 5)],
		[15, 0],
		[5, -(1 + (seed % 200))],
		[9, 1000],
	] as const) {
		if (value === 0) {
			writeCode(writer, AC_CODES, 0xf0);
			k += 16;
			continue;
		}
		const size = category(value);
		writeCode(writer, AC_CODES, (run << 4) | size);
		writeValue(writer, value, size);
		k += run + 1;
	}
	if (k < 64) writeCode(writer, AC_CODES, 0x00);
}

/** A complete JPEG for `spec`. */
export function dcJpeg(spec: DcJpegSpec): Uint8Array {
	const progressive = spec.progressive;
	const junkScan = () =>
		concat(
			// A scan (the first component's AC) that a DC decoder never needs to read.
			jpegSegment(0xda, Uint8Array.of(1, spec.components[0]?.id ?? 1, 0x00, 1, 63, 0)),
			Uint8Array.from({ length: progressive?.trailingBytes ?? 0 }, (_, index) => index % 251),
		);
	const segments: Uint8Array[] = [dcJpegHeader(spec)];
	if (spec.separateScans === true) {
		spec.components.forEach((component, index) => {
			if (index > 0) segments.push(jpegSegment(0xda, scanHeader(spec, [component])));
			segments.push(scanData(spec, [component]));
			if (index === 0 && progressive !== undefined) segments.push(junkScan());
		});
	} else {
		segments.push(scanData(spec, spec.components));
		if (progressive !== undefined) segments.push(junkScan());
	}
	segments.push(Uint8Array.of(0xff, 0xd9));
	return concat(...segments);
}

/** The entropy-coded data of a scan of `components` (interleaved when more than one). */
function scanData(spec: DcJpegSpec, components: DcComponent[]): Uint8Array {
	const single = spec.components.length === 1;
	const hMax = Math.max(...spec.components.map((component) => (single ? 1 : component.h)));
	const vMax = Math.max(...spec.components.map((component) => (single ? 1 : component.v)));
	const only = components.length === 1 ? components[0] : undefined;
	// One component a scan: its own block grid, one block an MCU.
	const columns =
		only === undefined
			? Math.ceil(spec.width / (8 * hMax))
			: Math.ceil(Math.ceil((spec.width * (single ? 1 : only.h)) / hMax) / 8);
	const rows =
		only === undefined
			? Math.ceil(spec.height / (8 * vMax))
			: Math.ceil(Math.ceil((spec.height * (single ? 1 : only.v)) / vMax) / 8);
	const progressive = spec.progressive;
	const shift = progressive?.shift ?? 0;
	const writer = new BitWriter();
	const predictions = components.map(() => 0);
	let mcu = 0;
	for (let row = 0; row < rows; row++) {
		for (let column = 0; column < columns; column++, mcu++) {
			const interval = spec.restartInterval ?? 0;
			if (interval > 0 && mcu > 0 && mcu % interval === 0) {
				writer.pad();
				writer.raw(0xff, 0xd0 + ((mcu / interval - 1) % 8));
				predictions.fill(0);
			}
			components.forEach((component, index) => {
				const h = only !== undefined ? 1 : component.h;
				const v = only !== undefined ? 1 : component.v;
				for (let y = 0; y < v; y++) {
					for (let x = 0; x < h; x++) {
						const value = component.dc(column * h + x, row * v + y) >> shift;
						const diff = value - (predictions[index] ?? 0);
						predictions[index] = value;
						const size = category(diff);
						writeCode(writer, DC_CODES, size);
						writeValue(writer, diff, size);
						if (progressive === undefined) {
							if (spec.acNoise === true) writeAcNoise(writer, column + row + x + y);
							else writeCode(writer, AC_CODES, 0x00);
						}
					}
				}
			});
		}
	}
	writer.pad();
	return Uint8Array.from(writer.bytes);
}

function scanHeader(spec: DcJpegSpec, components: DcComponent[]): Uint8Array {
	return concat(
		Uint8Array.of(components.length),
		...components.map((component) => Uint8Array.of(component.id, 0x00)),
		Uint8Array.of(0, spec.progressive === undefined ? 63 : 0, spec.progressive?.shift ?? 0),
	);
}

/** Everything before the entropy-coded data of `spec`'s first scan: SOI up to and including its SOS. */
export function dcJpegHeader(spec: DcJpegSpec): Uint8Array {
	const step = spec.step ?? 8;
	const progressive = spec.progressive;
	const quant = concat(
		Uint8Array.of(0),
		Uint8Array.from({ length: 64 }, (_, index) => (index === 0 ? step : (spec.acStep ?? 1))),
	);
	const frame = concat(
		Uint8Array.of(8),
		u16be(spec.height),
		u16be(spec.width),
		Uint8Array.of(spec.components.length),
		...spec.components.map((component) => Uint8Array.of(component.id, (component.h << 4) | component.v, 0)),
	);
	const segments: Uint8Array[] = [Uint8Array.of(0xff, 0xd8)];
	segments.push(jpegSegment(0xe0, concat(ascii("JFIF\0"), Uint8Array.of(1, 1, 0, 0, 1, 0, 1, 0, 0))));
	if (spec.exif !== undefined) segments.push(jpegSegment(0xe1, spec.exif));
	if (spec.adobe !== undefined) {
		segments.push(jpegSegment(0xee, concat(ascii("Adobe"), u16be(100), u16be(0), u16be(0), Uint8Array.of(spec.adobe))));
	}
	segments.push(jpegSegment(0xdb, quant));
	segments.push(jpegSegment(progressive === undefined ? 0xc0 : 0xc2, frame));
	segments.push(jpegSegment(0xc4, concat(Uint8Array.of(0x00), DC_COUNTS, DC_VALUES)));
	segments.push(jpegSegment(0xc4, concat(Uint8Array.of(0x10), AC_COUNTS, Uint8Array.from(AC_SYMBOLS))));
	if (spec.restartInterval !== undefined) segments.push(jpegSegment(0xdd, u16be(spec.restartInterval)));
	const first = spec.separateScans === true ? spec.components.slice(0, 1) : spec.components;
	segments.push(jpegSegment(0xda, scanHeader(spec, first)));
	return concat(...segments);
}

/** An EXIF APP1 body whose IFD0 holds an orientation tag, in either byte order. */
export function exifWithOrientation(orientation: number, bigEndian = false): Uint8Array {
	const u16 = (value: number) => (bigEndian ? u16be(value) : Uint8Array.of(value & 0xff, value >> 8));
	const u32 = (value: number) =>
		bigEndian
			? Uint8Array.of(value >>> 24, (value >> 16) & 0xff, (value >> 8) & 0xff, value & 0xff)
			: Uint8Array.of(value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff, value >>> 24);
	return concat(
		ascii("Exif\0\0"),
		ascii(bigEndian ? "MM" : "II"),
		u16(42),
		u32(8),
		u16(2),
		concat(u16(0x010f), u16(2), u32(4), ascii("ACME")),
		concat(u16(0x0112), u16(3), u32(1), u16(orientation), u16(0)),
		u32(0),
	);
}

/**
 * A later scan of a progressive JPEG made by `dcJpeg` (SOS and data, with its AC table), for one
 * component of `blocks` blocks whose final coefficients `coefficient(block, k)` (zig-zag k) are coded
 * as libjpeg's progressive encoder does: a first AC scan of band `start`..`end` at point shift `shift`,
 * or (`refine`) the refinement from `shift + 1` to `shift`, its correction bits after each new value.
 */
export function progressiveAcScan(
	id: number,
	blocks: number,
	band: { start: number; end: number; shift: number; refine: boolean },
	coefficient: (block: number, k: number) => number,
): Uint8Array {
	const writer = new BitWriter();
	for (let block = 0; block < blocks; block++) {
		let run = 0;
		let corrections: number[] = [];
		for (let k = band.start; k <= band.end; k++) {
			const value = coefficient(block, k);
			const magnitude = Math.abs(value) >> band.shift;
			if (band.refine && Math.abs(value) >> (band.shift + 1) > 0) {
				corrections.push(magnitude & 1);
				continue;
			}
			if (magnitude === 0) {
				run++;
				continue;
			}
			while (run > 15) {
				writeCode(writer, AC_CODES, 0xf0);
				run -= 16;
			}
			const size = category(magnitude);
			writeCode(writer, AC_CODES, (run << 4) | size);
			writeValue(writer, value < 0 ? -magnitude : magnitude, size);
			for (const bit of corrections) writer.write(bit, 1);
			corrections = [];
			run = 0;
		}
		if (run > 0 || corrections.length > 0) {
			writeCode(writer, AC_CODES, 0x00);
			for (const bit of corrections) writer.write(bit, 1);
		}
	}
	writer.pad();
	const approximation = band.refine ? ((band.shift + 1) << 4) | band.shift : band.shift;
	return concat(
		jpegSegment(0xda, Uint8Array.of(1, id, 0x00, band.start, band.end, approximation)),
		Uint8Array.from(writer.bytes),
	);
}

/** A DC refinement scan of `components` (interleaved when more than one): bit `shift` of each block's DC value. */
export function dcRefinementScan(spec: DcJpegSpec, shift: number): Uint8Array {
	const writer = new BitWriter();
	const single = spec.components.length === 1;
	const hMax = Math.max(...spec.components.map((component) => (single ? 1 : component.h)));
	const vMax = Math.max(...spec.components.map((component) => (single ? 1 : component.v)));
	for (let row = 0; row < Math.ceil(spec.height / (8 * vMax)); row++) {
		for (let column = 0; column < Math.ceil(spec.width / (8 * hMax)); column++) {
			for (const component of spec.components) {
				const h = single ? 1 : component.h;
				const v = single ? 1 : component.v;
				for (let y = 0; y < v; y++) {
					for (let x = 0; x < h; x++) writer.write((component.dc(column * h + x, row * v + y) >> shift) & 1, 1);
				}
			}
		}
	}
	writer.pad();
	return concat(
		jpegSegment(
			0xda,
			concat(scanHeader(spec, spec.components).subarray(0, -3), Uint8Array.of(0, 0, ((shift + 1) << 4) | shift)),
		),
		Uint8Array.from(writer.bytes),
	);
}

/**
 * A 64 × 32 gray progressive JPEG as libjpeg writes one: DC at point shift 1, AC band 1 to 5 at shift 1,
 * band 6 to 63 in full, then band 1 to 5 refined (correction bits and newly nonzero values) and DC
 * refined. Its AC step (16) is large enough that a slip in any scan, a single correction bit included, shows.
 */
export function refinedProgressiveJpeg(): Uint8Array {
	const gray: DcJpegSpec = {
		width: 64,
		height: 32,
		components: [{ id: 1, h: 1, v: 1, dc: (x, y) => ((x * 29 + y * 53) % 121) - 60 }],
		progressive: { shift: 1, trailingBytes: 0 },
		acStep: 16,
	};
	const coefficient = (block: number, k: number): number => {
		if (k === 1) return ((block * 37) % 21) - 10;
		if (k === 2) return block % 3 === 0 ? (block % 2 === 0 ? 1 : -1) : 0;
		if (k === 3) return -((block % 7) + 2);
		if (k === 5) return block % 4 === 1 ? 0 : 9 - (block % 13);
		if (k === 10) return block % 2 === 1 ? 5 : 0;
		if (k === 40) return block === 3 ? -3 : 0;
		return 0;
	};
	const blocks = 8 * 4;
	return concat(
		progressiveDcScans(gray),
		progressiveAcScan(1, blocks, { start: 1, end: 5, shift: 1, refine: false }, coefficient),
		progressiveAcScan(1, blocks, { start: 6, end: 63, shift: 0, refine: false }, coefficient),
		progressiveAcScan(1, blocks, { start: 1, end: 5, shift: 0, refine: true }, coefficient),
		dcRefinementScan(gray, 0),
		Uint8Array.of(0xff, 0xd9),
	);
}

/**
 * A large gray JPEG of flat mid-gray blocks without allocating it: its header, zeros, EOI. Zero bits
 * code every block as a DC difference of 0 (4 bits) and, when sequential, an EOB (8 bits).
 */
export function flatGrayJpeg(width: number, height: number, progressive = false): SparseFile {
	const header = dcJpegHeader({
		width,
		height,
		components: [{ id: 1, h: 1, v: 1, dc: () => 0 }],
		...(progressive ? { progressive: { shift: 0, trailingBytes: 0 } } : {}),
	});
	const bitsPerBlock = progressive ? 4 : 12;
	const dataBytes = Math.ceil((Math.ceil(width / 8) * Math.ceil(height / 8) * bitsPerBlock) / 8);
	const size = header.length + dataBytes + 2;
	return {
		size,
		pieces: [
			{ offset: 0, bytes: header },
			{ offset: size - 2, bytes: Uint8Array.of(0xff, 0xd9) },
		],
	};
}

/** A progressive `dcJpeg` up to the end of its DC scan's data, for more scans and an EOI to follow. */
export function progressiveDcScans(spec: DcJpegSpec): Uint8Array {
	const bytes = dcJpeg({ ...spec, progressive: { shift: spec.progressive?.shift ?? 0, trailingBytes: 0 } });
	// dcJpeg ends in an empty AC scan's header (10 bytes) and EOI.
	return bytes.subarray(0, bytes.length - 12);
}
