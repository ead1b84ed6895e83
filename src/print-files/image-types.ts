/** What an inspection says of a file, shared by the inspector and every format's parser (a leaf: it imports nothing). */

/** The print file formats, told apart by their first bytes. */
export const IMAGE_FORMATS = ["tiff", "png", "jpeg"] as const;
/** One of IMAGE_FORMATS. */
export type ImageFormat = (typeof IMAGE_FORMATS)[number];

/**
 * Why a print file is invalid. `read_failed` is the storage failing, not the file: the caller may
 * retry rather than tell the partner the file is bad.
 */
export const INVALID_REASONS = [
	"empty_file",
	"unsupported_format",
	"truncated",
	"corrupt_header",
	"dimensions_out_of_range",
	"too_many_pixels",
	"read_limit_exceeded",
	"read_failed",
	// Set by the caller, not the parsers: bytes over the 512 MiB cap that R2 could not refuse.
	"file_too_large",
	// Set by the caller: the object in R2 is no longer the one that was inspected (replaced or deleted).
	"file_changed",
] as const;
/** One of INVALID_REASONS. */
export type InvalidReason = (typeof INVALID_REASONS)[number];

/** What the header says about a file: its format and pixel size, or why it is not a usable image. */
export type Inspection =
	| {
			ok: true;
			format: ImageFormat;
			widthPx: number;
			heightPx: number;
			/** For people, e.g. "PNG 8-bit RGBA, interlaced" or "JPEG progressive, 3 components (YCbCr)". */
			detail: string;
	  }
	| {
			ok: false;
			format: ImageFormat | null;
			reason: InvalidReason;
			/** A sentence for the partner, e.g. "The PNG ends before its IEND chunk: the file is truncated." */
			message: string;
	  };
