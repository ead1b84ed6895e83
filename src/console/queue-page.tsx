import type { KeyMode } from "../accounts/scopes.ts";
import { NAME_SEARCH_PARTNERS } from "../accounts/store.ts";
import { formatTime } from "../http/format.ts";
import { ORDER_STATUSES, type OrderStatus } from "../orders/state-machine.ts";
import { statusLabel } from "../orders/words.ts";
import { Layout, StatusBadge, WarningTags } from "./layout.tsx";

/** One row of the queue table. */
export type QueueRow = {
	id: string;
	externalId: string;
	partnerName: string;
	mode: KeyMode;
	status: OrderStatus;
	/** The hold reason in words, when on hold. */
	holdReason: string | null;
	itemCount: number;
	/** Whether the floor has started an order in production (the partner can no longer change it). */
	started: boolean;
	/** `2 of 3 shipped` while an order in production has shipped some of its units; else null. */
	shippedPart: string | null;
	/** The largest finished piece's outside size, in words; null until known. */
	largest: string | null;
	/** Each item's warnings in words, naming the item. */
	warnings: string[];
	createdAt: string;
	/** Whole hours in the current status. */
	ageHours: number;
	/** In production past the service level. */
	late: boolean;
};

/**
 * What the queue's status filter asks for: one status, every status (`all`), or none picked (null):
 * the work still to do (TO_DO_STATUSES) when browsing, every status when searching.
 */
export type StatusFilter = OrderStatus | "all" | null;

/** The statuses of the work still to do: every status before shipped. The queue's default view. */
export const TO_DO_STATUSES: readonly OrderStatus[] = ORDER_STATUSES.slice(0, ORDER_STATUSES.indexOf("shipped"));

/** What the queue is narrowed to, as the search form holds it. */
export type QueueSearch = {
	q: string;
	accountId: string;
	status: StatusFilter;
	mode: KeyMode;
};

/** The statuses a search lists: the work to do by default, every status for a search or All, or the one picked. */
export function statusesShown(search: QueueSearch): readonly OrderStatus[] {
	if (search.status === "all") return ORDER_STATUSES;
	if (search.status !== null) return [search.status];
	return search.q.trim() === "" ? TO_DO_STATUSES : ORDER_STATUSES;
}

/** What the queue page shows: the search, the counts, one page of orders, the partners to pick from, and any error. */
export type QueuePageProps = {
	search: QueueSearch;
	/** False when the asked filter was invalid: no filter link is then marked. */
	valid: boolean;
	counts: Readonly<Record<OrderStatus, number>>;
	partners: readonly { id: string; name: string }[];
	rows: readonly QueueRow[];
	nextPageHref: string | null;
	slaHours: number;
	error: string | null;
	/** More partners' names contain the search than it covers: the rows are only the first partners'. */
	morePartnersNamed: boolean;
	csrfToken: string;
};

/** The queue's URL for a search (the defaults left out) and an optional cursor. */
export function queueHref(search: Partial<QueueSearch>, cursor?: string): string {
	const params = new URLSearchParams();
	if (search.q !== undefined && search.q !== "") params.set("q", search.q);
	if (search.accountId !== undefined && search.accountId !== "") params.set("account_id", search.accountId);
	if (search.status !== undefined && search.status !== null) params.set("status", search.status);
	if (search.mode === "test") params.set("mode", "test");
	if (cursor !== undefined) params.set("cursor", cursor);
	const query = params.toString();
	return query === "" ? "/ops/orders" : `/ops/orders?${query}`;
}

function StatusFilters({ search, valid, counts }: Pick<QueuePageProps, "search" | "valid" | "counts">) {
	const total = ORDER_STATUSES.reduce((sum, each) => sum + counts[each], 0);
	const toDo = TO_DO_STATUSES.reduce((sum, each) => sum + counts[each], 0);
	const base = { mode: search.mode };
	const browsing = search.q.trim() === "";
	const filters: { href: string; label: string; active: boolean }[] = [
		{ href: queueHref(base), label: `To do (${toDo})`, active: valid && browsing && search.status === null },
		{
			href: queueHref({ ...base, status: "all" }),
			label: `All (${total})`,
			active: valid && (search.status === "all" || (!browsing && search.status === null)),
		},
		...ORDER_STATUSES.map((each) => ({
			href: queueHref({ ...base, status: each }),
			label: `${statusLabel(each)} (${counts[each]})`,
			active: valid && search.status === each,
		})),
	];
	return (
		<nav aria-label="Filter by status">
			<ul class="filters">
				{filters.map((filter) => (
					<li>
						<a href={filter.href} aria-current={filter.active ? "page" : undefined}>
							{filter.label}
						</a>
					</li>
				))}
			</ul>
		</nav>
	);
}

function SearchForm({ search, partners }: Pick<QueuePageProps, "search" | "partners">) {
	return (
		<form class="search" method="get" action="/ops/orders" aria-label="Search orders">
			<div class="q">
				<label for="q">Order id, partner's order number or partner name (or scan a work ticket)</label>
				<input id="q" name="q" type="text" value={search.q} maxlength={128} />
			</div>
			<div>
				<label for="account_id">Partner</label>
				<select id="account_id" name="account_id">
					<option value="">All partners</option>
					{partners.map((partner) => (
						<option value={partner.id} selected={partner.id === search.accountId}>
							{partner.name}
						</option>
					))}
				</select>
			</div>
			<div>
				<label for="status">Status</label>
				<select id="status" name="status">
					<option value="">To do (every status when searching)</option>
					<option value="all" selected={search.status === "all"}>
						All statuses
					</option>
					{ORDER_STATUSES.map((status) => (
						<option value={status} selected={status === search.status}>
							{statusLabel(status)}
						</option>
					))}
				</select>
			</div>
			<div>
				<label for="mode">Mode</label>
				<select id="mode" name="mode">
					<option value="live" selected={search.mode === "live"}>
						Live
					</option>
					<option value="test" selected={search.mode === "test"}>
						Test
					</option>
				</select>
			</div>
			<button type="submit">Search</button>
		</form>
	);
}

function QueueTable({ rows, slaHours }: { rows: readonly QueueRow[]; slaHours: number }) {
	if (rows.length === 0) return <p class="panel empty">No orders here.</p>;
	return (
		<div class="table-wrap">
			<table class="cards">
				<thead>
					<tr>
						<th scope="col">Order</th>
						<th scope="col">Partner</th>
						<th scope="col">Mode</th>
						<th scope="col">Status</th>
						<th scope="col" class="num">
							Items
						</th>
						<th scope="col">Largest piece</th>
						<th scope="col" class="num">
							Hours in status
						</th>
						<th scope="col">Created</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr data-order-id={row.id}>
							<td data-label="Order">
								<div>
									<a class="order-link" href={`/ops/orders/${row.id}`}>
										{row.externalId}
									</a>
									<WarningTags tags={row.warnings} />
								</div>
							</td>
							<td data-label="Partner">{row.partnerName}</td>
							<td data-label="Mode">{row.mode}</td>
							<td data-label="Status">
								<StatusBadge status={row.status} />
								{row.holdReason === null ? null : <div class="warning">{row.holdReason}</div>}
								{row.started ? <div class="muted">started</div> : null}
								{row.shippedPart === null ? null : <div class="muted">{row.shippedPart}</div>}
							</td>
							<td data-label="Items" class="num">
								{row.itemCount}
							</td>
							<td data-label="Largest piece" class="nowrap">
								{row.largest ?? <span class="muted">—</span>}
							</td>
							<td data-label="Hours in status" class="num">
								{row.late ? (
									<span class="late" title={`In production longer than ${slaHours} hours`}>
										{row.ageHours} · late
									</span>
								) : (
									row.ageHours
								)}
							</td>
							<td data-label="Created">
								<time datetime={row.createdAt}>{formatTime(row.createdAt)}</time>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** The production queue: search, counts and filters by status, and the orders oldest first (the work to do unless asked). */
export function QueuePage(props: QueuePageProps) {
	const { search } = props;
	const ticketStatus = search.status === null || search.status === "all" ? "in_production" : search.status;
	const tickets = new URLSearchParams({ status: ticketStatus, mode: search.mode });
	return (
		<Layout title="Production queue" csrfToken={props.csrfToken}>
			<div class="heading">
				<h1>Production queue</h1>
				<span class="links">
					<a href={`/ops/work-tickets?${tickets}`}>Print work tickets</a>
				</span>
			</div>
			<SearchForm search={search} partners={props.partners} />
			<StatusFilters search={search} valid={props.valid} counts={props.counts} />
			{props.valid && search.status === null && search.q.trim() === "" ? (
				<p class="muted" id="queue-view">
					The work still to do (received, validating, in production, on hold), oldest first. Shipped, delivered and
					canceled orders are under their own filters and All.
				</p>
			) : null}
			{props.error === null ? (
				<>
					{props.morePartnersNamed ? (
						<p class="warning" id="partner-search">
							More than {NAME_SEARCH_PARTNERS} partners' names contain “{search.q.trim()}”: only the orders of the first{" "}
							{NAME_SEARCH_PARTNERS} by name are listed. Type more of the name, or pick the partner.
						</p>
					) : null}
					<QueueTable rows={props.rows} slaHours={props.slaHours} />
					{props.nextPageHref === null ? null : (
						<p class="pager">
							<a href={props.nextPageHref}>Next page</a>
						</p>
					)}
				</>
			) : (
				<div role="alert">{props.error}</div>
			)}
		</Layout>
	);
}
