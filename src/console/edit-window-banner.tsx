/** The order page's notice that the partner's edit window is open, so the floor leaves the order for now. */

import { formatTime } from "../http/format.ts";
import { inEditWindow } from "../orders/edit-window.ts";
import type { OrderRow } from "../orders/rows.ts";

/** "Not to be started before …" while the order's edit window is open at `now`; nothing after. */
export function EditWindowBanner({ order, now }: { order: OrderRow; now: Date }) {
	if (order.editable_until === null || !inEditWindow(order, now)) return null;
	return (
		<section class="warn-banner" aria-labelledby="edit-window-heading" data-testid="edit-window">
			<h2 id="edit-window-heading">Not to be started before {formatTime(order.editable_until)}</h2>
			<p>
				The partner's edit window is open: the order is not in the queue and cannot be started, shipped or its work
				tickets printed before then. The partner may change the recipient, the shipping method and the items until the
				floor starts it.
			</p>
		</section>
	);
}
