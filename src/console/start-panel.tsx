/**
 * The order page's word on production, at its top: an order in production that the floor may start
 * has a Start production button (where a scan of its work ticket lands), and a started one says since
 * when. Before the partner's edit window has passed, EditWindowBanner says when it may start instead.
 */

import { formatTime } from "../http/format.ts";
import { inEditWindow } from "../orders/edit-window.ts";
import type { OrderRow } from "../orders/rows.ts";
import { StartForm } from "./order-moves.tsx";

/** The Start production panel of an order in production, or when it started; nothing in any other status. */
export function StartPanel({ order, csrfToken, now }: { order: OrderRow; csrfToken: string; now: Date }) {
	if (order.status !== "in_production" || inEditWindow(order, now)) return null;
	if (order.started_at !== null) {
		return (
			<p class="started" data-testid="production-started">
				Production started {formatTime(order.started_at)}: the partner can no longer change or cancel the order.
			</p>
		);
	}
	return (
		<section class="panel start-panel" id="start" aria-labelledby="start-heading" data-testid="start-panel">
			<h2 id="start-heading">Not started</h2>
			<p>
				The partner may still change the recipient, the shipping method and the items, or cancel the order, until the
				floor starts it. Start it when the piece goes on the bench; shipping it starts it too.
			</p>
			<StartForm orderId={order.id} csrfToken={csrfToken} />
		</section>
	);
}
