/**
 * What an order's Durable Object does when the order is asked to move on by itself, as a pure function
 * of the order and of what asked: validate it (the only way into validation), make the sandbox's next
 * move of a test order, or nothing. When it next wakes for the order is alarm-plan.ts's to say.
 */
import type { ItemRow, OrderRow } from "./rows.ts";

/**
 * What asks an order to move on by itself: its create, its alarm (set for a version of the order, or
 * for whatever it is now), or the sandbox's advance.
 */
export type Trigger = { kind: "created" } | { kind: "alarm"; forVersion: number | null } | { kind: "advance" };

/**
 * What planNext reads of an order: its status, mode and version, whether the floor started it, and
 * where its items' files come from.
 */
export type OrderToPlan = {
	order: Pick<OrderRow, "status" | "mode" | "version" | "sandbox_progress" | "started_at">;
	items: ReadonlyArray<Pick<ItemRow, "print_file_url">>;
};

/**
 * The order's next step. `validate` with `startFirst` writes the start of validation before the check
 * (its files are fetched, which takes a while); without, the start and the verdict are one write. `wait`
 * answers the order as it is; `refuse` turns down a sandbox advance that has nothing to do.
 */
export type NextStep =
	| { kind: "validate"; startFirst: boolean }
	| { kind: "sandbox_move"; move: "start" | "ship" | "deliver" }
	| { kind: "wait" }
	| { kind: "refuse"; message: string };

/** What the machine does for `trigger` on the order as it is now. */
export function planNext(stored: OrderToPlan, trigger: Trigger): NextStep {
	const { order } = stored;
	const toValidate = order.status === "received" || order.status === "validating";
	// An alarm set for a version the order has left does nothing, unless the order is still to be
	// validated: an alarm that started a validation is also its retry.
	const stale =
		trigger.kind === "alarm" && trigger.forVersion !== null && order.version !== trigger.forVersion && !toValidate;
	if (stale) return { kind: "wait" };
	// A test order the sandbox moves on by hand is left as it is until the partner's controls move it;
	// a validation once started runs to its verdict.
	if (byHand(order) && trigger.kind !== "advance" && order.status !== "validating") return { kind: "wait" };
	if (toValidate) return { kind: "validate", startFirst: order.status === "received" && !checksUploadsOnly(stored) };
	// The sandbox walks a test order as the floor would: start it, then ship it, each a step apart. Its
	// advance asks for the next status at once, and a ship starts an order no one started in the same write.
	if (order.mode === "test" && order.status === "in_production") {
		const starts = order.started_at === null && trigger.kind !== "advance";
		return { kind: "sandbox_move", move: starts ? "start" : "ship" };
	}
	if (order.mode === "test" && order.status === "shipped") return { kind: "sandbox_move", move: "deliver" };
	return idleStep(order, trigger);
}

/**
 * The step of an order with nothing to do by itself: answered as it is, or, for the sandbox's advance,
 * refused with its status.
 */
export function idleStep(order: Pick<OrderRow, "status">, trigger: Trigger): NextStep {
	if (trigger.kind !== "advance") return { kind: "wait" };
	return { kind: "refuse", message: `The sandbox cannot advance an order that is ${order.status}.` };
}

/** Whether the order is a test order that the sandbox only moves by the partner's controls. */
export function byHand(order: Pick<OrderRow, "mode" | "sandbox_progress">): boolean {
	return order.mode === "test" && order.sandbox_progress === "manual";
}

/** Whether every item's file is an upload (no fetch from a URL), so validating it takes moments. */
export function checksUploadsOnly({ items }: Pick<OrderToPlan, "items">): boolean {
	return items.every((item) => item.print_file_url === null);
}
