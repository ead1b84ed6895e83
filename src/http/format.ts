/** Times and sizes as the worker's pages show them, the same on every console. */

/** `2026-11-21 18:39 UTC` (or with seconds): one unambiguous clock for a floor that may span time zones. */
export function formatTime(iso: string, withSeconds = false): string {
	const date = new Date(iso);
	if (Number.isNaN(date.getTime())) return iso;
	const text = date.toISOString();
	return `${text.slice(0, 10)} ${text.slice(11, withSeconds ? 19 : 16)} UTC`;
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
