import { type Refusal, refusal, refusalOf } from "../problem.ts";
import type { MoveOutcome } from "./move-outcome.ts";
import type { OrderMachine } from "./order-machine.do.ts";
import type { StoredOrder } from "./rows.ts";

/** The Durable Object that serializes an order's moves. */
export function orderMachine(env: Env, orderId: string): DurableObjectStub<OrderMachine> {
	return env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
}

/** What an order's move came to, as a result: the order after it, or the refusal under its catalog code. */
export type OrderMoved = { ok: true; order: StoredOrder } | Refusal;

/** A move's outcome as a result: the order after it, or why not (see `moveRefusal`). */
export function moveResult(outcome: MoveOutcome): OrderMoved {
	return outcome.ok ? { ok: true, order: outcome.order } : moveRefusal(outcome);
}

/**
 * Why a move was refused, under its catalog code: `order_not_found` for an unknown order, a label
 * reused for other units, a hold only the partner's fix clears, a partner's change of an order the
 * floor started (`order_not_editable`, as a PATCH's), or else a move the status does not allow (the
 * message names the current status).
 */
export function moveRefusal(outcome: Exclude<MoveOutcome, { ok: true }>): Refusal {
	if (outcome.kind === "not_found") return refusal("order_not_found", "id", outcome.message);
	if (outcome.kind === "label_reused") return refusal("shipment_label_reused", "number", outcome.message);
	const message = `${outcome.message} (current status: ${outcome.status ?? "unknown"})`;
	if (outcome.floorStarted) return refusalOf("order_not_editable", message);
	return refusalOf(outcome.partnerMustFix ? "hold_needs_partner_fix" : "order_move_refused", message);
}
