/**
 * A partner's cancel and change of one of their orders, looked up by its owner (account and mode):
 * the functions `POST /v1/orders/{id}/cancel`, `PATCH /v1/orders/{id}` and the partner console call.
 * Another account's or mode's order is not found, exactly as an unknown id.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { refusal } from "../problem.ts";
import { moveResult, type OrderMoved, orderMachine } from "./machine.ts";
import type { UpdateOutcome } from "./order-update.ts";
import { findOwnedOrder } from "./store.ts";
import type { UpdateOrderInput } from "./update-schema.ts";

/** Whether `owner` has order `orderId`. */
async function ownsOrder(env: Env, owner: Owner, orderId: string): Promise<boolean> {
	return (await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES)) !== null;
}

/** Cancels `owner`'s order `orderId` as the partner: the order after it, or why not (unknown, or a status that refuses). */
export async function cancelOwnedOrder(env: Env, owner: Owner, orderId: string): Promise<OrderMoved> {
	if (!(await ownsOrder(env, owner, orderId))) return refusal("order_not_found", "id", `No order ${orderId}.`);
	return moveResult(await orderMachine(env, orderId).move(orderId, { kind: "cancel" }, "partner"));
}

/** Changes `owner`'s order `orderId` as `input` says (recipient, shipping method, metadata), in the order's machine. */
export async function updateOwnedOrder(
	env: Env,
	owner: Owner,
	orderId: string,
	input: UpdateOrderInput,
): Promise<UpdateOutcome> {
	if (!(await ownsOrder(env, owner, orderId))) return { ok: false, kind: "not_found", message: `No order ${orderId}.` };
	const { accountId, mode } = owner;
	return orderMachine(env, orderId).update({ owner: { accountId, mode }, orderId, input });
}
