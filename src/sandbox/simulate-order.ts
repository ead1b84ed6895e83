/**
 * The sandbox's controls over a test order: each action is what the floor or a carrier does to a live
 * order, made by the same functions the ops API and the console call (the order's Durable Object, its
 * state machine, ledger and events). Only validation's own holds are made here, as the system's
 * moves validation would make, through the same machine.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { moveResult, type OrderMoved, orderMachine } from "../orders/machine.ts";
import { moveAsOperator, moveShipmentAsOperator, shipUnitsAsOperator } from "../orders/operator-moves.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { sandboxTracking } from "../orders/shipment-moves.ts";
import type { Move } from "../orders/state-machine.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
import { simulatedHoldDetail } from "./hold-details.ts";
import type { OrderSimulation } from "./simulate-body.ts";

/** A simulation's outcome: the order after it (with the shipments it made, for `ship`), or why not. */
export type Simulated = { ok: true; order: StoredOrder } | Refusal;

/** The words of the floor's moves the sandbox makes without the partner's own. */
const SANDBOX_HOLD_MESSAGE = "The floor held the order. (Simulated by the sandbox.)";
const SANDBOX_CANCEL_REASON = "Canceled by the floor. (Simulated by the sandbox.)";

/** Makes `action` happen to the owner's test order `orderId`. */
export async function simulateOrder(
	env: Env,
	owner: Owner,
	orderId: string,
	action: OrderSimulation,
): Promise<Simulated> {
	const found = await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES);
	if (found === null) return refusal("order_not_found", "id", `No order ${orderId}.`);
	switch (action.action) {
		case "validate":
			return validateNow(env, found);
		case "hold":
			return hold(env, found, action);
		case "release":
			return moveAsOperator(env, orderId, { kind: "release" });
		case "start":
			return moveAsOperator(env, orderId, { kind: "start" });
		case "ship":
			return ship(env, owner, found, action.boxes ?? [{}]);
		case "deliver":
			return action.shipment_id === undefined
				? moveAsOperator(env, orderId, { kind: "deliver" })
				: shipmentMove(env, owner, orderId, action.shipment_id, "deliver");
		case "return":
			return returnToSender(env, owner, found, action.shipment_id);
		case "cancel":
			return moveAsOperator(env, orderId, { kind: "cancel", reason: action.reason ?? SANDBOX_CANCEL_REASON });
	}
}

/** Validation of an order still to be validated, now (the sandbox's advance); refused for any other. */
async function validateNow(env: Env, found: StoredOrder): Promise<Simulated> {
	const { status, id } = found.order;
	if (status !== "received" && status !== "validating") {
		return refusalOf("order_move_refused", `Cannot validate an order that is ${status}. (current status: ${status})`);
	}
	return moveResult(await orderMachine(env, id).advance(id));
}

/**
 * A hold for `reason`. The floor's reasons go through the floor's move (`operator_hold`) or the
 * system's move for a file changed after its check (`file_unreadable` in production); validation's
 * hold an order still to be validated, as its verdict would, starting validation in the same write.
 */
async function hold(
	env: Env,
	found: StoredOrder,
	action: Extract<OrderSimulation, { action: "hold" }>,
): Promise<Simulated> {
	const { order, items } = found;
	if (action.reason === "operator_hold") {
		return moveAsOperator(env, order.id, { kind: "hold", message: action.message ?? SANDBOX_HOLD_MESSAGE });
	}
	const item = action.item_id === undefined ? items[0] : items.find((candidate) => candidate.id === action.item_id);
	if (item === undefined) {
		return refusal("invalid_field", "item_id", `item_id: order ${order.id} has no item ${action.item_id}.`);
	}
	const detail = simulatedHoldDetail(action.reason, item);
	const machine = orderMachine(env, order.id);
	if (order.status === "in_production" && action.reason === "file_unreadable") {
		return moveResult(await machine.move(order.id, { kind: "file_changed", holdDetails: [detail] }, "system"));
	}
	const verdict: Move = { kind: "fail_validation", holdReason: action.reason, holdDetails: [detail] };
	const moves: Move[] = order.status === "received" ? [{ kind: "start_validation" }, verdict] : [verdict];
	return moveResult(await machine.move(order.id, moves, "system"));
}

/**
 * The order's units shipped box by box, each a shipment with its own sandbox tracking, as the floor
 * records them; a box refused stops the run, the boxes before it staying shipped (the message says so).
 */
async function ship(
	env: Env,
	owner: Owner,
	found: StoredOrder,
	boxes: ReadonlyArray<{ items?: ItemUnits[] | undefined }>,
): Promise<Simulated> {
	let recorded = 0;
	for (const [index, box] of boxes.entries()) {
		const tracking = sandboxTracking();
		const made = await shipUnitsAsOperator(env, found.order.id, { ...tracking, items: box.items });
		if (!made.ok)
			return recorded === 0
				? made
				: { ...made, message: `boxes[${index}]: ${made.message} (${recorded} box(es) before it shipped.)` };
		recorded += 1;
	}
	return reread(env, owner, found.order.id);
}

type ItemUnits = { item_id: string; quantity: number };

/** A box returned to its sender: the one named, or the only one in transit. */
async function returnToSender(
	env: Env,
	owner: Owner,
	found: StoredOrder,
	shipmentId: string | undefined,
): Promise<Simulated> {
	if (shipmentId !== undefined) return shipmentMove(env, owner, found.order.id, shipmentId, "return");
	const inTransit = found.shipments.filter((shipment) => shipment.status === "in_transit");
	const only = inTransit[0];
	if (inTransit.length !== 1 || only === undefined) {
		return refusal(
			"invalid_field",
			"shipment_id",
			`shipment_id: order ${found.order.id} has ${inTransit.length} boxes in transit; name the one returned.`,
		);
	}
	return shipmentMove(env, owner, found.order.id, only.id, "return");
}

/** A box's move (delivered, returned) on this order, then the order as it is after it. */
async function shipmentMove(
	env: Env,
	owner: Owner,
	orderId: string,
	shipmentId: string,
	kind: "deliver" | "return",
): Promise<Simulated> {
	const moved = await moveShipmentAsOperator(env, shipmentId, kind, orderId);
	return moved.ok ? reread(env, owner, orderId) : moved;
}

/** The order as it is now, after moves that answered a shipment. */
async function reread(env: Env, owner: Owner, orderId: string): Promise<OrderMoved> {
	const stored = await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES);
	return stored === null ? refusal("order_not_found", "id", `No order ${orderId}.`) : { ok: true, order: stored };
}
