import type { OrderStatus } from "../orders/state-machine.ts";

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
