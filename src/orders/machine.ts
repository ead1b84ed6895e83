import { ApiError } from "../http/errors.ts";
import type { MoveOutcome } from "./move-outcome.ts";
import type { OrderMachine } from "./order-machine.do.ts";
import type { StoredOrder } from "./rows.ts";

/** The Durable Object that serializes an order's moves. */
export function orderMachine(env: Env, orderId: string): DurableObjectStub<OrderMachine> {
	return env.ORDER_MACHINE.get(env.ORDER_MACHINE.idFromName(orderId));
}

/** The order a move produced, or the API's error: 409 naming the current status, or 404. */
export function orderFromOutcome(outcome: MoveOutcome): StoredOrder {
	if (outcome.ok) return outcome.order;
	throw refusalError(outcome);
}

/** The API's error for a refused move: 404 for an unknown order, else 409 naming the current status. */
export function refusalError(outcome: Exclude<MoveOutcome, { ok: true }>): ApiError {
	if (outcome.kind === "not_found") return new ApiError("order_not_found", outcome.message, "id");
	if (outcome.kind === "label_reused") return new ApiError("shipment_label_reused", outcome.message, "number");
	const message = `${outcome.message} (current status: ${outcome.status ?? "unknown"})`;
	return new ApiError(outcome.partnerMustFix ? "hold_needs_partner_fix" : "order_move_refused", message);
}
