import { z } from "@hono/zod-openapi";
import { ApiError } from "../http/errors.ts";
import { orderFromOutcome, orderMachine } from "./machine.ts";
import type { Move } from "./state-machine.ts";
import { findOrder, type StoredOrder } from "./store.ts";

/** `{message}` of an operator hold: shown to the partner in hold_details. */
export const HoldBody = z
	.strictObject({
		message: z.string().trim().min(1, "must not be empty").max(1000, "must be at most 1000 characters"),
	})
	.openapi("OperatorHoldRequest");

/** A carrier's name or a tracking number: what the partner's webhook and tracking page will show. */
function trackingText() {
	return z.string().trim().min(1, "must not be empty").max(100, "must be at most 100 characters");
}

/** The shipping label's tracking: carrier, number and the carrier's tracking page. */
export const ShipBody = z
	.strictObject({
		carrier: trackingText(),
		number: trackingText(),
		url: z.url({ protocol: /^https?$/, error: "must be an http or https URL" }).max(2048),
	})
	.openapi("ShipRequest");

/**
 * One operator move through the order's Durable Object: the single path of the ops API and the
 * console. 404 for an unknown order, 409 naming the current status when the move is not allowed.
 */
export async function moveAsOperator(env: Env, orderId: string, move: Move): Promise<StoredOrder> {
	if ((await findOrder(env.DB, orderId)) === null) throw new ApiError("not_found", `No order ${orderId}.`, "id");
	return orderFromOutcome(await orderMachine(env, orderId).move(orderId, move, "operator"));
}
