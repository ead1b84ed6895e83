/**
 * What a change of an order writes: the order row at its new version, its history row, the ledger's
 * entry when the change reprices a charged order, and its `order.updated` event with the deliveries, in
 * one batch that applies only over the version read.
 */
import type { PendingDelivery } from "../webhooks/store.ts";
import { jsonColumn } from "./columns.ts";
import { eventStatements } from "./event-statements.ts";
import type { OrderUpdateSubject } from "./events.ts";
import { insertMove } from "./history.ts";
import { ledgerStatements } from "./ledger-moves.ts";
import { StaleOrder } from "./move-store.ts";
import { eventSubject, type OrderRow } from "./rows.ts";

/**
 * Writes `after` over `before` with its `order.updated` event, only if the order is still at
 * `before`'s version (else StaleOrder, and nothing at all is written). The deliveries to start.
 */
export async function writeUpdate(
	db: D1Database,
	before: OrderRow,
	after: OrderRow,
	update: OrderUpdateSubject,
	now: Date,
): Promise<PendingDelivery[]> {
	const orderRow = db
		.prepare(
			`UPDATE orders SET ship_to = ?3, ship_to_warnings = ?4, shipping_method = ?5, costs = ?6, quote_id = ?7,
			   metadata = ?8, version = ?9, write_token = ?10
			 WHERE id = ?1 AND version = ?2`,
		)
		.bind(
			after.id,
			before.version,
			jsonColumn(after.ship_to),
			jsonColumn(after.ship_to_warnings),
			after.shipping_method,
			jsonColumn(after.costs),
			after.quote_id,
			jsonColumn(after.metadata),
			after.version,
			after.write_token,
		);
	const history = insertMove(
		db,
		{
			order_id: after.id,
			version: after.version,
			move: "update",
			actor: "partner",
			from_status: before.status,
			to_status: after.status,
			note: update.changes.map((change) => change.field).join(", "),
			created_at: now.toISOString(),
		},
		after.write_token,
	);
	// Written only when the order row carries this change's token, i.e. the update above applied.
	const condition = {
		sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2)",
		params: [after.id, after.write_token],
	};
	const event = eventStatements(
		db,
		{
			type: "order.updated",
			accountId: after.account_id,
			mode: after.mode,
			order: eventSubject(after),
			update,
			delivery: { url: after.callback_url },
			createdAt: now,
		},
		condition,
	);
	// A new method or destination on a charged order (held by the floor after its release) reprices it.
	const ledger = ledgerStatements(db, before, after, now, condition);
	const results = await db.batch([orderRow, history, ...ledger, ...event.statements]);
	if ((results[0]?.meta.changes ?? 0) === 0) throw new StaleOrder(before.id);
	return event.pendingDeliveries(results.slice(2 + ledger.length));
}
