/**
 * An archived order's record in R2: the order row, its items, its shipments and its history, as they were
 * in D1 when it was archived. One JSON object per order under a key of its account and mode, written once
 * and never changed (the same order always gives the same text, so a repeated put is harmless).
 */
import type { KeyMode } from "../accounts/scopes.ts";
import { ApiError } from "../http/errors.ts";
import type { OrderMoveRow } from "./history.ts";
import type { ItemRow, OrderRow, StoredOrder } from "./rows.ts";
import type { ShipmentRow } from "./shipments.ts";

/** The format this code writes and reads; a record of another format is refused, never guessed at. */
export const ORDER_RECORD_FORMAT = "framed-print.order-archive.v1";

/** An archived order as its record holds it. */
export type OrderRecord = {
	format: typeof ORDER_RECORD_FORMAT;
	order: OrderRow;
	items: ItemRow[];
	shipments: ShipmentRow[];
	moves: OrderMoveRow[];
};

/** Seconds a client waits before asking again for an order whose record could not be read. */
const RECORD_RETRY_AFTER_SECONDS = 30;

/** Where an order's record lives: per account and mode, so one account's records never mix with another's. */
export function orderRecordKey(order: { account_id: string; mode: KeyMode; id: string }): string {
	return `order-archive/${order.account_id}/${order.mode}/${order.id}.json`;
}

/** The record of a stored order and its history, its order row without the columns only D1 needs. */
export function orderRecordOf(stored: StoredOrder, moves: OrderMoveRow[]): OrderRecord {
	const { archived_at: _archivedAt, ...order } = stored.order as OrderRow & { archived_at?: unknown };
	return { format: ORDER_RECORD_FORMAT, order, items: stored.items, shipments: stored.shipments, moves };
}

/** Writes the record (the same key and text every time for the same order). */
export async function putOrderRecord(bucket: R2Bucket, record: OrderRecord): Promise<void> {
	await bucket.put(orderRecordKey(record.order), JSON.stringify(record), {
		httpMetadata: { contentType: "application/json" },
	});
}

/**
 * The record of an archived order, checked to be the order the slim row names. A missing or unreadable
 * record is an `order_archive_unavailable` error (retryable: R2 may be answering again soon).
 */
export async function readOrderRecord(
	bucket: R2Bucket,
	order: { account_id: string; mode: KeyMode; id: string },
): Promise<OrderRecord> {
	const key = orderRecordKey(order);
	const object = await bucket.get(key);
	if (object === null) throw unavailable(order.id, "its archived record is missing");
	let parsed: unknown;
	try {
		parsed = JSON.parse(await object.text());
	} catch {
		throw unavailable(order.id, "its archived record is not readable");
	}
	if (!isRecordOf(parsed, order)) throw unavailable(order.id, "its archived record is not readable");
	return parsed;
}

/** Whether `value` is a record of this format for this very order (its id, account and mode). */
function isRecordOf(value: unknown, order: { account_id: string; mode: KeyMode; id: string }): value is OrderRecord {
	if (typeof value !== "object" || value === null) return false;
	const record = value as Partial<Record<keyof OrderRecord, unknown>>;
	const row = record.order as Partial<OrderRow> | undefined;
	return (
		record.format === ORDER_RECORD_FORMAT &&
		typeof row === "object" &&
		row !== null &&
		row.id === order.id &&
		row.account_id === order.account_id &&
		row.mode === order.mode &&
		Array.isArray(record.items) &&
		Array.isArray(record.shipments) &&
		Array.isArray(record.moves)
	);
}

/** The error of an archived order that cannot be read now. */
function unavailable(orderId: string, why: string): ApiError {
	return new ApiError("order_archive_unavailable", `Order ${orderId} cannot be read right now: ${why}.`, undefined, {
		"Retry-After": String(RECORD_RETRY_AFTER_SECONDS),
	});
}
