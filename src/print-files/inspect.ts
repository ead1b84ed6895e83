import { BlockReader, type BlockReaderOptions, type ByteSource, InspectionFault } from "./byte-source.ts";
import type { ImageFormat, Inspection, InvalidReason } from "./image-types.ts";
import { inspectJpeg } from "./jpeg.ts";
import { inspectPng } from "./png.ts";
import { inspectTiff } from "./tiff.ts";

/** Longest side a header may declare. */
export const MAX_SIDE_PX = 1_000_000;
/** Most pixels a header may declare (1 gigapixel). */
export const MAX_PIXELS = 1_000_000_000;

const FORMAT_NAMES: Record<ImageFormat, string> = { tiff: "TIFF", png: "PNG", jpeg: "JPEG" };

const PARSERS: Record<ImageFormat, (reader: BlockReader) => Promise<Inspection>> = {
	tiff: inspectTiff,
	png: inspectPng,
	jpeg: inspectJpeg,
};

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

/**
 * Inspects a stored file from its header alone, with a few ranged reads. Never throws: anything
 * that goes wrong, down to a bug in a parser, is an invalid result with a reason.
 */
export async function inspectImage(source: ByteSource, options: BlockReaderOptions = {}): Promise<Inspection> {
	let format: ImageFormat | null = null;
	try {
		if (source.size === 0) return invalid(null, "empty_file", "The file is empty.");
		const reader = new BlockReader(source, options);
		format = detectFormat(await reader.read(0, 4));
		if (format === null) {
			return invalid(
				null,
				"unsupported_format",
				"The file is not a TIFF, PNG or JPEG image: its first bytes match none of them.",
			);
		}
		const inspection = await PARSERS[format](reader);
		return inspection.ok ? checkDimensions(inspection) : inspection;
	} catch (error) {
		if (error instanceof InspectionFault) return invalid(format, error.reason, error.message);
		const name = format === null ? "file" : FORMAT_NAMES[format];
		return invalid(format, "corrupt_header", `The ${name} header could not be read: it is corrupt.`);
	}
}

/** Zero or absurd sizes are a header that lies (or an image no printer can take), not an image. */
function checkDimensions(inspection: Inspection & { ok: true }): Inspection {
	const { format, widthPx, heightPx } = inspection;
	const name = FORMAT_NAMES[format];
	const size = `${grouped(widthPx)} × ${grouped(heightPx)} pixels`;
	if (widthPx < 1 || heightPx < 1 || widthPx > MAX_SIDE_PX || heightPx > MAX_SIDE_PX) {
		return invalid(
			format,
			"dimensions_out_of_range",
			`The ${name} header gives ${size}; each side must be between 1 and ${grouped(MAX_SIDE_PX)}.`,
		);
	}
	if (widthPx * heightPx > MAX_PIXELS) {
		return invalid(
			format,
			"too_many_pixels",
			`The ${name} header gives ${size}, more than the limit of ${grouped(MAX_PIXELS)} pixels.`,
		);
	}
	return inspection;
}

/** 1000000 as "1,000,000", without relying on Intl data in the runtime. */
function grouped(value: number): string {
	return String(value).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
}

function invalid(format: ImageFormat | null, reason: InvalidReason, message: string): Inspection {
	return { ok: false, format, reason, message };
}
