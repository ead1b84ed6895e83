/** The order page's notice that the partner may still change the order, so the floor leaves it for now. */
import { inEditWindow } from "../orders/edit-window.ts";
import type { OrderRow } from "../orders/rows.ts";
import { formatTime } from "./format.ts";

/** "Editable by the partner until …" while the order's edit window is open at `now`; nothing after. */
export function EditWindowBanner({ order, now }: { order: OrderRow; now: Date }) {
	if (order.editable_until === null || !inEditWindow(order, now)) return null;
	return (
		<section class="warn-banner" aria-labelledby="edit-window-heading" data-testid="edit-window">
			<h2 id="edit-window-heading">Editable by the partner until {formatTime(order.editable_until)}</h2>
			<p>
				The partner may still change the recipient, the shipping method and the items. The order is not in the queue and
				cannot be shipped or its work tickets printed before then.
			</p>
		</section>
	);
}
