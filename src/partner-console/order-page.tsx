/**
 * The partner console's order page: where the order stands and how it got there, its shipments, its
 * items with their thumbnails and framed previews, its costs and metadata, a hold in the catalog's
 * words, and the forms of the actions the order allows now (for the roles that act on orders).
 */
import { formatTime } from "../http/format.ts";
import { moneyText } from "../money/currencies.ts";
import type { OrderMoveRow } from "../orders/history.ts";
import type { OrderActions } from "../orders/order-actions.ts";
import { stateOf } from "../orders/rows.ts";
import { HOLD_CLEARED_BY, type HoldDetail } from "../orders/state-machine.ts";
import { holdReasonLabel, statusLabel } from "../orders/words.ts";
import type { OrderSheet, SheetItem } from "../production/order-sheet.ts";
import { claimFormPath } from "./claim-form.tsx";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import {
	CancelLink,
	FixItemForm,
	METHOD_WORDS,
	type PartChoice,
	RecipientForm,
	readableReason,
} from "./order-forms.tsx";
import { ItemImages } from "./order-images.tsx";
import { ShipmentsPanel, TimelinePanel } from "./order-timeline.tsx";
import type { ConsoleMode } from "./scope.ts";

/** What a successful form did, by the word its redirect carries: a fixed sentence each. */
export const ORDER_DONE_WORDS = {
	changed: "The recipient and shipping method are saved.",
	canceled: "The order is canceled.",
	fixed: "The item is fixed: the order is being checked again.",
} as const;
/** One of the words a redirect after a form carries. */
export type OrderDone = keyof typeof ORDER_DONE_WORDS;

/** Whether `word` is one of ORDER_DONE_WORDS' words. */
export function isOrderDone(word: string | undefined): word is OrderDone {
	return word !== undefined && Object.hasOwn(ORDER_DONE_WORDS, word);
}

const CSS = `
.timeline { list-style: none; margin: 0; padding: 0; }
.timeline li { display: grid; grid-template-columns: 12.5rem 1fr; gap: .2rem 1rem; padding: .45rem 0; border-bottom: 1px solid var(--line); }
.shipments { margin: 0; padding-left: 1.2rem; }
.shipments li { margin-bottom: .6rem; }
.items { list-style: none; margin: 0; padding: 0; }
.items > li { border-top: 1px solid var(--line); padding: .9rem 0; }
.images { display: flex; flex-wrap: wrap; gap: 1rem; align-items: flex-start; }
.images figure { margin: 0; max-width: 100%; }
.images img { max-width: 100%; height: auto; border: 1px solid var(--line); background: #fff; }
.fix-form { border-top: 1px dashed var(--line); margin-top: .9rem; }
@media (max-width: 40rem) { .timeline li { grid-template-columns: 1fr; } }
`;

/** What the page shows besides the order: the last form's outcome and its values, and who is looking. */
export type OrderPageProps = {
	sheet: OrderSheet;
	history: readonly OrderMoveRow[];
	actions: OrderActions;
	viewer: LayoutViewer;
	mode: ConsoleMode;
	/** Whether the viewer's role may act (the forms are shown). */
	canAct: boolean;
	done: OrderDone | null;
	/** A refusal of the last form, in words. */
	refusal: string | null;
	/** The recipient form's values when it was refused; null shows the order's own. */
	recipientValues: Readonly<Record<string, string>> | null;
	frames: readonly PartChoice[];
	mats: readonly PartChoice[];
};

/** The recipient's fields as the form shows them. */
function recipientValuesOf(sheet: OrderSheet): Record<string, string> {
	return Object.fromEntries(Object.entries(sheet.shipTo).map(([name, value]) => [name, String(value ?? "")]));
}

/** The hold: the reason in words, each detail's message, and what clears it. */
function HoldPanel({ sheet, details }: { sheet: OrderSheet; details: readonly HoldDetail[] }) {
	const { order } = sheet;
	if (order.status !== "on_hold" || order.hold_reason === null) return null;
	const cleared = HOLD_CLEARED_BY[order.hold_reason];
	return (
		<section class="panel" aria-labelledby="hold-heading">
			<h2 id="hold-heading">On hold: {holdReasonLabel(order.hold_reason)}</h2>
			<ul>
				{details.map((detail) => (
					<li data-hold-of={detail.item_id ?? "order"}>
						{detail.item_id === null ? null : (
							<strong>{sheet.items.find((item) => item.id === detail.item_id)?.name ?? "An item"}: </strong>
						)}
						{holdReasonLabel(detail.code)}. {detail.message}
					</li>
				))}
			</ul>
			<p>
				{cleared.by === "partner"
					? `What to do: ${cleared.fix}. Fix the item below; the order is then checked again.`
					: "The production floor clears this hold; nothing is needed from you."}
			</p>
		</section>
	);
}

/** An item: its name, parts and file, its images, its price, and (when it may change now) its fix. */
function ItemEntry(props: OrderPageProps & { item: SheetItem; fixable: boolean }) {
	const { item, sheet } = props;
	return (
		<li data-item-id={item.id}>
			<h3>{item.name}</h3>
			<dl>
				{item.framing.map((line) => (
					<>
						<dt>{line.label}</dt>
						<dd>{line.text}</dd>
					</>
				))}
				<dt>Quantity</dt>
				<dd>{item.quantity}</dd>
				<dt>Print file</dt>
				<dd>
					{item.file === null ? (item.printFileUrl ?? "None yet") : <span class="mono">{item.file.id}</span>}
					{item.file?.width_px == null || item.file.height_px == null
						? null
						: ` · ${item.file.width_px} × ${item.file.height_px} px`}
					{item.effectiveDpi === null ? null : ` · ${item.effectiveDpi} DPI at this size`}
				</dd>
				{item.price === null ? null : (
					<>
						<dt>Price</dt>
						<dd>
							{moneyText(item.price.line, item.price.currency)} ({moneyText(item.price.unit, item.price.currency)} each)
						</dd>
					</>
				)}
			</dl>
			<ItemImages orderId={sheet.order.id} item={item} mode={props.mode} />
			{props.fixable ? (
				<FixItemForm
					orderId={sheet.order.id}
					item={item}
					mode={props.mode}
					csrfToken={props.viewer.csrfToken}
					frames={props.frames}
					mats={props.mats}
				/>
			) : null}
		</li>
	);
}

/** The costs, once priced. */
function CostsPanel({ sheet }: { sheet: OrderSheet }) {
	const { costs } = sheet;
	return (
		<section class="panel" aria-labelledby="costs-heading">
			<h2 id="costs-heading">Costs</h2>
			{costs === null ? (
				<p class="muted">Not priced yet: the order is priced once every item can be made.</p>
			) : (
				<dl>
					<dt>Items</dt>
					<dd>{moneyText(costs.items, costs.currency)}</dd>
					<dt>Shipping ({METHOD_WORDS[sheet.order.shipping_method].toLowerCase()})</dt>
					<dd>{moneyText(costs.shipping, costs.currency)}</dd>
					{costs.landed_cost === undefined || costs.landed_cost.coverage === "domestic" ? null : (
						<>
							<dt>Taxes and duties ({costs.landed_cost.terms === "ddp" ? "duty paid" : "duty unpaid"})</dt>
							<dd>{moneyText(costs.taxes_and_duties ?? 0, costs.currency)}</dd>
							<dt>The buyer pays at the door</dt>
							<dd>
								{moneyText(costs.landed_cost.buyer_pays_at_door.amount, costs.landed_cost.buyer_pays_at_door.currency)}
							</dd>
						</>
					)}
					<dt>Total</dt>
					<dd>{moneyText(costs.total, costs.currency)}</dd>
				</dl>
			)}
		</section>
	);
}

/** The order page. */
export function OrderPage(props: OrderPageProps) {
	const { sheet, actions, viewer, mode } = props;
	const { order } = sheet;
	const details = stateOf(order).holdDetails;
	const heldItems = new Set(details.flatMap((detail) => (detail.item_id === null ? [] : [detail.item_id])));
	// A held order's items named by its hold (every item when the hold names none) get the fix form.
	const fixable = (item: SheetItem) =>
		props.canAct &&
		order.status === "on_hold" &&
		actions.update_items.available &&
		(heldItems.size === 0 || heldItems.has(item.id));
	const metadata = Object.entries(order.metadata);
	return (
		<PartnerLayout title={`Order ${order.external_id}`} viewer={viewer} mode={mode} section="orders" css={CSS}>
			<h1>
				Order <span class="mono">{order.external_id}</span>
			</h1>
			<p>
				<span class={`badge ${order.status === "on_hold" ? "held" : ""}`} data-testid="order-status">
					{statusLabel(order.status)}
				</span>{" "}
				<span class="muted">
					placed <time datetime={order.created_at}>{formatTime(order.created_at)}</time> · id{" "}
					<span class="mono">{order.id}</span>
				</span>
			</p>
			{props.done === null ? null : <p role="status">{ORDER_DONE_WORDS[props.done]}</p>}
			{props.refusal === null ? null : <div role="alert">Nothing was changed: {readableReason(props.refusal)}</div>}
			<HoldPanel sheet={sheet} details={details} />
			<ShipmentsPanel shipments={sheet.stored.shipments} items={sheet.items} />
			<section class="panel" aria-labelledby="items-heading">
				<h2 id="items-heading">Items</h2>
				<ul class="items">
					{sheet.items.map((item) => (
						<ItemEntry {...props} item={item} fixable={fixable(item)} />
					))}
				</ul>
			</section>
			<div class="grid">
				<section class="panel" aria-labelledby="recipient-heading">
					<h2 id="recipient-heading">Recipient</h2>
					<p>
						{[sheet.shipTo.name, sheet.shipTo.address1, sheet.shipTo.address2, sheet.shipTo.city, sheet.shipTo.state]
							.filter((part) => part !== undefined && part !== "")
							.join(", ")}{" "}
						{sheet.shipTo.zip ?? ""} {sheet.shipTo.country}
					</p>
					<p class="muted">Shipping method: {METHOD_WORDS[order.shipping_method]}</p>
				</section>
				<CostsPanel sheet={sheet} />
				<section class="panel" aria-labelledby="metadata-heading">
					<h2 id="metadata-heading">Metadata</h2>
					{metadata.length === 0 ? (
						<p class="muted">None.</p>
					) : (
						<dl>
							{metadata.map(([key, value]) => (
								<>
									<dt class="mono">{key}</dt>
									<dd>{String(value)}</dd>
								</>
							))}
						</dl>
					)}
				</section>
			</div>
			{props.canAct ? (
				<section class="panel" aria-labelledby="actions-heading">
					<h2 id="actions-heading">Change or cancel</h2>
					<h3>Recipient and shipping method</h3>
					<RecipientForm
						orderId={order.id}
						mode={mode}
						csrfToken={viewer.csrfToken}
						values={props.recipientValues ?? recipientValuesOf(sheet)}
						method={props.recipientValues?.shipping_method ?? order.shipping_method}
						actions={actions}
					/>
					<h3>Cancel</h3>
					<CancelLink orderId={order.id} mode={mode} actions={actions} />
					{sheet.stored.shipments.length === 0 ? null : (
						<>
							<h3>Something wrong with what arrived?</h3>
							<p>
								<a href={claimFormPath(order.id, mode)}>File a claim on this order</a>
							</p>
						</>
					)}
				</section>
			) : null}
			<TimelinePanel history={props.history} />
		</PartnerLayout>
	);
}
