import { MAX_PIXELS, MAX_SIDE_PX } from "../print-files/inspect.ts";
import { UndecodableImage } from "./raster.ts";

/** Refuses the sizes the inspector refuses, before anything is allocated for them. */
export function checkSize(width: number, height: number): void {
	if (width < 1 || height < 1 || width > MAX_SIDE_PX || height > MAX_SIDE_PX || width * height > MAX_PIXELS) {
		throw new UndecodableImage("too_large", `A ${width} × ${height} image is beyond the accepted sizes.`);
	}
}

/**
 * Refuses a header whose pixels could not fit in the file even at the format's best compression
 * (deflate at most about 1032:1), before a row of them is allocated.
 */
export function checkAgainstFile(rawBytes: number, fileBytes: number, bestRatio: number): void {
	if (rawBytes > fileBytes * bestRatio) {
		throw new UndecodableImage("truncated", "The file is far too small for the image its header declares.");
	}
}

/** The most any of the decoders' compressions can shrink data: deflate's 1032:1, LZW's 12-bit codes of up to 4096 bytes. */
export const BEST_RATIO = { none: 1, packBits: 64, deflate: 1032, lzw: 2731 } as const;
