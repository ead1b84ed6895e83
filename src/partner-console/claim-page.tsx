/**
 * One claim as its partner follows it: what is claimed and why, on which order and in which
 * shipments, the photos sent, and the decision in words: the remedy, the service team's message, the
 * reprint's order or the refund's credit.
 */
import type { Claim } from "../claims/schema.ts";
import { CLAIM_STATUS_WORDS, REASON_WORDS, REMEDY_WORDS } from "../claims/words.ts";
import { formatTime } from "../http/format.ts";
import { type Currency, moneyText } from "../money/currencies.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { itemName } from "../production/item-words.ts";
import { CLAIM_BADGE } from "./claim-list.tsx";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

const PAGE_CSS =
	".title { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: baseline; } .photos { display: flex; flex-wrap: wrap; gap: .75rem; } .photos img { max-width: 100%; max-height: 20rem; height: auto; border: 1px solid var(--line); border-radius: .4rem; } .said { white-space: pre-wrap; overflow-wrap: anywhere; }";

/** What a `?done=` word says on the claim's page: fixed sentences, never text from the address. */
export const CLAIM_DONE_WORDS: Readonly<Record<string, string>> = {
	filed: "Your claim is filed. The service team decides it; this page shows their decision.",
};

/** Each item of an order by id, in the words the pages use (`Item 1 of 2 · 8 × 10 in`). */
export function itemNames(order: StoredOrder): Map<string, string> {
	const count = order.items.length;
	return new Map(
		order.items.map((item) => [
			item.id,
			itemName({ position: item.position, widthIn: item.width_in, heightIn: item.height_in }, count),
		]),
	);
}

/** A claim, its order, its photos and its decision. */
export function ClaimPage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	claim: Claim;
	order: StoredOrder;
	done: string | null;
}) {
	const { claim, order, mode } = props;
	const names = itemNames(order);
	const claimed = new Set(claim.items.map((unit) => unit.item_id));
	const shipments = order.shipments.filter((shipment) => shipment.items.some((unit) => claimed.has(unit.item_id)));
	return (
		<PartnerLayout title={`Claim ${claim.id}`} viewer={props.viewer} mode={mode} section="claims" css={PAGE_CSS}>
			<p>
				<a href={withMode("/partner/claims", mode)}>All claims</a>
			</p>
			<div class="title">
				<h1>
					Claim <span class="mono">{claim.id}</span>
				</h1>
				<span class={CLAIM_BADGE[claim.status]}>{CLAIM_STATUS_WORDS[claim.status]}</span>
			</div>
			{props.done === null ? null : <p role="status">{props.done}</p>}
			<div class="grid">
				<section class="panel">
					<h2>What is claimed</h2>
					<dl>
						<dt>Reason</dt>
						<dd>{REASON_WORDS[claim.reason]}</dd>
						<dt>Filed</dt>
						<dd>{formatTime(claim.created_at)}</dd>
						<dt>Order</dt>
						<dd>
							<a href={withMode(`/partner/orders/${claim.order_id}`, mode)}>{order.order.external_id}</a>
						</dd>
						{claim.items.map((unit) => (
							<>
								<dt>Units</dt>
								<dd>
									{unit.quantity} × {names.get(unit.item_id) ?? unit.item_id}
								</dd>
							</>
						))}
					</dl>
					<h3>What happened</h3>
					<p class="said">{claim.description}</p>
				</section>
				<Decision claim={claim} mode={mode} currency={order.order.costs?.currency ?? "USD"} />
			</div>
			<section class="panel">
				<h2>Shipments of these units</h2>
				{shipments.length === 0 ? (
					<p class="muted">None.</p>
				) : (
					<dl>
						{shipments.map((shipment) => (
							<>
								<dt>{shipment.tracking.carrier}</dt>
								<dd>
									<a href={shipment.tracking.url} rel="noopener noreferrer">
										{shipment.tracking.number}
									</a>{" "}
									· {shipment.status.replaceAll("_", " ")} · shipped {formatTime(shipment.shipped_at)}
									{shipment.delivered_at === null ? "" : ` · delivered ${formatTime(shipment.delivered_at)}`}
								</dd>
							</>
						))}
					</dl>
				)}
			</section>
			<section class="panel">
				<h2>Photos</h2>
				{claim.photos.length === 0 ? (
					<p class="muted">No photos were sent with this claim.</p>
				) : (
					<div class="photos">
						{claim.photos.map((_, index) => {
							const href = withMode(`/partner/claims/${claim.id}/photos/${index}`, mode);
							return (
								<a href={href}>
									<img src={href} alt={`What arrived, ${index + 1} of ${claim.photos.length}`} />
								</a>
							);
						})}
					</div>
				)}
			</section>
		</PartnerLayout>
	);
}

/** The decision, or that it is still to come; a credit in the order's currency. */
function Decision({ claim, mode, currency }: { claim: Claim; mode: ConsoleMode; currency: Currency }) {
	const { resolution } = claim;
	return (
		<section class="panel">
			<h2>Decision</h2>
			{resolution === null ? (
				<p>The service team has not decided this claim yet. You can follow it here.</p>
			) : (
				<dl>
					<dt>Decided</dt>
					<dd>
						{CLAIM_STATUS_WORDS[claim.status]} · {formatTime(resolution.resolved_at)}
					</dd>
					{resolution.remedy === null ? null : (
						<>
							<dt>Remedy</dt>
							<dd>{REMEDY_WORDS[resolution.remedy]}</dd>
						</>
					)}
					{resolution.reprint_order_id === null ? null : (
						<>
							<dt>Reprint</dt>
							<dd>
								<a href={withMode(`/partner/orders/${resolution.reprint_order_id}`, mode)}>
									Open the reprint's order <span class="mono">{resolution.reprint_order_id}</span>
								</a>
							</dd>
						</>
					)}
					{resolution.credit_cents === null ? null : (
						<>
							<dt>Credit</dt>
							<dd>
								{moneyText(resolution.credit_cents, currency)}, on{" "}
								<a href={withMode(`/partner/money?month=${resolution.resolved_at.slice(0, 7)}`, mode)}>
									the statement of {resolution.resolved_at.slice(0, 7)}
								</a>
							</dd>
						</>
					)}
					<dt>The service team's words</dt>
					<dd class="said">{resolution.message ?? "None."}</dd>
				</dl>
			)}
		</section>
	);
}
