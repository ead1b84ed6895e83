import type { HoldReason, OrderStatus } from "../orders/state-machine.ts";

/** `2026-11-21 18:39 UTC` (or with seconds): one unambiguous clock for a floor that may span time zones. */
export function formatTime(iso: string, withSeconds = false): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	const text = date.toISOString();
	return `${text.slice(0, 10)} ${text.slice(11, withSeconds ? 19 : 16)} UTC`;
}

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

/** Whole hours from `since` to `now`: how long an order has been in its status. */
export function hoursSince(since: string, now: Date): number {
	const at = Date.parse(since);
	return Number.isNaN(at) ? 0 : Math.max(0, Math.floor((now.getTime() - at) / 3_600_000));
}

/** `24.5 KB`, `312.4 MB`: decimal units, as file browsers show them. */
export function bytesText(bytes: number): string {
	if (bytes < 1000) return `${bytes} B`;
	const units = ["KB", "MB", "GB"] as const;
	let value = bytes / 1000;
	let unit = 0;
	while (value >= 1000 && unit < units.length - 1) {
		value /= 1000;
		unit += 1;
	}
	return `${value.toFixed(1)} ${units[unit]}`;
}
