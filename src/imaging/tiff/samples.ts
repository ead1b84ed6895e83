/**
 * A TIFF's samples as pixels: the horizontal predictor undone, separate planes' samples put
 * together, and a row of gray, RGB or CMYK (8 or 16 bits, with or without alpha) turned into 8-bit
 * RGB laid over white.
 */

/** Colour channels per photometric interpretation: min-is-white, min-is-black, RGB, separated (CMYK). */
export const COLOUR_CHANNELS: Record<number, number> = { 0: 1, 1: 1, 2: 3, 5: 4 };

/** What a row needs to become RGB. */
export type Pixels = {
	width: number;
	samples: number;
	bytesPerSample: number;
	photometric: number;
	alpha: "none" | "associated" | "unassociated";
	littleEndian: boolean;
	predictor: number;
	/** 1 when a pixel's samples are stored together; the number of samples when each has a plane of its own. */
	planes: number;
};

/** Puts one plane's samples (a row or a tile) into their places among all the samples. */
export function interleave(plane: Uint8Array, into: Uint8Array, index: number, pixels: Pixels): void {
	const { samples, bytesPerSample } = pixels;
	const count = plane.length / bytesPerSample;
	for (let i = 0; i < count; i++) {
		const to = (i * samples + index) * bytesPerSample;
		into[to] = plane[i * bytesPerSample] ?? 0;
		if (bytesPerSample === 2) into[to + 1] = plane[i * 2 + 1] ?? 0;
	}
}

/** Undoes the horizontal predictor in place: each sample was stored as its difference from the one `stride` before. */
export function undoPredictor(pixels: Pixels, row: Uint8Array, stride: number): void {
	if (pixels.predictor !== 2) return;
	if (pixels.bytesPerSample === 1) {
		for (let i = stride; i < row.length; i++) row[i] = ((row[i] ?? 0) + (row[i - stride] ?? 0)) & 0xff;
		return;
	}
	const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
	const { littleEndian } = pixels;
	for (let i = stride; i < row.length / 2; i++) {
		const sum = (view.getUint16(i * 2, littleEndian) + view.getUint16((i - stride) * 2, littleEndian)) & 0xffff;
		view.setUint16(i * 2, sum, littleEndian);
	}
}

/**
 * A row of `width` pixels, samples together and predictor undone, as 8-bit RGB on white; with `alphaOut`,
 * each pixel's alpha as 8 bits there too (an image without alpha leaves it untouched).
 */
export function rowToRgb(
	pixels: Pixels,
	row: Uint8Array,
	width: number,
	rgb: Uint8Array,
	alphaOut: Uint8Array | null = null,
): void {
	const { samples, bytesPerSample, littleEndian, photometric, alpha } = pixels;
	const view = new DataView(row.buffer, row.byteOffset, row.byteLength);
	const max = bytesPerSample === 1 ? 255 : 65535;
	const sample = bytesPerSample === 1 ? (i: number) => row[i] ?? 0 : (i: number) => view.getUint16(i * 2, littleEndian);
	const channels = COLOUR_CHANNELS[photometric] ?? 1;
	const toByte = 255 / max;
	for (let x = 0; x < width; x++) {
		const base = x * samples;
		let r: number;
		let g: number;
		let b: number;
		if (photometric === 2) {
			r = sample(base);
			g = sample(base + 1);
			b = sample(base + 2);
		} else if (photometric === 5) {
			const k = max - sample(base + 3);
			r = ((max - sample(base)) * k) / max;
			g = ((max - sample(base + 1)) * k) / max;
			b = ((max - sample(base + 2)) * k) / max;
		} else {
			r = photometric === 0 ? max - sample(base) : sample(base);
			g = r;
			b = r;
		}
		if (alpha !== "none") {
			const a = sample(base + channels);
			if (alphaOut !== null) alphaOut[x] = Math.round(a * toByte);
			const white = max - a;
			if (alpha === "associated") {
				r = Math.min(max, r + white);
				g = Math.min(max, g + white);
				b = Math.min(max, b + white);
			} else {
				r = (r * a) / max + white;
				g = (g * a) / max + white;
				b = (b * a) / max + white;
			}
		}
		rgb[x * 3] = Math.round(r * toByte);
		rgb[x * 3 + 1] = Math.round(g * toByte);
		rgb[x * 3 + 2] = Math.round(b * toByte);
	}
}
