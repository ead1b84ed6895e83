import type { ImageFaultReason } from "../imaging/fault.ts";
import type { ThumbnailUnavailableReason } from "../print-files/thumbnail-store.ts";

/**
 * The reason a thumbnail is unavailable, from the fault its decode gave up with: the API's four
 * (`corrupt`, `truncated`, `too_large`, `unsupported_variant`), or null for `read_failed`, which is the
 * storage failing, not the file: that try is retried.
 */
export const UNAVAILABLE_REASON_OF: Record<ImageFaultReason, ThumbnailUnavailableReason | null> = {
	empty_file: "corrupt",
	unsupported_format: "corrupt",
	truncated: "truncated",
	corrupt_header: "corrupt",
	dimensions_out_of_range: "too_large",
	too_many_pixels: "too_large",
	read_limit_exceeded: "too_large",
	read_failed: null,
	corrupt_data: "corrupt",
	unsupported_variant: "unsupported_variant",
	exceeds_memory_budget: "too_large",
};
