/** The image formats the service takes, and how a file announces which it is. */
import type { ColourParts } from "./colour/parts.ts";

/** The print file formats, told apart by their first bytes. */
export const IMAGE_FORMATS = ["tiff", "png", "jpeg"] as const;
/** One of IMAGE_FORMATS. */
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/** Each format's name in a sentence. */
export const FORMAT_NAMES: Record<ImageFormat, string> = { tiff: "TIFF", png: "PNG", jpeg: "JPEG" };

/** The format its first bytes announce (PNG signature, JPEG SOI, TIFF byte order and version), or null. */
export function detectFormat(head: Uint8Array): ImageFormat | null {
	const [b0, b1, b2, b3] = head;
	// Only the first four PNG bytes: a signature damaged further on is a corrupt PNG, not an unknown file.
	if (b0 === 0x89 && b1 === 0x50 && b2 === 0x4e && b3 === 0x47) return "png";
	if (b0 === 0xff && b1 === 0xd8 && b2 === 0xff) return "jpeg";
	if (b0 === 0x49 && b1 === 0x49 && (b2 === 42 || b2 === 43) && b3 === 0) return "tiff";
	if (b0 === 0x4d && b1 === 0x4d && b2 === 0 && (b3 === 42 || b3 === 43)) return "tiff";
	return null;
}

/** What a format's probe reads from a header: the pixel size, and a description for people. */
export type ProbedHeader = {
	widthPx: number;
	heightPx: number;
	/** For people, e.g. "PNG 8-bit RGBA, interlaced" or "JPEG progressive, 3 components (YCbCr)". */
	detail: string;
	/** What the headers say of the colour; null when they could not be read for it (the file still prints). */
	colour: ColourParts | null;
};
