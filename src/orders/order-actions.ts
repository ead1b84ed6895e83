/**
 * What a partner may still do to an order, and until when: one function per action, used by the
 * routes that make the change (to refuse it) and by `GET /v1/orders/{id}/actions` (to say so), so
 * the two never disagree. Pure: the order as read and the clock are the caller's. What ends the
 * partner's changes in production is the floor's start (edit-window.ts), not a clock.
 */
import { floorStartedReason } from "./edit-window.ts";
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

/**
 * An order in production may change until the floor starts it, a moment no clock fixes (`until`
 * null); once started, why not and since when.
 */
function inProductionChange(order: OrderRow, what: string): Availability {
	return order.started_at === null ? OPEN : closed(floorStartedReason(order.started_at, what));
}

/**
 * The recipient (`ship_to`) and the shipping method: while the order is received, validating or on
 * hold, or in production until the floor starts it.
 */
export function shippingChange(order: OrderRow, what: "recipient" | "shipping method"): Availability {
	const past = pastProduction(order);
	if (past !== null) return closed(`${past} Its ${what} can no longer change.`);
	if (order.status === "in_production") return inProductionChange(order, what);
	return OPEN;
}

/**
 * The items (file, size, framing): while the order is on hold, or in production until the floor
 * starts it. While it is received or validating its items are being checked.
 */
export function itemsChange(stored: StoredOrder): Availability {
	const { order } = stored;
	const past = pastProduction(order);
	if (past !== null) return closed(`${past} Its items can no longer change.`);
	if (order.status === "received" || order.status === "validating") {
		return closed("The order's items are being checked; read the order again in a moment.");
	}
	if (order.status === "in_production") return inProductionChange(order, "items");
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
		update_recipient: shippingChange(stored.order, "recipient"),
		update_shipping_method: shippingChange(stored.order, "shipping method"),
		update_items: itemsChange(stored),
		update_metadata: metadataChange(),
	};
}
