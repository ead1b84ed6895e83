/**
 * What is still the partner's to change, and when the floor may start: a partner changes an order
 * until the floor starts making it (`started_at`), and the account's edit window (`editable_until`,
 * fixed at creation) is the least time the floor waits before it may start. Pure; the one place that
 * answers "is this order still the partner's to change" and "may the floor start it yet".
 */

/** What the window needs of an order: the end of its window, fixed at creation (null: none). */
export type WindowOf = { id: string; editable_until: string | null };

/** Why the order's `what` (its items, its recipient, a cancel) can no longer change: the floor started it at `startedAt`. */
export function floorStartedReason(startedAt: string, what: string): string {
	const change = what === "cancel" ? "The order can no longer be canceled" : `The order's ${what} can no longer change`;
	return `${change}: the floor started it at ${startedAt}.`;
}

/** Whether `order`'s edit window is still open at `now`: the floor may not start it yet. */
export function inEditWindow(order: WindowOf, now: Date): boolean {
	return order.editable_until !== null && Date.parse(order.editable_until) > now.getTime();
}

/** Why the floor may not work `order` at `now` (start it, ship it, print its tickets), or null once its window has passed. */
export function floorRefusal(order: WindowOf, now: Date): string | null {
	if (!inEditWindow(order, now)) return null;
	return `Order ${order.id} is in the partner's edit window until ${order.editable_until}: the floor cannot start or work it before then.`;
}

/** When the window ends, in epoch milliseconds (0 without a window): what waits for it waits until then. */
export function windowEndMs(order: WindowOf): number {
	return order.editable_until === null ? 0 : Date.parse(order.editable_until);
}
