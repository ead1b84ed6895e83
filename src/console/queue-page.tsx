import type { KeyMode } from "../accounts/scopes.ts";
import { ORDER_STATUSES, type OrderStatus } from "../orders/state-machine.ts";
import { formatTime, statusLabel } from "./format.ts";
import { Layout, StatusBadge } from "./layout.tsx";

/** One row of the queue table. */
export type QueueRow = {
	id: string;
	externalId: string;
	partnerName: string;
	mode: KeyMode;
	status: OrderStatus;
	itemCount: number;
	createdAt: string;
};

/** What the queue page shows: the filter in force (none when the asked one was invalid), the counts, one page of orders, and any error. */
export type QueuePageProps = {
	filter: OrderStatus | "all" | null;
	counts: Readonly<Record<OrderStatus, number>>;
	rows: readonly QueueRow[];
	nextPageHref: string | null;
	error: string | null;
	csrfToken: string;
};

/** The queue's URL for a status filter (all orders when null) and an optional cursor. */
export function queueHref(status: OrderStatus | null, cursor?: string): string {
	const params = new URLSearchParams();
	if (status !== null) params.set("status", status);
	if (cursor !== undefined) params.set("cursor", cursor);
	const query = params.toString();
	return query === "" ? "/ops/orders" : `/ops/orders?${query}`;
}

function StatusFilters({ filter, counts }: Pick<QueuePageProps, "filter" | "counts">) {
	const total = ORDER_STATUSES.reduce((sum, each) => sum + counts[each], 0);
	const filters: { href: string; label: string; active: boolean }[] = [
		{ href: queueHref(null), label: `All (${total})`, active: filter === "all" },
		...ORDER_STATUSES.map((each) => ({
			href: queueHref(each),
			label: `${statusLabel(each)} (${counts[each]})`,
			active: filter === each,
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

function QueueTable({ rows }: { rows: readonly QueueRow[] }) {
	if (rows.length === 0) return <p class="panel empty">No orders here.</p>;
	return (
		<div class="table-wrap">
			<table>
				<thead>
					<tr>
						<th scope="col">Order</th>
						<th scope="col">Partner</th>
						<th scope="col">Mode</th>
						<th scope="col">Status</th>
						<th scope="col" class="num">
							Items
						</th>
						<th scope="col">Created</th>
					</tr>
				</thead>
				<tbody>
					{rows.map((row) => (
						<tr data-order-id={row.id}>
							<td>
								<a class="order-link" href={`/ops/orders/${row.id}`}>
									{row.externalId}
								</a>
							</td>
							<td>{row.partnerName}</td>
							<td>{row.mode}</td>
							<td>
								<StatusBadge status={row.status} />
							</td>
							<td class="num">{row.itemCount}</td>
							<td>
								<time datetime={row.createdAt}>{formatTime(row.createdAt)}</time>
							</td>
						</tr>
					))}
				</tbody>
			</table>
		</div>
	);
}

/** The production queue: counts and filters by status, and the orders oldest first. */
export function QueuePage(props: QueuePageProps) {
	return (
		<Layout title="Production queue" csrfToken={props.csrfToken}>
			<h1>Production queue</h1>
			<StatusFilters filter={props.filter} counts={props.counts} />
			{props.error === null ? (
				<>
					<QueueTable rows={props.rows} />
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
