/**
 * Taking a file's ContentStats while its thumbnail is made: a RasterSink beside the thumbnail's reducer
 * that keeps a luma histogram and three counts (a fixed 2 kB whatever the image), a few integer operations
 * a pixel, and the flags those figures raise.
 */
import type { ContentFlag, ContentStats } from "./content-stats.ts";
import type { RasterSink } from "./raster.ts";

/**
 * Where each measure and flag draws its line (docs/print-files.md explains each): a pixel is white with
 * every channel at `whiteLevel` or more, black at `blackLevel` or less, transparent with its alpha under
 * `clearAlpha` (5 % of 255). A flag needs its share over the threshold and, but for near-uniform, a luma
 * spread under `faintSpread`: with more, what is left is a real picture (a line drawing, a small product).
 */
export const CONTENT_THRESHOLDS = {
	whiteLevel: 250,
	blackLevel: 5,
	clearAlpha: 12.75,
	nearUniformSpread: 2,
	faintSpread: 10,
	mostlyTransparentShare: 0.95,
	mostlyWhiteShare: 0.98,
	mostlyBlackShare: 0.98,
} as const;

/** The flags `stats` raises, from its stored figures alone (so a stored column can be judged again). */
export function contentFlagsOf(stats: Omit<ContentStats, "flags">): ContentFlag[] {
	const t = CONTENT_THRESHOLDS;
	const faint = stats.luma_spread < t.faintSpread;
	const flags: ContentFlag[] = [];
	if (stats.luma_spread < t.nearUniformSpread) flags.push("near_uniform_image");
	if (faint && stats.transparent_share > t.mostlyTransparentShare) flags.push("mostly_transparent");
	if (faint && stats.white_share > t.mostlyWhiteShare) flags.push("mostly_white");
	if (faint && stats.black_share > t.mostlyBlackShare) flags.push("mostly_black");
	return flags;
}

/**
 * A RasterSink that measures the pixels a decoder hands on (all of them; a JPEG read at a reduced scale, or
 * an interlaced PNG, hands the reduced ones) and, with `finish`, the thumbnail's mean colour: luma (Rec. 709
 * weights, as sRGB's) counted in a 256-bin histogram, so its spread is exact in bounded memory; white and
 * black counted after compositing on white; transparent from the alpha, when the decoder has one to give.
 */
export class ContentStatsSink implements RasterSink {
	readonly #lumaCounts = new Float64Array(256);
	#width = 0;
	#pixels = 0;
	#white = 0;
	#black = 0;
	#transparent = 0;

	start(width: number, _height: number): void {
		this.#width = width;
	}

	/** Counts each pixel's luma, and whether it is white or black. */
	rows(_y: number, count: number, rgb: Uint8Array): void {
		const end = this.#width * count * 3;
		if (rgb.length < end) throw new Error("ContentStatsSink given fewer bytes than its rows");
		const { whiteLevel, blackLevel } = CONTENT_THRESHOLDS;
		for (let at = 0; at < end; at += 3) {
			const r = rgb[at] ?? 0;
			const g = rgb[at + 1] ?? 0;
			const b = rgb[at + 2] ?? 0;
			// 0.2126, 0.7152, 0.0722 in 256ths: integer luma 0 to 255.
			const luma = (54 * r + 183 * g + 19 * b + 128) >> 8;
			this.#lumaCounts[luma] = (this.#lumaCounts[luma] ?? 0) + 1;
			if (r >= whiteLevel && g >= whiteLevel && b >= whiteLevel) this.#white++;
			else if (r <= blackLevel && g <= blackLevel && b <= blackLevel) this.#black++;
		}
		this.#pixels += this.#width * count;
	}

	/** Counts the pixels all but clear. */
	alpha(_y: number, count: number, values: Uint8Array): void {
		const end = this.#width * count;
		for (let i = 0; i < end; i++) if ((values[i] ?? 255) < CONTENT_THRESHOLDS.clearAlpha) this.#transparent++;
	}

	/** The statistics once every row has arrived; `thumbnailRgb` (8-bit RGB, sRGB) gives the mean colour. */
	finish(thumbnailRgb: Uint8Array): ContentStats {
		const pixels = Math.max(1, this.#pixels);
		let sum = 0;
		for (const [luma, count] of this.#lumaCounts.entries()) sum += luma * count;
		const mean = sum / pixels;
		let squares = 0;
		for (const [luma, count] of this.#lumaCounts.entries()) squares += (luma - mean) ** 2 * count;
		const measured = {
			mean_rgb: meanRgbOf(thumbnailRgb),
			luma_spread: rounded(Math.sqrt(squares / pixels), 2),
			transparent_share: rounded(this.#transparent / pixels, 4),
			white_share: rounded(this.#white / pixels, 4),
			black_share: rounded(this.#black / pixels, 4),
		};
		return { ...measured, flags: contentFlagsOf(measured) };
	}
}

/** The mean of each channel of 8-bit RGB pixels, to a tenth. */
function meanRgbOf(rgb: Uint8Array): [number, number, number] {
	const sums = [0, 0, 0];
	for (let at = 0; at + 2 < rgb.length; at += 3) {
		sums[0] = (sums[0] ?? 0) + (rgb[at] ?? 0);
		sums[1] = (sums[1] ?? 0) + (rgb[at + 1] ?? 0);
		sums[2] = (sums[2] ?? 0) + (rgb[at + 2] ?? 0);
	}
	const pixels = Math.max(1, Math.floor(rgb.length / 3));
	return [
		rounded((sums[0] ?? 0) / pixels, 1),
		rounded((sums[1] ?? 0) / pixels, 1),
		rounded((sums[2] ?? 0) / pixels, 1),
	];
}

/** `value` to `places` decimals. */
function rounded(value: number, places: number): number {
	const scale = 10 ** places;
	return Math.round(value * scale) / scale;
}
