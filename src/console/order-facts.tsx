/**
 * The order page's panels of facts: the partner (with the reprint links), the addresses the label carries, the costs and
 * shipping method, the gift message, the tracking once shipped, and the hold while on hold.
 */

import { formatTime } from "../http/format.ts";
import type { OrderRow } from "../orders/rows.ts";
import {
	decidingHoldReason,
	HOLD_CLEARED_BY,
	type HoldDetail,
	type HoldReason,
	releasable,
	type Tracking,
} from "../orders/state-machine.ts";
import { holdReasonLabel } from "../orders/words.ts";
import { AddressLines, AddressWarningList } from "../production/address.tsx";
import type { OrderSheet, SheetItem } from "../production/order-sheet.ts";
import { Amount, Dash } from "./layout.tsx";

/** Whose order it is, in which mode, and when it came in. */
export function PartnerPanel({ sheet }: { sheet: OrderSheet }) {
	const { order } = sheet;
	return (
		<section class="panel" aria-labelledby="partner-heading">
			<h2 id="partner-heading">Partner</h2>
			<dl class="facts">
				<dt>Name</dt>
				<dd>{sheet.account.name}</dd>
				<dt>Account</dt>
				<dd>
					<code>{sheet.account.id}</code>
				</dd>
				<dt>Mode</dt>
				<dd>{order.mode}</dd>
				<dt>Order id</dt>
				<dd>
					<code>{order.id}</code>
				</dd>
				<ReprintLinks order={order} />
				<dt>Created</dt>
				<dd>
					<time datetime={order.created_at}>{formatTime(order.created_at)}</time>
				</dd>
			</dl>
		</section>
	);
}

/** The original a reprint was made of ("Reprint of"), and the reprints made of an original ("Reprinted as"), each a link. */
function ReprintLinks({ order }: { order: OrderRow }) {
	return (
		<>
			{order.reprint_of === null ? null : (
				<>
					<dt>Reprint of</dt>
					<dd>
						<a href={`/ops/orders/${order.reprint_of}`}>{order.reprint_of}</a>
					</dd>
				</>
			)}
			{order.reprints.length === 0 ? null : (
				<>
					<dt>Reprinted as</dt>
					<dd>
						{order.reprints.map((id, index) => (
							<>
								{index === 0 ? "" : ", "}
								<a href={`/ops/orders/${id}`}>{id}</a>
							</>
						))}
					</dd>
				</>
			)}
		</>
	);
}

/** Where the package goes, with the phone the carrier may call. */
/**
 * The order's address warnings in words, above the facts: a carrier may refuse or misdeliver the box,
 * so the floor checks with the partner before shipping. Nothing when there are none.
 */
export function AddressWarningsBanner({ sheet }: { sheet: OrderSheet }) {
	const warnings = sheet.order.ship_to_warnings;
	if (warnings.length === 0) return null;
	return (
		<section class="warn-banner" aria-labelledby="address-warnings-heading" data-testid="address-warnings">
			<h2 id="address-warnings-heading">Check the address before shipping</h2>
			<AddressWarningList warnings={warnings} />
		</section>
	);
}

export function ShipToPanel({ sheet }: { sheet: OrderSheet }) {
	return (
		<section class="panel" aria-labelledby="ship-to-heading">
			<h2 id="ship-to-heading">Ship to</h2>
			<AddressLines address={sheet.shipTo} />
			{sheet.shipTo.phone === undefined ? null : <p class="muted">Phone {sheet.shipTo.phone}</p>}
		</section>
	);
}

/** The partner's return address, or why the label has none. */
function ReturnAddress({ sheet }: { sheet: OrderSheet }) {
	if (sheet.returnAddress !== null) return <AddressLines address={sheet.returnAddress} />;
	return (
		<p class="warning">
			{sheet.brand === null
				? "No return address on file: the partner has no brand profile."
				: "No return address on file: the partner's brand profile has none."}
		</p>
	);
}

/** The return address the shipping label carries: the partner's, never the service's. */
export function ReturnAddressPanel({ sheet }: { sheet: OrderSheet }) {
	return (
		<section class="panel" aria-labelledby="return-heading">
			<h2 id="return-heading">Shipping label return address</h2>
			<ReturnAddress sheet={sheet} />
		</section>
	);
}

/** What the order costs the partner, and how it ships. */
export function CostsPanel({ sheet }: { sheet: OrderSheet }) {
	const { costs, order } = sheet;
	return (
		<section class="panel" aria-labelledby="costs-heading">
			<h2 id="costs-heading">Shipping and costs</h2>
			<dl class="facts">
				<dt>Shipping method</dt>
				<dd>{order.shipping_method}</dd>
				{costs === null ? (
					<>
						<dt>Costs</dt>
						<dd class="muted">Not priced until every item can be built.</dd>
					</>
				) : (
					<>
						<dt>Items</dt>
						<dd>
							<Amount cents={costs.items} currency={costs.currency} />
						</dd>
						<dt>Shipping</dt>
						<dd>
							<Amount cents={costs.shipping} currency={costs.currency} />
						</dd>
						{costs.landed_cost === undefined || costs.landed_cost.coverage === "domestic" ? null : (
							<>
								<dt>Taxes and duties ({costs.landed_cost.terms.toUpperCase()})</dt>
								<dd>
									<Amount cents={costs.taxes_and_duties ?? 0} currency={costs.currency} />
									{costs.landed_cost.ioss ? " · under the service's IOSS" : null}
								</dd>
								<dt>The buyer pays at the door</dt>
								<dd>
									<Amount
										cents={costs.landed_cost.buyer_pays_at_door.amount}
										currency={costs.landed_cost.buyer_pays_at_door.currency}
									/>
								</dd>
							</>
						)}
						<dt>Total</dt>
						<dd>
							<strong>
								<Amount cents={costs.total} currency={costs.currency} />
							</strong>{" "}
							{costs.currency}
						</dd>
						<dt>Price book</dt>
						<dd>version {costs.price_book_version}</dd>
						<dt>Quote</dt>
						<dd>{costs.quote_id === null ? <Dash /> : <code>{costs.quote_id}</code>}</dd>
					</>
				)}
			</dl>
		</section>
	);
}

/** The partner's gift message, as they wrote it (line breaks kept); nothing when there is none. */
export function GiftPanel({ order }: { order: OrderRow }) {
	if (order.gift_message === null) return null;
	return (
		<section class="panel" aria-labelledby="gift-heading">
			<h2 id="gift-heading">Gift message</h2>
			<p class="gift">{order.gift_message}</p>
		</section>
	);
}

/** The carrier, number and tracking page once shipped, and when it shipped and arrived; nothing before. */
export function TrackingPanel({ order, tracking }: { order: OrderRow; tracking: Tracking | null }) {
	if (tracking === null) return null;
	return (
		<section class="panel" aria-labelledby="tracking-heading">
			<h2 id="tracking-heading">Tracking</h2>
			<dl class="facts">
				<dt>Carrier</dt>
				<dd>{tracking.carrier}</dd>
				<dt>Number</dt>
				<dd class="mono">{tracking.number}</dd>
				<dt>Tracking page</dt>
				<dd>
					<a href={tracking.url} rel="noreferrer">
						{tracking.url}
					</a>
				</dd>
				{order.shipped_at === null ? null : (
					<>
						<dt>Shipped</dt>
						<dd>
							<time datetime={order.shipped_at}>{formatTime(order.shipped_at)}</time>
						</dd>
					</>
				)}
				{order.delivered_at === null ? null : (
					<>
						<dt>Delivered</dt>
						<dd>
							<time datetime={order.delivered_at}>{formatTime(order.delivered_at)}</time>
						</dd>
					</>
				)}
			</dl>
		</section>
	);
}

/** What clears the hold, in the floor's words: a release, or the partner's fix (and then no release is offered). */
function HoldRemedy({ reason }: { reason: HoldReason | null }) {
	if (reason === "operator_hold") {
		return (
			<p>Release it once the problem is sorted out: the order is validated again, then goes back into production.</p>
		);
	}
	if (reason === null || releasable(reason)) {
		return (
			<p>
				Release it to try again: the order is validated again and the partner's file fetched again. If the fetch fails
				again, the partner must fix the file's link.
			</p>
		);
	}
	const cleared = HOLD_CLEARED_BY[reason];
	const fix = cleared.by === "partner" ? cleared.fix : "";
	return (
		<p class="needs-partner" data-testid="hold-remedy">
			The floor cannot fix this: a release would only hold it again. The partner must {fix}, by fixing the item through
			the API. The order is then validated again by itself and comes back to the queue. Ask the partner, or cancel the
			order.
		</p>
	);
}

/** A hold detail's item by its place and size (`Item 2 of 3 · 16 × 20 in`), its id beside it; or the whole order. */
function HoldSubject({ itemId, items }: { itemId: string | null; items: readonly SheetItem[] }) {
	if (itemId === null) return <>Order</>;
	const item = items.find((each) => each.id === itemId);
	if (item === undefined) return <code>{itemId}</code>;
	return (
		<>
			<strong>{item.name}</strong> <code class="muted">{item.id}</code>
		</>
	);
}

/** Why the order is on hold: the reason, each problem by order or item, and what clears it; nothing when not on hold. */
export function HoldPanel({
	order,
	holdDetails,
	items,
}: {
	order: OrderRow;
	holdDetails: readonly HoldDetail[];
	items: readonly SheetItem[];
}) {
	if (order.status !== "on_hold") return null;
	return (
		<section class="panel" aria-labelledby="hold-heading">
			<h2 id="hold-heading">Hold</h2>
			<p>
				Reason: {order.hold_reason === null ? "unknown" : holdReasonLabel(order.hold_reason)}{" "}
				<code class="muted">{order.hold_reason ?? ""}</code>
			</p>
			<ul class="plain">
				{holdDetails.map((detail) => (
					<li>
						<HoldSubject itemId={detail.item_id} items={items} /> · {detail.field}: {detail.message}
					</li>
				))}
			</ul>
			<h3>What has to happen</h3>
			<HoldRemedy reason={decidingHoldReason(order.hold_reason, holdDetails)} />
		</section>
	);
}
