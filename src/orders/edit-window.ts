/**
 * The edit window: how long after its creation a partner may still change an order while the floor
 * does not see it. Pure; the one place that answers "is this order still the partner's to change".
 */

/** What the window needs of an order: the end of its window, fixed at creation (null: none). */
export type WindowOf = { id: string; editable_until: string | null };

/** Why an order in production can no longer have its `what` changed, and since when. */
export function windowClosedReason(order: WindowOf & { updated_at: string }, what: string): string {
	const why =
		order.editable_until === null
			? `the account has no edit window, and the order is in production since ${order.updated_at}`
			: `its edit window ended at ${order.editable_until}, and the order is in production`;
	return `The order's ${what} can no longer change: ${why}.`;
}

/** Whether `order`'s edit window is still open at `now`. */
export function inEditWindow(order: WindowOf, now: Date): boolean {
	return order.editable_until !== null && Date.parse(order.editable_until) > now.getTime();
}

/** Why the floor may not work `order` at `now` (ship it, print its tickets), or null once its window has passed. */
export function floorRefusal(order: WindowOf, now: Date): string | null {
	if (!inEditWindow(order, now)) return null;
	return `Order ${order.id} can still be changed by the partner until ${order.editable_until}: the floor cannot work it before then.`;
}

/** When the window ends, in epoch milliseconds (0 without a window): what waits for it waits until then. */
export function windowEndMs(order: WindowOf): number {
	return order.editable_until === null ? 0 : Date.parse(order.editable_until);
}
