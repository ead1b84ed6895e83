import { ApiError } from "../http/errors.ts";
import type { MoveOutcome, OrderMachine } from "./order-machine.do.ts";
import type { StoredOrder } from "./rows.ts";

/** The Durable Object that serializes an order's moves. */
export function orderMachine(env: Env, orderId: string): DurableObjectStub<OrderMachine> {
	return env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
}

/** The order a move produced, or the API's error: 409 naming the current status, or 404. */
export function orderFromOutcome(outcome: MoveOutcome): StoredOrder {
	if (outcome.ok) return outcome.order;
	if (outcome.kind === "not_found") throw new ApiError("order_not_found", outcome.message, "id");
	const message = `${outcome.message} (current status: ${outcome.status ?? "unknown"})`;
	throw new ApiError(outcome.partnerMustFix ? "hold_needs_partner_fix" : "order_move_refused", message);
}
