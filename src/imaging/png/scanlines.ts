/**
 * A PNG's scanlines as pixels: each one collected from the inflated data, its filter undone against
 * the line above, and its samples (any colour type and depth, a palette, transparency) turned into
 * 8-bit RGB laid over white.
 */
import { ImageFault } from "../fault.ts";
import { channelsOf, type Header } from "./chunks.ts";

/** How a scanline's samples become RGB: the palette and the transparency, when there are any. */
export type Colours = { header: Header; palette: Uint8Array | null; alpha: Uint8Array | null; key: number[] | null };

/** How the samples become RGB, checked: an indexed PNG needs a palette; a tRNS chunk gives a colour key. */
export function coloursOf(header: Header, palette: Uint8Array | null, transparency: Uint8Array | null): Colours {
	if (header.colorType === 3 && (palette === null || palette.length % 3 !== 0 || palette.length === 0)) {
		throw new ImageFault("corrupt_header", "The indexed PNG has no valid palette (PLTE) before its data.");
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

/** Collects one filtered scanline at a time and undoes its filter against the previous one. */
export class Scanlines {
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
			throw new ImageFault("corrupt_data", `A PNG scanline has the unknown filter type ${filter}.`);
	}
}

/** `value` (0..max) over `alpha` (0..max) laid on white, as 8 bits. */
function onWhite(value: number, alpha: number, max: number): number {
	return Math.round(((value * alpha + max * (max - alpha)) / max) * (255 / max));
}

/** Whether any pixel can be transparent: an alpha channel, or a tRNS chunk (a palette's alphas, a colour key). */
export function canBeTransparent(colours: Colours): boolean {
	const { colorType } = colours.header;
	return colorType === 4 || colorType === 6 || colours.alpha !== null || colours.key !== null;
}

/**
 * One unfiltered scanline of `width` pixels as 8-bit RGB on white; with `alphaOut`, each pixel's opacity
 * as 8 bits there too.
 */
export function toRgb(
	colours: Colours,
	line: Uint8Array,
	width: number,
	rgb: Uint8Array,
	alphaOut: Uint8Array | null = null,
): void {
	const { header, palette, alpha, key } = colours;
	const { depth, colorType } = header;
	const max = (1 << depth) - 1;
	const sample = (index: number): number => {
		if (depth === 16) return ((line[index * 2] ?? 0) << 8) | (line[index * 2 + 1] ?? 0);
		if (depth === 8) return line[index] ?? 0;
		const bit = index * depth;
		return ((line[bit >> 3] ?? 0) >> (8 - depth - (bit & 7))) & max;
	};
	const channels = channelsOf(colorType);
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
			if (at + 2 >= p.length) throw new ImageFault("corrupt_data", "A PNG pixel names a colour beyond its palette.");
			r = onWhite(p[at] ?? 0, opacity, 255);
			g = onWhite(p[at + 1] ?? 0, opacity, 255);
			b = onWhite(p[at + 2] ?? 0, opacity, 255);
			if (alphaOut !== null) alphaOut[x] = opacity;
		} else if (colorType === 0 || colorType === 4) {
			const value = sample(base);
			const opacity = colorType === 4 ? sample(base + 1) : key !== null && value === key[0] ? 0 : max;
			r = onWhite(value, opacity, max);
			g = r;
			b = r;
			if (alphaOut !== null) alphaOut[x] = Math.round((opacity * 255) / max);
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
			if (alphaOut !== null) alphaOut[x] = Math.round((opacity * 255) / max);
		}
		rgb[x * 3] = r;
		rgb[x * 3 + 1] = g;
		rgb[x * 3 + 2] = b;
	}
}
