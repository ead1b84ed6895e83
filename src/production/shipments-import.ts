/**
 * Shipping in bulk: each row of a label tool's CSV ships its order as the single ship move does
 * (its own move through the order's Durable Object, its own `order.shipped` event), so a row is
 * all or nothing for its order. A row whose order already shipped with the same tracking is
 * reported as such and changes nothing: importing the same file twice ships nothing twice, and the
 * same holds when imports (or an import and the one-step ship) overlap, since that is decided from
 * the move's result, in the order's Durable Object, not from the import's own earlier read.
 */

import { log } from "../log.ts";
import { orderMachine } from "../orders/machine.ts";
import { ShipBody } from "../orders/operator-moves.ts";
import type { MoveOutcome } from "../orders/order-machine.do.ts";
import { findShippingFacts, type ShippingFacts } from "../orders/queue-store.ts";
import { sameTracking, type Tracking } from "../orders/state-machine.ts";
import type { ImportRow } from "./shipments-csv.ts";

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

/** Ships the rows' orders (see the module's note) and reports each row. */
export async function importShipments(env: Env, rows: readonly ImportRow[]): Promise<ImportReport> {
	const ids = rows.flatMap((row) => (row.values.order_id === undefined ? [] : [row.values.order_id]));
	const externals = rows.flatMap((row) =>
		row.values.order_id === undefined && row.values.external_id !== undefined ? [row.values.external_id] : [],
	);
	const [byIdRows, byExternalRows] = await Promise.all([
		findShippingFacts(env.DB, "id", ids),
		findShippingFacts(env.DB, "external_id", externals),
	]);
	const byId = new Map(byIdRows.map((order) => [order.id, order]));
	const byExternal = new Map<string, ShippingFacts[]>();
	for (const order of byExternalRows)
		byExternal.set(order.external_id, [...(byExternal.get(order.external_id) ?? []), order]);

	const results: RowResult[] = rows.map((row) => ({
		line: row.line,
		order_id: row.values.order_id ?? null,
		external_id: row.values.external_id ?? null,
		outcome: "refused",
		message: row.problem ?? "",
	}));
	// Each order's rows, in file order: they run one after another; orders run side by side.
	const work = new Map<string, { order: ShippingFacts; rows: { index: number; tracking: Tracking }[] }>();
	rows.forEach((row, index) => {
		const result = results[index];
		if (result === undefined || row.problem !== null) return;
		const target = targetOf(row, byId, byExternal);
		if (!target.ok) {
			result.message = target.message;
			return;
		}
		result.order_id = target.order.id;
		result.external_id = target.order.external_id;
		const tracking = ShipBody.safeParse({
			carrier: row.values.carrier,
			number: row.values.number,
			url: row.values.url,
		});
		if (!tracking.success) {
			const issue = tracking.error.issues[0];
			const column = { carrier: "carrier", number: "tracking_number", url: "tracking_url" }[String(issue?.path[0])];
			result.message = `${column ?? "tracking"}: ${issue?.message ?? "not valid"}`;
			return;
		}
		const queued = work.get(target.order.id) ?? { order: target.order, rows: [] };
		queued.rows.push({ index, tracking: tracking.data });
		work.set(target.order.id, queued);
	});
	const queues = [...work.values()];
	const worker = async () => {
		for (let next = queues.shift(); next !== undefined; next = queues.shift()) {
			let { order } = next;
			for (const { index, tracking } of next.rows) {
				const result = results[index];
				if (result === undefined) continue;
				const outcome = await shipOne(env, order, tracking);
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
): Promise<{ outcome: RowOutcome; message: string }> {
	// A shipped order's tracking never changes, so what the import read of one stands: no move is asked for.
	if (order.status === "shipped" || order.status === "delivered") {
		const shippedWith =
			order.tracking_carrier === null || order.tracking_number === null || order.tracking_url === null
				? null
				: { carrier: order.tracking_carrier, number: order.tracking_number, url: order.tracking_url };
		return sameTracking(shippedWith, tracking) ? alreadyShipped(tracking) : differs(order.status, shippedWith);
	}
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

function alreadyShipped(tracking: Tracking): { outcome: RowOutcome; message: string } {
	return {
		outcome: "already_shipped",
		message: `Already shipped with ${tracking.carrier} ${tracking.number}: nothing changed.`,
	};
}

function differs(status: string, shippedWith: Tracking | null): { outcome: RowOutcome; message: string } {
	return {
		outcome: "refused",
		message: `Already ${status} with ${shippedWith?.carrier ?? "?"} ${shippedWith?.number ?? "?"}; this row's tracking differs.`,
	};
}
