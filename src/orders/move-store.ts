/**
 * What a move writes (the state machine's, a shipment's, a partner's change): the order row at its new
 * version, its item changes, its history row, and its event with the webhook deliveries, all in one
 * batch that applies only over the version it was read at.
 */

import { updateRow } from "../http/sql-rows.ts";
import type { PendingDelivery, RecordedEvent } from "../webhooks/store.ts";
import { changedItemColumnValues, versionedColumnValues } from "./columns.ts";
import { shownCosts } from "./costs.ts";
import { eventStatements } from "./event-statements.ts";
import type { OrderEventType, OrderUpdateSubject, ShipmentEventType } from "./events.ts";
import { insertMove, moveNote, type OrderMoveRow, type RecordedMove } from "./history.ts";
import { ledgerStatements } from "./ledger-moves.ts";
import { eventSubject, type ItemRow, type OrderRow } from "./rows.ts";
import { shipmentWrite } from "./shipment-store.ts";
import { type ShipmentRow, shipmentView } from "./shipments.ts";
import type { Actor } from "./state-machine.ts";

/** Thrown when a move's write finds the order changed since it was read. */
export class StaleOrder extends Error {
	override readonly name = "StaleOrder";
}

/** A shipment a move creates or changes, as it is after the move, and the event that tells of it. */
export type ShipmentChange = { shipment: ShipmentRow; event: ShipmentEventType };

/**
 * One move of a write: the order row after it, its event, its item changes, its shipments' changes
 * (their events come before the order's: a completing shipment's shipment.created, then order.shipped),
 * and what it was.
 */
export type MoveStep = {
	after: OrderRow;
	event: OrderEventType | null;
	itemUpdates: ItemRow[];
	shipmentChanges?: ShipmentChange[];
	made: { move: RecordedMove; actor: Actor };
};

/**
 * Writes one move, or several in a row (validation started and decided at once): each step's order
 * row, only if the version is still the one before it, and the step's history row, event and webhook
 * delivery rows, only if that update happened, in one batch. Throws StaleOrder when the version had
 * moved on (then nothing at all is written); returns the last event's id and the deliveries to start.
 */
export async function writeMove(
	db: D1Database,
	before: OrderRow,
	steps: MoveStep[],
	now: Date,
): Promise<{ eventId: string | null; deliveries: PendingDelivery[] }> {
	const statements: D1PreparedStatement[] = [];
	const recordedAt: Array<{ recorded: RecordedEvent; at: number }> = [];
	let previous = before;
	for (const step of steps) {
		// A later step moves on only from the row its earlier step wrote (its token), not from whatever
		// write happened to reach the same version.
		const guard = previous === before ? null : previous.write_token;
		const start = statements.length;
		const { statements: stepStatements, recorded } = moveStatements(db, previous, guard, step, now);
		for (const event of recorded) recordedAt.push({ recorded: event.recorded, at: start + event.at });
		statements.push(...stepStatements);
		previous = step.after;
	}
	const results = await db.batch(statements);
	// A later step's update cannot miss once the first applied: the same batch set the version it expects.
	if ((results[0]?.meta.changes ?? 0) === 0) throw new StaleOrder(before.id);
	return {
		eventId: recordedAt.at(-1)?.recorded.eventId ?? null,
		deliveries: recordedAt.flatMap(({ recorded, at }) =>
			recorded.pendingDeliveries(results.slice(at, at + recorded.statements.length)),
		),
	};
}

/**
 * One step's statements: the guarded update, its item rows, its history row, and its event (last).
 * The update applies only at `before`'s version and, when `previousToken` is given, only over the row
 * that carries it.
 */
function moveStatements(
	db: D1Database,
	before: OrderRow,
	previousToken: string | null,
	{ after, event, itemUpdates, shipmentChanges = [], made }: MoveStep,
	now: Date,
): { statements: D1PreparedStatement[]; recorded: Array<{ recorded: RecordedEvent; at: number }> } {
	const update = updateRow(db, "orders", versionedColumnValues(after), {
		// An archived order's slim row is never moved: its machine restores it first (archive-store.ts).
		sql: "id = ?1 AND version = ?2 AND archived_at IS NULL AND (?3 IS NULL OR write_token = ?3)",
		params: [after.id, before.version, previousToken],
	});
	// The event and item rows go in only when the order row carries this step's token, i.e. the update
	// above applied; a stale writer's batch changes nothing at all.
	const statements: D1PreparedStatement[] = [update];
	for (const item of itemUpdates) statements.push(guardedItemUpdate(db, item, after));
	const history: OrderMoveRow = {
		order_id: after.id,
		version: after.version,
		move: made.move.kind,
		actor: made.actor,
		from_status: before.status,
		to_status: after.status,
		note: moveNote(made.move),
		created_at: now.toISOString(),
	};
	statements.push(insertMove(db, history, after.write_token));
	// Written only when the order row carries this step's token, like the history row.
	const condition = {
		sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2)",
		params: [after.id, after.write_token],
	};
	// The ledger's entry of this move (a charge, a repricing, a cancellation's credit), on the same condition.
	statements.push(...ledgerStatements(db, before, after, now, condition));
	const subject = eventSubject(after);
	// Each event with the place of its first statement among the step's.
	const recorded: Array<{ recorded: RecordedEvent; at: number }> = [];
	const record = (event: RecordedEvent) => {
		recorded.push({ recorded: event, at: statements.length });
		statements.push(...event.statements);
	};
	const newEvent = { accountId: after.account_id, mode: after.mode, order: subject, createdAt: now };
	for (const change of shipmentChanges) {
		statements.push(shipmentWrite(db, change.shipment, after.write_token));
		const shipmentEvent = eventStatements(
			db,
			{
				...newEvent,
				type: change.event,
				shipment: shipmentView(change.shipment),
				delivery: { url: after.callback_url },
			},
			condition,
		);
		record(shipmentEvent);
	}
	if (event === null) return { statements, recorded };
	const said = updateSaid(made.move, after);
	record(eventStatements(db, { ...newEvent, type: event, ...said, delivery: { url: after.callback_url } }, condition));
	return { statements, recorded };
}

/**
 * What the `order.updated` event of a move says changed: a partner's change its own fields, a fix of
 * items the items and the costs as the fix leaves them. Other moves' events say nothing of it.
 */
function updateSaid(move: RecordedMove, after: OrderRow): { update?: OrderUpdateSubject } {
	if (move.kind === "update") return { update: move.update };
	if (move.kind === "fix_items") return { update: { changes: move.changes ?? [], costs: shownCosts(after.costs) } };
	return {};
}

/** An item's change, written only where its order's row carries `after`'s token (the move's update applied). */
function guardedItemUpdate(db: D1Database, item: ItemRow, after: OrderRow): D1PreparedStatement {
	return updateRow(db, "order_items", changedItemColumnValues(item), {
		sql: "id = ?1 AND order_id = ?2 AND EXISTS (SELECT 1 FROM orders WHERE id = ?2 AND write_token = ?3)",
		params: [item.id, item.order_id, after.write_token],
	});
}
