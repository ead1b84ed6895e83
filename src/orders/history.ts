/** An order's history of moves (order_moves): one row per move, written in the move's own batch. */
import type { OrderUpdateSubject } from "./events.ts";
import type { Actor, Move, OrderStatus, Tracking } from "./state-machine.ts";

/**
 * A shipment's move that leaves the order's status as it is: a shipment of some of the units, a
 * shipment delivered while others are not yet, a shipment returned. The state machine never sees
 * them; the history records them beside its moves.
 */
export type ShipmentMove =
	| { kind: "ship_partial"; tracking: Tracking }
	| { kind: "deliver_shipment"; shipmentId: string }
	| { kind: "return_shipment"; shipmentId: string };

/**
 * A partner's change of the recipient, the shipping method or the metadata (`PATCH /v1/orders/{id}`):
 * a new version at the same status, told by an `order.updated` event that says what changed.
 */
export type PartnerChange = { kind: "update"; update: OrderUpdateSubject };

/** Any move the history records. */
export type RecordedMove = Move | ShipmentMove | PartnerChange;

/** A row of an order's history of moves (the console's order page). */
export type OrderMoveRow = {
	order_id: string;
	version: number;
	move: RecordedMove["kind"] | "create";
	actor: Actor;
	from_status: OrderStatus | null;
	to_status: OrderStatus;
	note: string | null;
	created_at: string;
};

/** What an operator reading the history wants to know of a move beyond its statuses. */
export function moveNote(move: RecordedMove): string | null {
	switch (move.kind) {
		case "hold":
			return move.message;
		case "cancel":
			return move.reason ?? null;
		case "fail_validation":
			return move.holdReason;
		case "start":
			return move.withShipment === true ? "with its first shipment" : null;
		case "file_changed":
			return "file_changed";
		case "ship":
		case "ship_partial":
			return `${move.tracking.carrier} ${move.tracking.number}`;
		case "deliver_shipment":
		case "return_shipment":
			return move.shipmentId;
		case "update":
			return move.update.changes.map((change) => change.field).join(", ");
		default:
			return null;
	}
}

export function insertMove(db: D1Database, row: OrderMoveRow, writeToken: string): D1PreparedStatement {
	return db
		.prepare(
			`INSERT INTO order_moves (order_id, version, move, actor, from_status, to_status, note, created_at)
			 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8 FROM orders WHERE id = ?1 AND write_token = ?9`,
		)
		.bind(
			row.order_id,
			row.version,
			row.move,
			row.actor,
			row.from_status,
			row.to_status,
			row.note,
			row.created_at,
			writeToken,
		);
}

/** The order's moves, oldest first. */
export async function listOrderMoves(db: D1Database, orderId: string): Promise<OrderMoveRow[]> {
	const { results } = await db
		.prepare("SELECT * FROM order_moves WHERE order_id = ?1 ORDER BY version")
		.bind(orderId)
		.all<OrderMoveRow>();
	return results;
}
