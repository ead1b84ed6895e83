/**
 * The service team's claim pages: the claims waiting (or in another status), and one claim with its
 * photos shown inline, the order and the shipments its units left in, and the approve and reject forms.
 */
import type { Claim, ClaimStatus } from "../claims/schema.ts";
import { REASON_WORDS } from "../claims/words.ts";
import { formatTime } from "../http/format.ts";
import type { OrderSheet } from "../production/order-sheet.ts";
import { CsrfField, Dash, Layout } from "./layout.tsx";

/** The claim page's own rules: a long claim id wraps, photos and radio choices stay inside a phone's width. */
const CLAIM_CSS =
	".claim-title { overflow-wrap: anywhere; } .photos { display: flex; flex-wrap: wrap; gap: .75rem; } .photos img { max-width: 100%; max-height: 24rem; height: auto; border: 1px solid var(--line); border-radius: .4rem; } .choice { display: flex; gap: .5rem; align-items: baseline; margin: .35rem 0; } .decide textarea { width: 100%; font: inherit; padding: .5rem .6rem; margin: .25rem 0 .75rem; } table.claims a { word-break: break-all; } @media (max-width: 40rem) { table.claims { table-layout: fixed; } table.claims td > div { min-width: 0; word-break: break-all; } }";

const STATUS_TABS: ReadonlyArray<ClaimStatus> = ["submitted", "approved", "rejected"];

/** The claims in one status, oldest first, each a link to its page. */
export function ClaimsPage(props: {
	status: ClaimStatus;
	claims: Claim[];
	nextPageHref: string | null;
	csrfToken: string;
}) {
	return (
		<Layout title="Claims" csrfToken={props.csrfToken}>
			<style>{CLAIM_CSS}</style>
			<div class="heading">
				<h1>Claims</h1>
			</div>
			<ul class="filters">
				{STATUS_TABS.map((status) => (
					<li>
						<a href={`/ops/claims?status=${status}`} aria-current={status === props.status ? "page" : undefined}>
							{status}
						</a>
					</li>
				))}
			</ul>
			{props.claims.length === 0 ? (
				<p class="panel muted">No {props.status} claims.</p>
			) : (
				<div class="table-wrap">
					<table class="cards claims">
						<thead>
							<tr>
								<th>Claim</th>
								<th>Reason</th>
								<th>Order</th>
								<th class="num">Units</th>
								<th>Made</th>
							</tr>
						</thead>
						<tbody>
							{props.claims.map((claim) => (
								<tr>
									<td data-label="Claim">
										<div>
											<a href={`/ops/claims/${claim.id}`}>{claim.id}</a>
										</div>
									</td>
									<td data-label="Reason">
										<div>{REASON_WORDS[claim.reason]}</div>
									</td>
									<td data-label="Order">
										<div>
											<a href={`/ops/orders/${claim.order_id}`}>{claim.order_id}</a>
										</div>
									</td>
									<td data-label="Units" class="num">
										<div>{claim.items.reduce((sum, unit) => sum + unit.quantity, 0)}</div>
									</td>
									<td data-label="Made">
										<div class="nowrap">{formatTime(claim.created_at)}</div>
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
			{props.nextPageHref === null ? null : (
				<p>
					<a href={props.nextPageHref}>Next page</a>
				</p>
			)}
		</Layout>
	);
}

/** What the page says about a decision just made or refused. */
export type DecisionOutcome = { done: string | null; refusal: string | null };

/** One claim: what is claimed and why, its photos inline, the order and its shipments, and the decision forms. */
export function ClaimPage(props: { claim: Claim; sheet: OrderSheet; outcome: DecisionOutcome; csrfToken: string }) {
	const { claim, sheet, outcome } = props;
	const itemName = new Map(sheet.items.map((item) => [item.id, item.name]));
	const claimedItems = new Set(claim.items.map((unit) => unit.item_id));
	const shipments = sheet.stored.shipments.filter((shipment) =>
		shipment.items.some((unit) => claimedItems.has(unit.item_id)),
	);
	return (
		<Layout title={`Claim ${claim.id}`} csrfToken={props.csrfToken}>
			<style>{CLAIM_CSS}</style>
			<div class="heading">
				<h1 class="claim-title">Claim {claim.id}</h1>
				<span class="badge" data-testid="claim-status">
					{claim.status}
				</span>
				<span class="links">
					<a href="/ops/claims">All claims</a>
				</span>
			</div>
			{outcome.done === null ? null : <div role="status">{outcome.done}</div>}
			{outcome.refusal === null ? null : <div role="alert">{outcome.refusal}</div>}
			<div class="grid">
				<section class="panel">
					<h2>What is claimed</h2>
					<dl class="facts">
						<dt>Reason</dt>
						<dd>{REASON_WORDS[claim.reason]}</dd>
						<dt>Made</dt>
						<dd>{formatTime(claim.created_at)}</dd>
						{claim.items.map((unit) => (
							<>
								<dt>Units</dt>
								<dd>
									{unit.quantity} × {itemName.get(unit.item_id) ?? unit.item_id}
								</dd>
							</>
						))}
					</dl>
					<p class="gift">{claim.description}</p>
				</section>
				<section class="panel">
					<h2>Order</h2>
					<dl class="facts">
						<dt>Order</dt>
						<dd>
							<a href={`/ops/orders/${sheet.order.id}`}>{sheet.order.external_id}</a>
						</dd>
						<dt>Partner</dt>
						<dd>{sheet.account.name}</dd>
						<dt>Status</dt>
						<dd>{sheet.order.status.replaceAll("_", " ")}</dd>
						<dt>Mode</dt>
						<dd>{sheet.order.mode}</dd>
						<dt>Ship to</dt>
						<dd>
							{sheet.shipTo.name}, {sheet.shipTo.city} {sheet.shipTo.country}
						</dd>
					</dl>
				</section>
			</div>
			<section class="panel">
				<h2>Shipments of these units</h2>
				{shipments.length === 0 ? (
					<Dash />
				) : (
					<dl class="facts">
						{shipments.map((shipment) => (
							<>
								<dt>{shipment.tracking.carrier}</dt>
								<dd class="url">
									{shipment.tracking.number} · {shipment.status.replaceAll("_", " ")} · shipped{" "}
									{shipment.shipped_at.slice(0, 10)}
									{shipment.delivered_at === null ? "" : ` · delivered ${shipment.delivered_at.slice(0, 10)}`}
								</dd>
							</>
						))}
					</dl>
				)}
			</section>
			<section class="panel">
				<h2>Photos</h2>
				{claim.photos.length === 0 ? (
					<p class="muted">No photos.</p>
				) : (
					<div class="photos">
						{claim.photos.map((fileId, index) => (
							<a href={`/ops/claims/${claim.id}/photos/${index}`}>
								<img
									src={`/ops/claims/${claim.id}/photos/${index}`}
									alt={`What arrived, ${index + 1} of ${claim.photos.length} (${fileId})`}
								/>
							</a>
						))}
					</div>
				)}
			</section>
			{claim.resolution === null ? (
				<DecisionForms claimId={claim.id} csrfToken={props.csrfToken} />
			) : (
				<section class="panel">
					<h2>Decision</h2>
					<dl class="facts">
						<dt>Decided</dt>
						<dd>
							{claim.status} · {claim.resolution.resolved_at}
						</dd>
						<dt>Remedy</dt>
						<dd>{claim.resolution.remedy ?? <Dash />}</dd>
						{claim.resolution.reprint_order_id === null ? null : (
							<>
								<dt>Reprint</dt>
								<dd>
									<a href={`/ops/orders/${claim.resolution.reprint_order_id}`}>{claim.resolution.reprint_order_id}</a>
								</dd>
							</>
						)}
						{claim.resolution.credit_cents === null ? null : (
							<>
								<dt>Credit</dt>
								<dd>{(claim.resolution.credit_cents / 100).toFixed(2)} USD</dd>
							</>
						)}
						<dt>Message</dt>
						<dd>{claim.resolution.message ?? <Dash />}</dd>
					</dl>
				</section>
			)}
		</Layout>
	);
}

function DecisionForms({ claimId, csrfToken }: { claimId: string; csrfToken: string }) {
	return (
		<div class="grid actions">
			<form class="panel decide" method="post" action={`/ops/claims/${claimId}/approve`}>
				<h3>Approve</h3>
				<CsrfField token={csrfToken} />
				<label class="choice">
					<input type="radio" name="remedy" value="reprint" checked /> Reprint the claimed units (charged nothing)
				</label>
				<label class="choice">
					<input type="radio" name="remedy" value="refund" /> Refund their share of the charges
				</label>
				<label for="approve-message">Message to the partner (optional)</label>
				{/* The API's rule for this field: lines allowed, 1,000 characters as a reader counts them (which a
				browser's maxlength, counting UTF-16 units, would not), so the server alone counts. */}
				<textarea id="approve-message" name="message" rows={3} />
				<button type="submit">Approve</button>
			</form>
			<form class="panel decide" method="post" action={`/ops/claims/${claimId}/reject`}>
				<h3>Reject</h3>
				<CsrfField token={csrfToken} />
				<label for="reject-message">Why (sent to the partner)</label>
				<textarea id="reject-message" name="message" rows={3} required />
				<button type="submit">Reject</button>
			</form>
		</div>
	);
}
