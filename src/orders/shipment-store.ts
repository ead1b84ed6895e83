/**
 * Every statement on `shipments`. A shipment is written only in its order's move batch, under the
 * order row's write token, so a stale move writes no shipment; its reads ride in the order's own read.
 */
import { jsonColumn } from "./columns.ts";
import type { ShipmentRow } from "./shipments.ts";

/** A shipments row as read: items and packages as JSON text, tracking in three columns. */
export type ShipmentColumns = Omit<ShipmentRow, "items" | "packages" | "tracking"> & {
	items: string;
	packages: string;
	carrier: string;
	tracking_number: string;
	tracking_url: string;
};

/** The shipment a row holds, its JSON columns parsed (the service wrote them, so they are trusted). */
export function shipmentOfColumns(row: ShipmentColumns): ShipmentRow {
	const { carrier, tracking_number, tracking_url, items, packages, ...rest } = row;
	return {
		...rest,
		items: JSON.parse(items) as ShipmentRow["items"],
		packages: JSON.parse(packages) as ShipmentRow["packages"],
		tracking: { carrier, number: tracking_number, url: tracking_url },
	};
}

/** The read of the shipments of each of `orderIds`, oldest first (the unique index on order and position). */
export function shipmentsOfOrdersRead(db: D1Database, orderIds: readonly string[]): D1PreparedStatement {
	const placeholders = orderIds.map((_, index) => `?${index + 1}`).join(", ");
	return db
		.prepare(`SELECT * FROM shipments WHERE order_id IN (${placeholders}) ORDER BY order_id, position`)
		.bind(...orderIds);
}

/** Groups read shipment rows by their order. */
export function shipmentsByOrder(
	orderIds: readonly string[],
	rows: ReadonlyArray<unknown>,
): Map<string, ShipmentRow[]> {
	const byOrder = new Map<string, ShipmentRow[]>(orderIds.map((id) => [id, []]));
	for (const row of rows as ShipmentColumns[]) byOrder.get(row.order_id)?.push(shipmentOfColumns(row));
	return byOrder;
}

/** The order a shipment belongs to, or null for an unknown shipment. */
export async function orderIdOfShipment(db: D1Database, shipmentId: string): Promise<string | null> {
	const row = await db
		.prepare("SELECT order_id FROM shipments WHERE id = ?1")
		.bind(shipmentId)
		.first<{ order_id: string }>();
	return row?.order_id ?? null;
}

/** Writes a new shipment, or a shipment's new status, only if the order row carries `writeToken`. */
export function shipmentWrite(db: D1Database, shipment: ShipmentRow, writeToken: string): D1PreparedStatement {
	return db
		.prepare(
			`INSERT INTO shipments (id, order_id, position, items, carrier, tracking_number, tracking_url, packages, status,
			   shipped_at, delivered_at, returned_at)
			 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12 FROM orders WHERE id = ?2 AND write_token = ?13
			 ON CONFLICT (id) DO UPDATE SET status = excluded.status, delivered_at = excluded.delivered_at,
			   returned_at = excluded.returned_at`,
		)
		.bind(
			shipment.id,
			shipment.order_id,
			shipment.position,
			jsonColumn(shipment.items),
			shipment.tracking.carrier,
			shipment.tracking.number,
			shipment.tracking.url,
			jsonColumn(shipment.packages),
			shipment.status,
			shipment.shipped_at,
			shipment.delivered_at,
			shipment.returned_at,
			writeToken,
		);
}

/** An order's units as a shipment counts them: its items' quantities, and its shipments so far. */
export type OrderUnits = {
	items: Array<{ id: string; position: number; quantity: number }>;
	shipments: ShipmentRow[];
};

/** D1 binds at most 100 parameters a statement. */
const UNITS_CHUNK = 90;

/** The units of each of `orderIds` (their items and shipments), in one round trip per 90 orders. */
export async function unitsOfOrders(db: D1Database, orderIds: readonly string[]): Promise<Map<string, OrderUnits>> {
	const unique = [...new Set(orderIds)];
	const found = new Map<string, OrderUnits>();
	for (let start = 0; start < unique.length; start += UNITS_CHUNK) {
		const chunk = unique.slice(start, start + UNITS_CHUNK);
		const placeholders = chunk.map((_, index) => `?${index + 1}`).join(", ");
		const [itemRows, shipmentRows] = await db.batch([
			db
				.prepare(
					`SELECT id, order_id, position, quantity FROM order_items WHERE order_id IN (${placeholders}) ORDER BY order_id, position`,
				)
				.bind(...chunk),
			shipmentsOfOrdersRead(db, chunk),
		]);
		const shipments = shipmentsByOrder(chunk, shipmentRows?.results ?? []);
		for (const id of chunk) found.set(id, { items: [], shipments: shipments.get(id) ?? [] });
		for (const item of (itemRows?.results ?? []) as Array<{
			id: string;
			order_id: string;
			position: number;
			quantity: number;
		}>) {
			found.get(item.order_id)?.items.push({ id: item.id, position: item.position, quantity: item.quantity });
		}
	}
	return found;
}
