/**
 * The console's order page: one order as the floor works it. Its sections are components of their
 * own: the facts in `order-facts.tsx`, the items in `order-items.tsx`, the Start production button in
 * `start-panel.tsx`, the move forms in `order-moves.tsx` and the history in `order-history.tsx`.
 */

import type { OrderMoveRow } from "../orders/history.ts";
import { stateOf } from "../orders/rows.ts";
import { decidingHoldReason } from "../orders/state-machine.ts";
import { crossesBorder } from "../production/invoice-page.ts";
import type { OrderSheet } from "../production/order-sheet.ts";
import { EditWindowBanner } from "./edit-window-banner.tsx";
import { Layout, StatusBadge } from "./layout.tsx";
import { type ConsoleMove, DONE_MESSAGES, type InvalidMoveForm } from "./move-forms.ts";
import {
	AddressWarningsBanner,
	CostsPanel,
	GiftPanel,
	HoldPanel,
	PartnerPanel,
	ReturnAddressPanel,
	ShipToPanel,
	TrackingPanel,
} from "./order-facts.tsx";
import { HistoryPanel } from "./order-history.tsx";
import { ItemsPanel, WarningsBanner } from "./order-items.tsx";
import { ConfirmCancel, MovesPanel } from "./order-moves.tsx";
import { type ShipmentFormOutcome, ShipmentsPanel } from "./order-shipments.tsx";
import { isShipmentAction, SHIPMENT_DONE_MESSAGES, type ShipmentAction } from "./shipment-forms.ts";
import { StartPanel } from "./start-panel.tsx";

// The page's tests read file sizes through this module.
export { bytesText } from "../http/format.ts";

/** What the order page shows besides the order: the last move's outcome, or why it did not happen. */
export type OrderPageProps = {
	sheet: OrderSheet;
	history: readonly OrderMoveRow[];
	csrfToken: string;
	done: ConsoleMove | ShipmentAction | null;
	/** A move the order's status refused (409), or another failure to report above the forms. */
	refusal: string | null;
	invalid: InvalidMoveForm | null;
	/** The last shipment form, refused or back with errors. */
	shipmentForm: ShipmentFormOutcome;
	/** A cancel asked for with this reason and not yet confirmed; null otherwise. */
	confirmCancel: string | null;
};

/** One order as the floor works it: partner, addresses, items and their files, history, and the moves it allows. */
export function OrderPage({
	sheet,
	history,
	csrfToken,
	done,
	refusal,
	invalid,
	shipmentForm,
	confirmCancel,
}: OrderPageProps) {
	const { order } = sheet;
	const state = stateOf(order);
	return (
		<Layout title={`Order ${order.external_id}`} csrfToken={csrfToken}>
			<div class="heading">
				<h1>Order {order.external_id}</h1>
				<StatusBadge status={order.status} testId="order-status" />
				<span class="links">
					<a href={`/ops/orders/${order.id}/work-ticket`}>Work tickets</a>
					<a href={`/ops/orders/${order.id}/packing-slip`}>Packing slip</a>
					{crossesBorder(sheet.costs) ? (
						<a href={`/ops/orders/${order.id}/commercial-invoice`}>Commercial invoice</a>
					) : null}
				</span>
			</div>
			{done === null ? null : (
				<div role="status">{isShipmentAction(done) ? SHIPMENT_DONE_MESSAGES[done] : DONE_MESSAGES[done]}</div>
			)}
			{confirmCancel === null ? null : (
				<ConfirmCancel
					orderId={order.id}
					externalId={order.external_id}
					status={order.status}
					reason={confirmCancel}
					csrfToken={csrfToken}
				/>
			)}
			<EditWindowBanner order={order} now={new Date()} />
			<StartPanel order={order} csrfToken={csrfToken} now={new Date()} />
			<WarningsBanner items={sheet.items} />
			<AddressWarningsBanner sheet={sheet} />
			<div class="grid">
				<PartnerPanel sheet={sheet} />
				<ShipToPanel sheet={sheet} />
				<ReturnAddressPanel sheet={sheet} />
				<CostsPanel sheet={sheet} />
				<GiftPanel order={order} />
			</div>
			<TrackingPanel order={order} tracking={state.tracking} />
			<ShipmentsPanel
				orderId={order.id}
				status={order.status}
				shipments={sheet.stored.shipments}
				items={sheet.items}
				csrfToken={csrfToken}
				outcome={shipmentForm}
			/>
			<HoldPanel order={order} holdDetails={state.holdDetails} items={sheet.items} />
			<ItemsPanel orderId={order.id} items={sheet.items} />
			<MovesPanel
				orderId={order.id}
				status={order.status}
				holdReason={decidingHoldReason(order.hold_reason, state.holdDetails)}
				csrfToken={csrfToken}
				refusal={refusal}
				invalid={invalid}
			/>
			<HistoryPanel history={history} />
		</Layout>
	);
}
