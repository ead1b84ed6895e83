/**
 * What an order's move owes the ledger: its charge when the move releases it to the floor, the
 * difference when a charged order's costs change, the charge back when a charged order is canceled.
 * The statements join the move's own batch under its condition, so an entry commits with its move.
 */
import { type EntryTaxRule, NO_TAX } from "../ledger/entry-tax.ts";
import {
	cancellationEntry,
	chargeEntry,
	type EntryOrder,
	repricingEntry,
	type TaxedAmount,
	unchargedCondition,
} from "../ledger/store.ts";
import type { WriteCondition } from "../webhooks/store.ts";
import { type OrderColumns, orderOfColumns } from "./columns.ts";
import { inEditWindow } from "./edit-window.ts";
import type { OrderRow } from "./rows.ts";

const RELEASED_STATUSES: ReadonlySet<OrderRow["status"]> = new Set(["in_production", "shipped", "delivered"]);

/** Whether the floor has the order at `now`: in production (or past it) with its edit window over. */
export function releasedToFloor(order: OrderRow, now: Date): boolean {
	return RELEASED_STATUSES.has(order.status) && !inEditWindow(order, now);
}

/** The partner tax the order kept when it was made; none on orders made before orders kept it. */
function keptTax(order: OrderRow): EntryTaxRule {
	return order.costs?.partner_tax ?? NO_TAX;
}

/**
 * The order's total, and its taxable part: the total less the border's taxes and duties the service pays
 * on the partner's behalf (disbursements, outside the partner tax; none on older orders).
 */
function chargedAmount(order: OrderRow): TaxedAmount {
	const cents = order.costs?.total ?? 0;
	return { cents, taxableCents: cents - (order.costs?.taxes_and_duties ?? 0) };
}

/** The order as its ledger entries name it: its ids, its currency and the partner tax it kept. */
export function entryOrderOf(order: OrderRow): EntryOrder {
	return { id: order.id, externalId: order.external_id, currency: order.costs?.currency ?? "USD", tax: keptTax(order) };
}

/**
 * The ledger's statements for a move from `before` to `after`, under the move's condition. The repricing
 * comes before the charge: a move that releases an order charges its new total, and reprices nothing.
 */
export function ledgerStatements(
	db: D1Database,
	before: OrderRow,
	after: OrderRow,
	now: Date,
	condition: WriteCondition,
): D1PreparedStatement[] {
	const owner = { accountId: after.account_id, mode: after.mode };
	const statements: D1PreparedStatement[] = [];
	const beforeCharge = chargedAmount(before);
	const afterCharge = chargedAmount(after);
	if (afterCharge.cents !== beforeCharge.cents && after.status !== "canceled") {
		const order = { ...entryOrderOf(after), version: after.version };
		const difference = {
			cents: afterCharge.cents - beforeCharge.cents,
			taxableCents: afterCharge.taxableCents - beforeCharge.taxableCents,
		};
		statements.push(repricingEntry(db, owner, order, difference, now, condition));
	}
	if (after.status === "canceled" && before.status !== "canceled") {
		statements.push(cancellationEntry(db, owner, entryOrderOf(after), now, condition));
	} else if (releasedToFloor(after, now) && afterCharge.cents > 0) {
		statements.push(chargeEntry(db, owner, entryOrderOf(after), afterCharge, now, condition));
	}
	return statements;
}

/**
 * The statements that charge an order whose edit window has ended since its move to production, or null
 * when it is not released or costs nothing: the charge applies only while the order row is still the one
 * read, and once (`cause_key`), and the order then leaves the sweep's index.
 */
function chargeStatements(db: D1Database, order: OrderRow, now: Date): D1PreparedStatement[] | null {
	const charge = chargedAmount(order);
	if (!releasedToFloor(order, now) || charge.cents <= 0) return null;
	const condition = {
		sql: "EXISTS (SELECT 1 FROM orders WHERE id = ?1 AND write_token = ?2)",
		params: [order.id, order.write_token],
	};
	const owner = { accountId: order.account_id, mode: order.mode };
	return [
		chargeEntry(db, owner, entryOrderOf(order), charge, now, condition),
		// Charged (now, or before): the order leaves the sweep's index.
		db
			.prepare(
				`UPDATE orders SET awaiting_charge = NULL
				  WHERE id = ?1 AND awaiting_charge = 1 AND NOT ${unchargedCondition("orders.id")}`,
			)
			.bind(order.id),
	];
}

/**
 * Charges an order whose edit window has ended (its Durable Object's alarm). Returns whether the order
 * was released and charged (or had been).
 */
export async function chargeIfReleased(db: D1Database, order: OrderRow, now: Date): Promise<boolean> {
	const statements = chargeStatements(db, order, now);
	if (statements === null) return false;
	await db.batch(statements);
	return true;
}

/**
 * The cron's safety net: orders in production whose window ended and that have no charge yet (at most
 * 100). Reprints, which cost nothing and are never charged, are left out, so they cannot fill the batch.
 */
export async function chargeReleasedOrders(db: D1Database, now: Date = new Date()): Promise<number> {
	// Only the orders in production still awaiting their charge are read. Named, because the planner
	// would otherwise take orders_by_status and read every order in production.
	const { results } = await db
		.prepare(
			`SELECT * FROM orders INDEXED BY orders_awaiting_charge
			  WHERE status = 'in_production' AND awaiting_charge = 1 AND editable_until <= ?1
			   AND json_extract(costs, '$.charge') IS NOT 'reprint' AND ${unchargedCondition("orders.id")} LIMIT 100`,
		)
		.bind(now.toISOString())
		.all<OrderColumns>();
	// Every charge of the batch in one D1 batch, one round trip: each is guarded by its own order's
	// write token and cause key, so an order moved or charged meanwhile is skipped, not the batch.
	const charges = results.map((row) => chargeStatements(db, orderOfColumns(row), now)).filter((each) => each !== null);
	if (charges.length > 0) await db.batch(charges.flat());
	return charges.length;
}
