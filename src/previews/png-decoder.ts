import type { ByteSource } from "../print-files/byte-source.ts";
import { PNG_SIGNATURE } from "../print-files/png.ts";
import { BoxAxis, thumbnailSize } from "./area-reducer.ts";
import { inflate } from "./inflate.ts";
import { BEST_RATIO, checkAgainstFile, checkSize } from "./limits.ts";
import { type Decoded, type RasterSink, UndecodableImage } from "./raster.ts";
import { READ_CHUNK, SequentialReader } from "./sequential-reader.ts";

/** Channels per colour type: gray, RGB, palette, gray + alpha, RGBA. */
const CHANNELS: Record<number, number> = { 0: 1, 2: 3, 3: 1, 4: 2, 6: 4 };
const DEPTHS: Record<number, readonly number[]> = {
	0: [1, 2, 4, 8, 16],
	2: [8, 16],
	3: [1, 2, 4, 8],
	4: [8, 16],
	6: [8, 16],
};

/** Adam7's passes: x start, y start, x step, y step. */
export const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
] as const;

type Header = { width: number; height: number; depth: number; colorType: number; interlaced: boolean };

/** How a scanline's samples become RGB: the palette and the transparency, when there are any. */
type Colours = { header: Header; palette: Uint8Array | null; alpha: Uint8Array | null; key: number[] | null };

/**
 * Decodes a PNG of any colour type and depth, interlaced or not, handing `sink` its rows in order
 * with transparency composited on white. Holds two scanlines (an interlaced PNG: the thumbnail's
 * sums instead), never the image.
 */
export async function decodePng(source: ByteSource, sink: RasterSink): Promise<Decoded> {
	const reader = new SequentialReader(source);
	const signature = await reader.exact(8);
	if (!PNG_SIGNATURE.every((byte, index) => signature[index] === byte)) {
		throw new UndecodableImage("corrupt", "The file does not start with the PNG signature.");
	}
	await expectHeaderChunk(reader);
	const header = readHeader(await reader.exact(17));
	let palette: Uint8Array | null = null;
	let transparency: Uint8Array | null = null;
	for (;;) {
		const { type, length } = await nextChunk(reader);
		if (type === "IDAT") {
			const colours = coloursOf(header, palette, transparency);
			await decodeImageData(reader, length, colours, sink, source.size);
			return { orientation: 1 };
		}
		if (type === "IEND") throw new UndecodableImage("corrupt", "The PNG has no image data (IDAT).");
		if ((type === "PLTE" || type === "tRNS") && length <= 768) {
			const data = await reader.exact(length);
			if (type === "PLTE") palette = data.slice();
			else transparency = data.slice();
			reader.skip(4);
		} else {
			reader.skip(length + 4);
		}
	}
}

async function nextChunk(reader: SequentialReader): Promise<{ type: string; length: number }> {
	const head = await reader.exact(8);
	const view = new DataView(head.buffer, head.byteOffset, 8);
	const length = view.getUint32(0);
	if (length > 0x7fffffff) throw new UndecodableImage("corrupt", "A PNG chunk declares an impossible length.");
	return { type: String.fromCharCode(...head.subarray(4, 8)), length };
}

async function expectHeaderChunk(reader: SequentialReader): Promise<void> {
	const { type, length } = await nextChunk(reader);
	if (type !== "IHDR" || length !== 13)
		throw new UndecodableImage("corrupt", "The PNG does not start with a 13-byte IHDR chunk.");
}

function readHeader(data: Uint8Array): Header {
	const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
	const width = view.getUint32(0);
	const height = view.getUint32(4);
	const depth = data[8] ?? 0;
	const colorType = data[9] ?? 0;
	const interlace = data[12] ?? 0;
	if ((DEPTHS[colorType] ?? []).includes(depth) === false || (data[10] ?? 0) !== 0 || (data[11] ?? 0) !== 0) {
		throw new UndecodableImage("corrupt", `The PNG declares colour type ${colorType} at ${depth} bits.`);
	}
	if (interlace > 1) throw new UndecodableImage("unsupported_variant", `PNG interlace method ${interlace}.`);
	checkSize(width, height);
	return { width, height, depth, colorType, interlaced: interlace === 1 };
}

function coloursOf(header: Header, palette: Uint8Array | null, transparency: Uint8Array | null): Colours {
	if (header.colorType === 3 && (palette === null || palette.length % 3 !== 0 || palette.length === 0)) {
		throw new UndecodableImage("corrupt", "The indexed PNG has no valid palette (PLTE) before its data.");
	}
	let key: number[] | null = null;
	if (transparency !== null && header.colorType === 0 && transparency.length >= 2) {
		key = [((transparency[0] ?? 0) << 8) | (transparency[1] ?? 0)];
	}
	if (transparency !== null && header.colorType === 2 && transparency.length >= 6) {
		key = [0, 2, 4].map((at) => ((transparency[at] ?? 0) << 8) | (transparency[at + 1] ?? 0));
	}
	return { header, palette, alpha: header.colorType === 3 ? transparency : null, key };
}

/** The IDAT chunks' data, one piece of at most 1 MiB at a time, across consecutive IDAT chunks. */
async function* imageData(reader: SequentialReader, firstLength: number): AsyncGenerator<Uint8Array> {
	let remaining = firstLength;
	for (;;) {
		while (remaining > 0) {
			const piece = await reader.next(Math.min(remaining, READ_CHUNK));
			remaining -= piece.length;
			yield piece;
		}
		reader.skip(4);
		const { type, length } = await nextChunk(reader);
		if (type !== "IDAT") return;
		remaining = length;
	}
}

/** Bytes of one scanline (without its filter byte) of a `width`-pixel row. */
function lineBytes(header: Header, width: number): number {
	return Math.ceil((width * (CHANNELS[header.colorType] ?? 1) * header.depth) / 8);
}

async function decodeImageData(
	reader: SequentialReader,
	firstLength: number,
	colours: Colours,
	sink: RasterSink,
	fileBytes: number,
): Promise<void> {
	const { header } = colours;
	const passes = header.interlaced
		? ADAM7.map(([x0, y0, dx, dy]) => ({
				x0,
				y0,
				dx,
				dy,
				width: Math.ceil(Math.max(0, header.width - x0) / dx),
				height: Math.ceil(Math.max(0, header.height - y0) / dy),
			})).filter((pass) => pass.width > 0 && pass.height > 0)
		: [{ x0: 0, y0: 0, dx: 1, dy: 1, width: header.width, height: header.height }];
	const expected = passes.reduce((sum, pass) => sum + pass.height * (1 + lineBytes(header, pass.width)), 0);
	checkAgainstFile(expected, fileBytes, BEST_RATIO.deflate);
	const bytesPerPixel = Math.max(1, ((CHANNELS[header.colorType] ?? 1) * header.depth) / 8);
	const lines = new Scanlines(bytesPerPixel);
	const rgb = new Uint8Array(header.width * 3);
	const sums = header.interlaced ? new InterlaceSums(header.width, header.height) : null;
	if (sums === null) sink.start(header.width, header.height);
	let passIndex = 0;
	let row = 0;
	let pass = passes[0];
	if (pass === undefined) return;
	lines.reset(lineBytes(header, pass.width));
	for await (const piece of inflate(imageData(reader, firstLength), expected)) {
		let at = 0;
		while (at < piece.length && pass !== undefined) {
			at += lines.fill(piece, at);
			const line = lines.complete();
			if (line === null) continue;
			toRgb(colours, line, pass.width, rgb);
			if (sums === null) sink.rows(row, 1, rgb);
			else sums.add(pass, row, rgb);
			row++;
			if (row === pass.height) {
				passIndex++;
				pass = passes[passIndex];
				row = 0;
				if (pass !== undefined) lines.reset(lineBytes(header, pass.width));
			}
		}
	}
	if (pass !== undefined) throw new UndecodableImage("truncated", "The PNG's image data ends before its last row.");
	sums?.deliver(sink);
}

/** Collects one filtered scanline at a time and undoes its filter against the previous one. */
class Scanlines {
	readonly #bytesPerPixel: number;
	#line = new Uint8Array(0);
	#previous = new Uint8Array(0);
	#filled = 0;

	constructor(bytesPerPixel: number) {
		this.#bytesPerPixel = bytesPerPixel;
	}

	/** Starts a pass whose scanlines are `length` bytes: the previous line counts as zeros. */
	reset(length: number): void {
		this.#line = new Uint8Array(1 + length);
		this.#previous = new Uint8Array(1 + length);
		this.#filled = 0;
	}

	/** Copies bytes from `piece` at `at` into the scanline; returns how many. */
	fill(piece: Uint8Array, at: number): number {
		const count = Math.min(this.#line.length - this.#filled, piece.length - at);
		this.#line.set(piece.subarray(at, at + count), this.#filled);
		this.#filled += count;
		return count;
	}

	/** The unfiltered samples once the scanline is whole, else null. */
	complete(): Uint8Array | null {
		if (this.#filled < this.#line.length) return null;
		unfilter(this.#line, this.#previous, this.#bytesPerPixel);
		const done = this.#line;
		this.#line = this.#previous;
		this.#previous = done;
		this.#filled = 0;
		return done.subarray(1);
	}
}

function unfilter(line: Uint8Array, previous: Uint8Array, bpp: number): void {
	const filter = line[0] ?? 0;
	const n = line.length;
	switch (filter) {
		case 0:
			return;
		case 1:
			for (let i = 1 + bpp; i < n; i++) line[i] = ((line[i] ?? 0) + (line[i - bpp] ?? 0)) & 0xff;
			return;
		case 2:
			for (let i = 1; i < n; i++) line[i] = ((line[i] ?? 0) + (previous[i] ?? 0)) & 0xff;
			return;
		case 3:
			for (let i = 1; i < n; i++) {
				const left = i > bpp ? (line[i - bpp] ?? 0) : 0;
				line[i] = ((line[i] ?? 0) + ((left + (previous[i] ?? 0)) >> 1)) & 0xff;
			}
			return;
		case 4:
			for (let i = 1; i < n; i++) {
				const a = i > bpp ? (line[i - bpp] ?? 0) : 0;
				const b = previous[i] ?? 0;
				const c = i > bpp ? (previous[i - bpp] ?? 0) : 0;
				const p = a + b - c;
				const pa = Math.abs(p - a);
				const pb = Math.abs(p - b);
				const pc = Math.abs(p - c);
				const predictor = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
				line[i] = ((line[i] ?? 0) + predictor) & 0xff;
			}
			return;
		default:
			throw new UndecodableImage("corrupt", `A PNG scanline has the unknown filter type ${filter}.`);
	}
}

/** `value` (0..max) over `alpha` (0..max) laid on white, as 8 bits. */
function onWhite(value: number, alpha: number, max: number): number {
	return Math.round(((value * alpha + max * (max - alpha)) / max) * (255 / max));
}

/** One unfiltered scanline of `width` pixels as 8-bit RGB on white. */
function toRgb(colours: Colours, line: Uint8Array, width: number, rgb: Uint8Array): void {
	const { header, palette, alpha, key } = colours;
	const { depth, colorType } = header;
	const max = (1 << depth) - 1;
	const sample = (index: number): number => {
		if (depth === 16) return ((line[index * 2] ?? 0) << 8) | (line[index * 2 + 1] ?? 0);
		if (depth === 8) return line[index] ?? 0;
		const bit = index * depth;
		return ((line[bit >> 3] ?? 0) >> (8 - depth - (bit & 7))) & max;
	};
	const channels = CHANNELS[colorType] ?? 1;
	for (let x = 0; x < width; x++) {
		const base = x * channels;
		let r: number;
		let g: number;
		let b: number;
		if (colorType === 3) {
			const index = sample(x);
			const opacity = alpha?.[index] ?? 255;
			const at = index * 3;
			const p = palette ?? new Uint8Array(0);
			if (at + 2 >= p.length) throw new UndecodableImage("corrupt", "A PNG pixel names a colour beyond its palette.");
			r = onWhite(p[at] ?? 0, opacity, 255);
			g = onWhite(p[at + 1] ?? 0, opacity, 255);
			b = onWhite(p[at + 2] ?? 0, opacity, 255);
		} else if (colorType === 0 || colorType === 4) {
			const value = sample(base);
			const opacity = colorType === 4 ? sample(base + 1) : key !== null && value === key[0] ? 0 : max;
			r = onWhite(value, opacity, max);
			g = r;
			b = r;
		} else {
			const red = sample(base);
			const green = sample(base + 1);
			const blue = sample(base + 2);
			let opacity = max;
			if (colorType === 6) opacity = sample(base + 3);
			else if (key !== null && red === key[0] && green === key[1] && blue === key[2]) opacity = 0;
			r = onWhite(red, opacity, max);
			g = onWhite(green, opacity, max);
			b = onWhite(blue, opacity, max);
		}
		rgb[x * 3] = r;
		rgb[x * 3 + 1] = g;
		rgb[x * 3 + 2] = b;
	}
}

/**
 * An interlaced PNG's passes arrive one after another, so no full row exists before the last pass.
 * Each pass's pixels are instead averaged straight into the thumbnail's sums with the same box
 * weights the AreaReducer uses, and the thumbnail-sized result is handed on at the end.
 */
class InterlaceSums {
	readonly #size: { width: number; height: number };
	readonly #xAxis: BoxAxis;
	readonly #yAxis: BoxAxis;
	readonly #sums: Float64Array;

	constructor(width: number, height: number) {
		this.#size = thumbnailSize(width, height);
		this.#xAxis = new BoxAxis(width, this.#size.width);
		this.#yAxis = new BoxAxis(height, this.#size.height);
		this.#sums = new Float64Array(this.#size.width * this.#size.height * 3);
	}

	add(pass: { x0: number; y0: number; dx: number; dy: number; width: number }, row: number, rgb: Uint8Array): void {
		const y = pass.y0 + row * pass.dy;
		const ty = this.#yAxis.first[y] ?? 0;
		const yNear = this.#yAxis.near[y] ?? 0;
		const yFar = this.#yAxis.total - yNear;
		const stride = this.#size.width * 3;
		const hasNextRow = yFar > 1e-9 && ty + 1 < this.#size.height;
		for (let i = 0; i < pass.width; i++) {
			const x = pass.x0 + i * pass.dx;
			const tx = this.#xAxis.first[x] ?? 0;
			const xNear = this.#xAxis.near[x] ?? 0;
			const xFar = this.#xAxis.total - xNear;
			const hasNextColumn = xFar > 1e-9 && tx + 1 < this.#size.width;
			for (let c = 0; c < 3; c++) {
				const value = rgb[i * 3 + c] ?? 0;
				const at = ty * stride + tx * 3 + c;
				this.#sums[at] = (this.#sums[at] ?? 0) + value * xNear * yNear;
				if (hasNextColumn) this.#sums[at + 3] = (this.#sums[at + 3] ?? 0) + value * xFar * yNear;
				if (hasNextRow) {
					this.#sums[at + stride] = (this.#sums[at + stride] ?? 0) + value * xNear * yFar;
					if (hasNextColumn) this.#sums[at + stride + 3] = (this.#sums[at + stride + 3] ?? 0) + value * xFar * yFar;
				}
			}
		}
	}

	deliver(sink: RasterSink): void {
		const { width, height } = this.#size;
		sink.start(width, height);
		const row = new Uint8Array(width * 3);
		for (let y = 0; y < height; y++) {
			for (let i = 0; i < row.length; i++) {
				row[i] = Math.min(255, Math.max(0, Math.round(this.#sums[y * row.length + i] ?? 0)));
			}
			sink.rows(y, 1, row);
		}
	}
}
