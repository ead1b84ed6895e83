/**
 * Shipping in bulk: each row of a label tool's CSV ships its order as the single ship move does
 * (its own move through the order's Durable Object, its own `order.shipped` event), so a row is
 * all or nothing for its order. A row with `item_ids` is one shipment of the units it names, as
 * `POST /v1/ops/orders/{id}/shipments` makes it (partial-rows.ts judges it). A row whose order already shipped with the same tracking is
 * reported as such and changes nothing: importing the same file twice ships nothing twice, and the
 * same holds when imports (or an import and the one-step ship) overlap, since that is decided from
 * the move's result, in the order's Durable Object, not from the import's own earlier read.
 */

import { everyDatabase } from "../databases.ts";
import { log } from "../log.ts";
import { floorRefusal } from "../orders/edit-window.ts";
import { orderMachine } from "../orders/machine.ts";
import type { MoveOutcome } from "../orders/move-outcome.ts";
import { ShipBody, shipTracking } from "../orders/operator-moves.ts";
import { findShippingFacts, type ShippingFacts } from "../orders/queue-store.ts";
import { type OrderUnits, unitsOfOrders } from "../orders/shipment-store.ts";
import { type ShipmentItem, sameLabel } from "../orders/shipments.ts";
import { sameTracking, type Tracking } from "../orders/state-machine.ts";
import { type ImportRow, type ItemEntry, parseItemIds } from "./csv-file.ts";
import { judgeUnits } from "./partial-rows.ts";

/** What became of a row. */
export type RowOutcome = "shipped" | "already_shipped" | "refused";

/** One row's result, by its line in the file. */
export type RowResult = {
	line: number;
	order_id: string | null;
	external_id: string | null;
	outcome: RowOutcome;
	message: string;
};

/** The import's results, row by row, and how many of each. */
export type ImportReport = { rows: RowResult[]; shipped: number; already_shipped: number; refused: number };

/** Orders shipped side by side; each order's rows run one after another. */
const CONCURRENCY = 6;

/** A row's order, or why it has none. */
type Target = { ok: true; order: ShippingFacts } | { ok: false; message: string };

function targetOf(row: ImportRow, byId: Map<string, ShippingFacts>, byExternal: Map<string, ShippingFacts[]>): Target {
	const { order_id: orderId, external_id: externalId } = row.values;
	if (orderId !== undefined) {
		const order = byId.get(orderId);
		if (order === undefined) return { ok: false, message: `No order ${orderId}.` };
		if (externalId !== undefined && order.external_id !== externalId) {
			return { ok: false, message: `Order ${orderId} has external_id "${order.external_id}", not "${externalId}".` };
		}
		return { ok: true, order };
	}
	if (externalId === undefined)
		return { ok: false, message: "The row names no order: order_id or external_id is empty." };
	const matches = byExternal.get(externalId) ?? [];
	const [only] = matches;
	if (only === undefined) return { ok: false, message: `No live order has external_id "${externalId}".` };
	if (matches.length > 1) {
		return {
			ok: false,
			message: `${matches.length} partners have a live order "${externalId}": use the order_id column to say which.`,
		};
	}
	return { ok: true, order: only };
}

/** The file's column a ship body's field came from, for messages that name what the operator sees. */
const COLUMN_OF_FIELD: Readonly<Record<string, string>> = {
	carrier: "carrier",
	number: "tracking_number",
	url: "tracking_url",
};

/** A row read against the orders as they are now: its order and tracking, or why it is refused. */
export type ReadRow =
	| {
			row: ImportRow;
			ok: true;
			order: ShippingFacts;
			tracking: Tracking;
			/** The row's `item_ids`; null ships every unit that remains. */
			entries: ItemEntry[] | null;
	  }
	| { row: ImportRow; ok: false; order: ShippingFacts | null; message: string };

/** Finds each row's order (one read for the whole file) and checks its tracking, changing nothing. */
export async function readRows(env: Env, rows: readonly ImportRow[]): Promise<ReadRow[]> {
	const ids = rows.flatMap((row) => (row.values.order_id === undefined ? [] : [row.values.order_id]));
	const externals = rows.flatMap((row) =>
		row.values.order_id === undefined && row.values.external_id !== undefined ? [row.values.external_id] : [],
	);
	// The file names orders of any account: each database is asked for the ones it holds.
	const found = await Promise.all(
		everyDatabase(env).map((database) =>
			Promise.all([findShippingFacts(database, "id", ids), findShippingFacts(database, "external_id", externals)]),
		),
	);
	const byIdRows = found.flatMap(([byIds]) => byIds);
	const byExternalRows = found.flatMap(([, byExternals]) => byExternals);
	const byId = new Map(byIdRows.map((order) => [order.id, order]));
	const byExternal = new Map<string, ShippingFacts[]>();
	for (const order of byExternalRows)
		byExternal.set(order.external_id, [...(byExternal.get(order.external_id) ?? []), order]);
	return rows.map((row): ReadRow => {
		if (row.problem !== null) return { row, ok: false, order: null, message: row.problem };
		const target = targetOf(row, byId, byExternal);
		if (!target.ok) return { row, ok: false, order: null, message: target.message };
		const { carrier, number, url } = row.values;
		const body = ShipBody.safeParse({ carrier: carrier ?? "", number: number ?? "", url });
		if (!body.success) {
			const issue = body.error.issues[0];
			const column = COLUMN_OF_FIELD[String(issue?.path[0])] ?? "tracking";
			return { row, ok: false, order: target.order, message: `${column}: ${issue?.message ?? "not valid"}.` };
		}
		const entries = row.values.item_ids === undefined ? null : parseItemIds(row.values.item_ids);
		if (entries !== null && !entries.ok) return { row, ok: false, order: target.order, message: entries.message };
		return { row, ok: true, order: target.order, tracking: shipTracking(body.data), entries: entries?.entries ?? null };
	});
}

/** The units of every order the rows found (their items and shipments): one read per 90 orders. */
export async function unitsOfRows(env: Env, read: readonly ReadRow[]): Promise<Map<string, OrderUnits>> {
	const orderIds = read.flatMap((entry) => (entry.ok ? [entry.order.id] : []));
	const [first, ...others] = await Promise.all(everyDatabase(env).map((database) => unitsOfOrders(database, orderIds)));
	const units = first ?? new Map<string, OrderUnits>();
	for (const more of others) for (const [orderId, found] of more) units.set(orderId, found);
	return units;
}

/** Every unit of an order that remains, as a shipment names them. */
export function allRemaining(units: OrderUnits | undefined): ShipmentItem[] | null {
	if (units === undefined) return null;
	const judged = judgeUnits(units, null, null, "in_production");
	return judged.kind === "ship" ? judged.units : null;
}

export function resultOf(read: ReadRow, outcome: RowOutcome, message: string): RowResult {
	return {
		line: read.row.line,
		order_id: read.order?.id ?? read.row.values.order_id ?? null,
		external_id: read.order?.external_id ?? read.row.values.external_id ?? null,
		outcome,
		message,
	};
}

/** The tracking an order row shipped with, or null when it has none. */
export function shippedTracking(order: ShippingFacts): Tracking | null {
	return order.tracking_carrier === null || order.tracking_number === null || order.tracking_url === null
		? null
		: { carrier: order.tracking_carrier, number: order.tracking_number, url: order.tracking_url };
}

/**
 * Ships the rows' orders (see the module's note) and reports each row. The orders are read again
 * here, so an import confirmed after its preview acts on the orders as they are by then.
 */
export async function importShipments(env: Env, rows: readonly ImportRow[]): Promise<ImportReport> {
	const read = await readRows(env, rows);
	const unitsByOrder = await unitsOfRows(env, read);
	const results = read.map((entry) => resultOf(entry, "refused", entry.ok ? "" : entry.message));
	// Each order's rows, in file order: they run one after another; orders run side by side.
	type QueuedRow = { index: number; tracking: Tracking; entries: ItemEntry[] | null };
	const work = new Map<string, { order: ShippingFacts; rows: QueuedRow[] }>();
	read.forEach((entry, index) => {
		if (!entry.ok) return;
		const queued = work.get(entry.order.id) ?? { order: entry.order, rows: [] };
		queued.rows.push({ index, tracking: entry.tracking, entries: entry.entries });
		work.set(entry.order.id, queued);
	});
	const queues = [...work.values()];
	const worker = async () => {
		for (let next = queues.shift(); next !== undefined; next = queues.shift()) {
			let { order } = next;
			const units = unitsByOrder.get(order.id);
			for (const { index, tracking, entries } of next.rows) {
				const result = results[index];
				if (result === undefined) continue;
				if (entries !== null) {
					const outcome = await shipUnits(env, order, units, entries, tracking, result.line);
					result.outcome = outcome.outcome;
					result.message = outcome.message;
					if (outcome.completes) order = { ...order, status: "shipped" };
					continue;
				}
				const outcome = await shipOne(env, order, tracking, units);
				result.outcome = outcome.outcome;
				result.message = outcome.message;
				if (outcome.outcome === "shipped") {
					order = {
						...order,
						status: "shipped",
						tracking_carrier: tracking.carrier,
						tracking_number: tracking.number,
						tracking_url: tracking.url,
					};
				}
			}
		}
	};
	await Promise.all(Array.from({ length: CONCURRENCY }, worker));
	return {
		rows: results,
		shipped: results.filter((row) => row.outcome === "shipped").length,
		already_shipped: results.filter((row) => row.outcome === "already_shipped").length,
		refused: results.filter((row) => row.outcome === "refused").length,
	};
}

async function shipOne(
	env: Env,
	order: ShippingFacts,
	tracking: Tracking,
	units: OrderUnits | undefined,
): Promise<{ outcome: RowOutcome; message: string }> {
	// A shipped order's tracking never changes, so what the import read of one stands: no move is asked for.
	if (order.status === "shipped" || order.status === "delivered") return afterShipping(order, tracking, units);
	const inWindow = floorRefusal(order, new Date());
	if (inWindow !== null) return { outcome: "refused", message: inWindow };
	let outcome: MoveOutcome;
	try {
		outcome = await orderMachine(env, order.id).move(order.id, { kind: "ship", tracking }, "operator");
	} catch (error) {
		log.error("shipments_import.move_failed", { order_id: order.id, message: String(error) });
		return {
			outcome: "refused",
			message: "The move could not be made just now; import the file again to retry this row.",
		};
	}
	if (outcome.ok) return { outcome: "shipped", message: `Shipped with ${tracking.carrier} ${tracking.number}.` };
	// Another import, or the one-step ship, may have shipped the order since the read above: the machine,
	// which serializes the order's moves, says whether that was this very label.
	if (outcome.kind === "refused" && outcome.repeat) return alreadyShipped(tracking);
	if (outcome.kind === "refused" && (outcome.status === "shipped" || outcome.status === "delivered")) {
		return differs(outcome.status, outcome.tracking);
	}
	return { outcome: "refused", message: outcome.message };
}

/**
 * One partial row: judged on the units as read (and the file's earlier rows), then made through the
 * order's Durable Object, which judges again on the order as it is and has the last word.
 */
async function shipUnits(
	env: Env,
	order: ShippingFacts,
	units: OrderUnits | undefined,
	entries: ItemEntry[],
	tracking: Tracking,
	line: number,
): Promise<{ outcome: RowOutcome; message: string; completes: boolean }> {
	if (units === undefined) return { outcome: "refused", message: `No order ${order.id}.`, completes: false };
	const inWindow = floorRefusal(order, new Date());
	if (inWindow !== null) return { outcome: "refused", message: inWindow, completes: false };
	const verdict = judgeUnits(units, entries, tracking, order.status);
	if (verdict.kind === "repeat") return { outcome: "already_shipped", message: verdict.message, completes: false };
	if (verdict.kind === "refused") return { outcome: "refused", message: verdict.message, completes: false };
	try {
		const request = { kind: "create" as const, tracking, items: verdict.units };
		const outcome = await orderMachine(env, order.id).shipment(order.id, request, "operator");
		if (outcome.ok) {
			units.shipments.push(outcome.shipment);
			return {
				outcome: "shipped",
				message: verdict.message.replace(/^Ship /, "Shipped "),
				completes: verdict.completes,
			};
		}
		if (outcome.kind === "label_repeat") {
			return {
				outcome: "already_shipped",
				message: `Already shipped with ${tracking.carrier} ${tracking.number}: nothing changed.`,
				completes: false,
			};
		}
		return { outcome: "refused", message: outcome.message, completes: false };
	} catch (error) {
		log.error("shipments_import.move_failed", { order_id: order.id, line, message: String(error) });
		return {
			outcome: "refused",
			message: "The move could not be made just now; import the file again to retry this row.",
			completes: false,
		};
	}
}

/**
 * A whole-order row for an order that has shipped: already shipped when the order's tracking, or any
 * of its shipments' labels, is the row's (a file of partial shipments imported again), else refused.
 */
export function afterShipping(
	order: ShippingFacts,
	tracking: Tracking,
	units: OrderUnits | undefined,
): { outcome: "already_shipped" | "refused"; message: string } {
	const shippedWith = shippedTracking(order);
	const onShipment = units?.shipments.some((shipment) => sameLabel(shipment.tracking, tracking)) ?? false;
	return sameTracking(shippedWith, tracking) || onShipment
		? alreadyShipped(tracking)
		: differs(order.status, shippedWith);
}

export function alreadyShipped(tracking: Tracking): { outcome: "already_shipped"; message: string } {
	return {
		outcome: "already_shipped",
		message: `Already shipped with ${tracking.carrier} ${tracking.number}: nothing changed.`,
	};
}

export function differs(status: string, shippedWith: Tracking | null): { outcome: "refused"; message: string } {
	return {
		outcome: "refused",
		message: `Already ${status} with ${shippedWith?.carrier ?? "?"} ${shippedWith?.number ?? "?"}; this row's tracking differs.`,
	};
}
