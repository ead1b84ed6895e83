/** An order's statuses and hold reasons in the words the consoles show people, never the raw codes. */
import type { HoldReason, OrderStatus } from "./state-machine.ts";

/** A status as people say it: `in_production` → `In production`. */
export function statusLabel(status: OrderStatus): string {
	const words = status.replaceAll("_", " ");
	return words.charAt(0).toUpperCase() + words.slice(1);
}

/** Each hold reason as the floor says it. */
const HOLD_REASON_LABELS: Readonly<Record<HoldReason, string>> = {
	file_resolution_too_low: "File resolution too low for the size",
	file_unreadable: "File unreadable or changed",
	file_fetch_failed: "File could not be fetched",
	unsupported_file_format: "File format not supported",
	cmyk_file: "CMYK file held by the partner's setting",
	size_not_offered: "Size not offered",
	frame_not_found: "Frame not in the catalog",
	mat_not_found: "Mat not in the catalog",
	glazing_not_found: "Glazing not in the catalog",
	paper_not_found: "Paper not in the catalog",
	frame_too_small_for_size: "Piece too large for its frame",
	operator_hold: "Held by an operator",
};

/** A hold reason in words: `frame_not_found` → `Frame not in the catalog`. */
export function holdReasonLabel(reason: HoldReason): string {
	return HOLD_REASON_LABELS[reason];
}
