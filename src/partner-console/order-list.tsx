/**
 * The partner console's list of orders: the account's orders in the page's mode, newest first, a
 * page at a time, found by an order id, an external id, a tracking number or the recipient's name,
 * and narrowed by status and by the day they were placed. Read by the orders capability's search.
 */
import { z } from "@hono/zod-openapi";
import { formatTime } from "../http/format.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { ORDER_STATUSES, type OrderStatus } from "../orders/state-machine.ts";
import { statusLabel } from "../orders/words.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

/** Orders on one page of the list. */
export const ORDERS_PER_PAGE = 25;

const DAY = z.iso.date("must be a day written as YYYY-MM-DD");

/** The list's filters as its address carries them; each is optional, an empty field is no filter. */
const OrderListQuery = z.object({
	q: z.string().max(128, "must be at most 128 characters").optional(),
	status: z.enum(ORDER_STATUSES, "must be one of the statuses offered").optional(),
	from: DAY.optional(),
	to: DAY.optional(),
	cursor: z.string().max(512).optional(),
});

/** What the search form shows: the filters as asked (cut to their fields' lengths). */
export type OrderListForm = { q: string; status: OrderStatus | ""; from: string; to: string };

/** The list as asked: the filters to run, or the form as it came and what is wrong with it. */
export type AskedOrders =
	| {
			ok: true;
			form: OrderListForm;
			search: { q?: string; status?: OrderStatus; createdAfter?: string; createdBefore?: string };
			cursor: string | undefined;
	  }
	| { ok: false; form: OrderListForm; error: string };

const FIELD_WORDS: Readonly<Record<string, string>> = {
	q: "The search",
	status: "The status",
	from: "The first day",
	to: "The last day",
	cursor: "The page",
};

/** Reads the list's address: its filters, or what is wrong with them in words. */
export function askedOrders(params: Readonly<Record<string, string>>): AskedOrders {
	const asked = Object.fromEntries(Object.entries(params).filter(([, value]) => value !== ""));
	const parsed = OrderListQuery.safeParse(asked);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		const field = String(issue?.path[0] ?? "q");
		const form: OrderListForm = { q: (asked.q ?? "").slice(0, 128), status: "", from: "", to: "" };
		return { ok: false, form, error: `${FIELD_WORDS[field] ?? "A filter"} ${issue?.message ?? "is not understood"}.` };
	}
	const { q, status, from, to, cursor } = parsed.data;
	if (from !== undefined && to !== undefined && from > to) {
		const form: OrderListForm = { q: q ?? "", status: status ?? "", from, to };
		return { ok: false, form, error: "The first day must not come after the last day." };
	}
	// Days are whole UTC days: from the first day's start to the last day's end.
	const dayStart = (day: string) => new Date(`${day}T00:00:00.000Z`).getTime();
	return {
		ok: true,
		form: { q: q ?? "", status: status ?? "", from: from ?? "", to: to ?? "" },
		search: {
			q,
			status,
			createdAfter: from === undefined ? undefined : new Date(dayStart(from) - 1).toISOString(),
			createdBefore: to === undefined ? undefined : new Date(dayStart(to) + 86_400_000).toISOString(),
		},
		cursor,
	};
}

/** The list's address with `form`'s filters (and a page's cursor), in `mode`. */
export function listPath(form: OrderListForm, mode: ConsoleMode, cursor?: string): string {
	const params = new URLSearchParams();
	for (const [name, value] of Object.entries(form)) if (value !== "") params.set(name, value);
	if (cursor !== undefined) params.set("cursor", cursor);
	const query = params.toString();
	return withMode(query === "" ? "/partner/orders" : `/partner/orders?${query}`, mode);
}

const CSS = `
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: 0 1rem; align-items: end; }
.filters .wide { grid-column: 1 / -1; }
.order-list { list-style: none; margin: 0; padding: 0; }
.order-list li { display: grid; grid-template-columns: minmax(0, 2fr) minmax(0, 2fr) auto; gap: .2rem 1rem; padding: .7rem 0; border-bottom: 1px solid var(--line); align-items: start; }
.order-list .when { text-align: right; }
@media (max-width: 40rem) { .order-list li { grid-template-columns: 1fr; } .order-list .when { text-align: left; } }
`;

/** One order in the list: its external id (the link), recipient, status and when it was placed. */
function OrderLine({ stored, mode }: { stored: StoredOrder; mode: ConsoleMode }) {
	const { order, items, shipments } = stored;
	const units = items.reduce((sum, item) => sum + item.quantity, 0);
	const tracking = shipments.map((shipment) => shipment.tracking.number);
	return (
		<li data-order-id={order.id}>
			<div>
				<a href={withMode(`/partner/orders/${order.id}`, mode)}>
					<strong class="mono">{order.external_id}</strong>
				</a>
				<div class="muted mono">{order.id}</div>
			</div>
			<div>
				<div>{order.ship_to.name}</div>
				<div class="muted">
					{units} {units === 1 ? "piece" : "pieces"}
					{tracking.length === 0 ? null : <span class="mono"> · {tracking.join(", ")}</span>}
				</div>
			</div>
			<div class="when">
				<span class={`badge ${order.status === "on_hold" ? "held" : order.status === "delivered" ? "done" : ""}`}>
					{statusLabel(order.status)}
				</span>
				<div class="muted">
					<time datetime={order.created_at}>{formatTime(order.created_at)}</time>
				</div>
			</div>
		</li>
	);
}

/** The list page: the search form, the orders found and the pager; or, for a bad filter, the form and why. */
export function OrderListPage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	form: OrderListForm;
	error: string | null;
	orders: readonly StoredOrder[];
	/** The next (older) page's cursor, or null on the last page. */
	nextCursor: string | null;
	/** Whether this is a later page (a link back to the first is shown). */
	paged: boolean;
}) {
	const { viewer, mode, form } = props;
	const searching = form.q !== "" || form.status !== "" || form.from !== "" || form.to !== "";
	return (
		<PartnerLayout title="Orders" viewer={viewer} mode={mode} section="orders" css={CSS}>
			<h1>Orders</h1>
			<search class="panel" aria-label="Find orders">
				<form method="get" action="/partner/orders">
					{mode === "test" ? <input type="hidden" name="mode" value="test" /> : null}
					<div class="filters">
						<div class="wide">
							<label for="q">Order id, external id, tracking number or recipient's name</label>
							<input id="q" name="q" type="search" maxlength={128} value={form.q} />
						</div>
						<div>
							<label for="status">Status</label>
							<select id="status" name="status">
								<option value="">Any status</option>
								{ORDER_STATUSES.map((status) => (
									<option value={status} selected={status === form.status}>
										{statusLabel(status)}
									</option>
								))}
							</select>
						</div>
						<div>
							<label for="from">Placed on or after</label>
							<input id="from" name="from" type="date" value={form.from} />
						</div>
						<div>
							<label for="to">Placed on or before</label>
							<input id="to" name="to" type="date" value={form.to} />
						</div>
						<div class="actions">
							<button type="submit">Find</button>
							{searching ? (
								<a class="button secondary" href={withMode("/partner/orders", mode)}>
									Clear
								</a>
							) : null}
						</div>
					</div>
					<p class="muted">A recipient's name is found from its start (any case); the other words exactly.</p>
				</form>
			</search>
			{props.error === null ? null : <div role="alert">{props.error}</div>}
			<section class="panel" aria-labelledby="found-heading">
				<h2 id="found-heading">{searching ? "Orders found" : "Newest orders"}</h2>
				{props.orders.length === 0 ? (
					<p>{props.error === null ? (searching ? "No order matches." : "No orders yet.") : "Nothing was searched."}</p>
				) : (
					<ul class="order-list">
						{props.orders.map((stored) => (
							<OrderLine stored={stored} mode={mode} />
						))}
					</ul>
				)}
				<nav class="pager" aria-label="Pages">
					{props.paged ? <a href={listPath(form, mode)}>Newest orders</a> : null}
					{props.nextCursor === null ? null : <a href={listPath(form, mode, props.nextCursor)}>Older orders</a>}
				</nav>
			</section>
		</PartnerLayout>
	);
}
