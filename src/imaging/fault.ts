/**
 * The one error of the imaging code: why a file could not be probed or decoded, as a reason code and
 * a sentence. The probes, the decoders and the reader all throw it; anything else thrown is a bug.
 */

/**
 * What a header's probe can find wrong, in the order the API lists a print file's invalid reasons.
 * `read_failed` is the storage failing, not the file: the caller may retry.
 */
export const HEADER_FAULT_REASONS = [
	"empty_file",
	"unsupported_format",
	"truncated",
	"corrupt_header",
	"dimensions_out_of_range",
	"too_many_pixels",
	"read_limit_exceeded",
	"read_failed",
] as const;
/** One of HEADER_FAULT_REASONS. */
export type HeaderFaultReason = (typeof HEADER_FAULT_REASONS)[number];

/**
 * What only decoding meets, past the header: damaged image data (`corrupt_data`), a valid file in a
 * variant the decoders do not read (`unsupported_variant`), and a part of the image (a tile, a band of
 * rows, a progressive file's planes) larger than a decoder holds at once (`exceeds_memory_budget`).
 */
const DECODE_FAULT_REASONS = ["corrupt_data", "unsupported_variant", "exceeds_memory_budget"] as const;

/** Every reason an ImageFault carries. */
const IMAGE_FAULT_REASONS = [...HEADER_FAULT_REASONS, ...DECODE_FAULT_REASONS] as const;
/** One of IMAGE_FAULT_REASONS. */
export type ImageFaultReason = (typeof IMAGE_FAULT_REASONS)[number];

/** Why a file could not be probed or decoded. */
export class ImageFault extends Error {
	readonly reason: ImageFaultReason;

	constructor(reason: ImageFaultReason, message: string) {
		super(message);
		this.name = "ImageFault";
		this.reason = reason;
	}
}

/** Whether `reason` is one a header's probe reports (the rest only decoding meets). */
export function isHeaderFault(reason: ImageFaultReason): reason is HeaderFaultReason {
	return (HEADER_FAULT_REASONS as readonly string[]).includes(reason);
}
