import { HEADER_FAULT_REASONS } from "../imaging/fault.ts";

/**
 * Why a print file is invalid: what its header's probe found, then two the inspection itself sets.
 * `read_failed` is the storage failing, not the file: the caller may retry rather than tell the
 * partner the file is bad.
 */
export const INVALID_REASONS = [
	...HEADER_FAULT_REASONS,
	// Bytes over the 512 MiB cap that R2 could not refuse.
	"file_too_large",
	// The object in R2 is no longer the one that was inspected (replaced or deleted).
	"file_changed",
] as const;
/** One of INVALID_REASONS. */
export type InvalidReason = (typeof INVALID_REASONS)[number];
