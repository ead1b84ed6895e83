/** The sizes the service accepts, checked by the probes and again by the decoders before they allocate. */
import { ImageFault } from "./fault.ts";
import { FORMAT_NAMES, type ImageFormat } from "./formats.ts";

/** Longest side a header may declare. */
export const MAX_SIDE_PX = 1_000_000;
/** Most pixels a header may declare (1 gigapixel). */
export const MAX_PIXELS = 1_000_000_000;

/**
 * Refuses a size no printer takes or a header that lies (a zero or absurd side): `dimensions_out_of_range`
 * or `too_many_pixels`, before anything is allocated for it.
 */
export function checkDimensions(format: ImageFormat, widthPx: number, heightPx: number): void {
	const name = FORMAT_NAMES[format];
	const size = `${grouped(widthPx)} × ${grouped(heightPx)} pixels`;
	if (widthPx < 1 || heightPx < 1 || widthPx > MAX_SIDE_PX || heightPx > MAX_SIDE_PX) {
		throw new ImageFault(
			"dimensions_out_of_range",
			`The ${name} header gives ${size}; each side must be between 1 and ${grouped(MAX_SIDE_PX)}.`,
		);
	}
	if (widthPx * heightPx > MAX_PIXELS) {
		throw new ImageFault(
			"too_many_pixels",
			`The ${name} header gives ${size}, more than the limit of ${grouped(MAX_PIXELS)} pixels.`,
		);
	}
}

/** 1000000 as "1,000,000", without relying on Intl data in the runtime. */
function grouped(value: number): string {
	return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

/**
 * Refuses a header whose pixels could not fit in the file even at the format's best compression
 * (deflate at most about 1032:1), before a row of them is allocated.
 */
export function checkAgainstFile(rawBytes: number, fileBytes: number, bestRatio: number): void {
	if (rawBytes > fileBytes * bestRatio) {
		throw new ImageFault("truncated", "The file is far too small for the image its header declares.");
	}
}

/** The most any of the decoders' compressions can shrink data: deflate's 1032:1, LZW's 12-bit codes of up to 4096 bytes. */
export const BEST_RATIO = { none: 1, packBits: 64, deflate: 1032, lzw: 2731 } as const;
