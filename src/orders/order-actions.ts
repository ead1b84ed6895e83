/**
 * What a partner may still do to an order, and until when: one function per action, used by the
 * routes that make the change (to refuse it) and by `GET /v1/orders/{id}/actions` (to say so), so
 * the two never disagree. Pure: the order as read and the clock are the caller's.
 */
import { inEditWindow, windowClosedReason } from "./edit-window.ts";
import type { OrderRow, StoredOrder } from "./rows.ts";
import { stateOf } from "./rows.ts";
import { applyWithShipments } from "./shipment-moves.ts";

/** Whether an action is open now, until when it stays open (null: no fixed end), and why not when it is closed. */
export type Availability = { available: boolean; until: string | null; reason: string | null };

/** Every action `GET /v1/orders/{id}/actions` reports. */
export type OrderActions = {
	cancel: Availability;
	update_recipient: Availability;
	update_shipping_method: Availability;
	update_items: Availability;
	update_metadata: Availability;
};

const OPEN: Availability = { available: true, until: null, reason: null };

function closed(reason: string): Availability {
	return { available: false, until: null, reason };
}

/** Why an order past production can no longer change, and since when. */
function pastProduction(order: OrderRow): string | null {
	if (order.status === "shipped") return `The order shipped at ${order.shipped_at ?? order.updated_at}.`;
	if (order.status === "delivered") return `The order was delivered at ${order.delivered_at ?? order.updated_at}.`;
	if (order.status === "canceled") return `The order was canceled at ${order.canceled_at ?? order.updated_at}.`;
	return null;
}

/** An order in production may change only within its edit window: until its end, or why not since when. */
function inProductionChange(order: OrderRow, what: string, now: Date): Availability {
	if (inEditWindow(order, now)) return { available: true, until: order.editable_until, reason: null };
	return closed(windowClosedReason(order, what));
}

/**
 * The recipient (`ship_to`) and the shipping method: while the order is received, validating or on
 * hold, or in production before `editable_until`.
 */
export function shippingChange(order: OrderRow, what: "recipient" | "shipping method", now: Date): Availability {
	const past = pastProduction(order);
	if (past !== null) return closed(`${past} Its ${what} can no longer change.`);
	if (order.status === "in_production") return inProductionChange(order, what, now);
	return OPEN;
}

/**
 * The items (file, size, framing): while the order is on hold, or in production before
 * `editable_until`. While it is received or validating its items are being checked.
 */
export function itemsChange(stored: StoredOrder, now: Date): Availability {
	const { order } = stored;
	const past = pastProduction(order);
	if (past !== null) return closed(`${past} Its items can no longer change.`);
	if (order.status === "received" || order.status === "validating") {
		return closed("The order's items are being checked; read the order again in a moment.");
	}
	if (order.status === "in_production") return inProductionChange(order, "items", now);
	return OPEN;
}

/** The metadata: at any time, in any status. */
export function metadataChange(): Availability {
	return OPEN;
}

/** A partner's cancel: as the state machine and the order's shipments decide it. */
export function cancelChange(stored: StoredOrder, now: Date): Availability {
	const result = applyWithShipments(stored, stateOf(stored.order), { kind: "cancel" }, "partner", now);
	return result.ok ? OPEN : closed(result.message);
}

/** Every action of the order at `now`. */
export function orderActions(stored: StoredOrder, now: Date): OrderActions {
	return {
		cancel: cancelChange(stored, now),
		update_recipient: shippingChange(stored.order, "recipient", now),
		update_shipping_method: shippingChange(stored.order, "shipping method", now),
		update_items: itemsChange(stored, now),
		update_metadata: metadataChange(),
	};
}
