/**
 * The account's claims, newest first, a page at a time: each claim with its order, reason, units,
 * where it stands in words and when it was filed; and, for a role that may file one, the way to the
 * claim form of an order by its id.
 */
import type { Claim } from "../claims/schema.ts";
import { CLAIM_STATUS_WORDS, REASON_WORDS } from "../claims/words.ts";
import { formatTime } from "../http/format.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

/** The badge style of each status: a decision made is marked, a rejection as a failure. */
export const CLAIM_BADGE: Readonly<Record<Claim["status"], string>> = {
	submitted: "badge",
	approved: "badge done",
	rejected: "badge failed",
};

/** On a phone each claim is a card: one line per column, its heading before it. */
const LIST_CSS =
	"table.claims a { overflow-wrap: anywhere; } .table-wrap { margin-bottom: 1.25rem; } .file-claim input { max-width: 22rem; } @media (max-width: 40rem) { table.claims, table.claims tbody { display: block; } table.claims caption { display: block; text-align: left; padding: 0 .6rem; } table.claims thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); } table.claims tr { display: block; padding: .5rem 0; border-bottom: 1px solid var(--line); } table.claims td { display: grid; grid-template-columns: 5.5rem 1fr; gap: .75rem; border: 0; padding: .2rem .6rem; text-align: left; } table.claims td::before { content: attr(data-label); color: var(--muted); font-size: .9rem; } }";

/** The units a claim names, all items together. */
export function unitCount(claim: Claim): number {
	return claim.items.reduce((sum, unit) => sum + unit.quantity, 0);
}

/** A page of the account's claims; `nextHref` opens the next page, `firstHref` the first when this is not it. */
export function ClaimListPage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	claims: Claim[];
	nextHref: string | null;
	firstHref: string | null;
	canFile: boolean;
}) {
	const { mode } = props;
	return (
		<PartnerLayout title="Claims" viewer={props.viewer} mode={mode} section="claims" css={LIST_CSS}>
			<h1>Claims</h1>
			{props.claims.length === 0 ? (
				<p class="panel muted">No claims {props.firstHref === null ? "yet" : "on this page"}.</p>
			) : (
				<div class="table-wrap">
					<table class="claims">
						<caption class="muted">Newest first</caption>
						<thead>
							<tr>
								<th scope="col">Claim</th>
								<th scope="col">Status</th>
								<th scope="col">Reason</th>
								<th scope="col" class="num">
									Units
								</th>
								<th scope="col">Order</th>
								<th scope="col">Filed</th>
							</tr>
						</thead>
						<tbody>
							{props.claims.map((claim) => (
								<tr>
									<td data-label="Claim">
										<a class="mono" href={withMode(`/partner/claims/${claim.id}`, mode)}>
											{claim.id}
										</a>
									</td>
									<td data-label="Status">
										<span class={CLAIM_BADGE[claim.status]}>{CLAIM_STATUS_WORDS[claim.status]}</span>
									</td>
									<td data-label="Reason">{REASON_WORDS[claim.reason]}</td>
									<td data-label="Units" class="num">
										{unitCount(claim)}
									</td>
									<td data-label="Order">
										<a class="mono" href={withMode(`/partner/orders/${claim.order_id}`, mode)}>
											{claim.order_id}
										</a>
									</td>
									<td data-label="Filed">{formatTime(claim.created_at)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
			{props.nextHref === null && props.firstHref === null ? null : (
				<nav class="pager" aria-label="Pages of claims">
					{props.firstHref === null ? null : <a href={props.firstHref}>First page</a>}
					{props.nextHref === null ? null : <a href={props.nextHref}>Next page</a>}
				</nav>
			)}
			{props.canFile ? <FileClaimForm mode={mode} /> : null}
		</PartnerLayout>
	);
}

/** Opens the claim form of an order by its id (the order page links there too). */
function FileClaimForm({ mode }: { mode: ConsoleMode }) {
	return (
		<form class="panel file-claim" method="get" action="/partner/claims/new">
			<h2>File a claim</h2>
			<p class="muted">
				For units that arrived damaged, defective or wrong, or a shipment lost on its way. Start from the order's page,
				or give its id.
			</p>
			{mode === "test" ? <input type="hidden" name="mode" value="test" /> : null}
			<label for="claim-order">Order id</label>
			<input id="claim-order" name="order" required maxlength={64} autocomplete="off" placeholder="ord_…" />
			<button type="submit">Open the claim form</button>
		</form>
	);
}
