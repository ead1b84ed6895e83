/**
 * Placing many orders from a CSV: the upload form with the template, the dry run (each row's verdict
 * and each order's price, nothing created) whose confirm carries the very file back, and the create's
 * report. Server-rendered, no script.
 */
import type { CarriedFile } from "../http/carried-file.ts";
import { moneyText } from "../money/currencies.ts";
import { MAX_SHEET_BYTES, MAX_SHEET_ROWS } from "../orders/order-sheet.ts";
import type { CheckedOrder, PlacedOrder } from "../orders/order-sheet-check.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

type Frame = { viewer: LayoutViewer; mode: ConsoleMode };

const CSS = `
.verdicts td { overflow-wrap: anywhere; }
.verdicts ul { margin: 0; padding-left: 1.1rem; }
@media (max-width: 40rem) {
  .verdicts thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); }
  .verdicts tr, .verdicts td { display: block; }
  .verdicts tr { border-bottom: 2px solid var(--line); padding: .4rem 0; }
  .verdicts td { border: 0; padding: .15rem .4rem; }
  .verdicts td::before { content: attr(data-label) ": "; font-weight: 700; color: var(--muted); }
  .verdicts td.repeat { display: none; }
}
`;

/** What the sheet pages show besides the upload form: the dry run with its confirm, or the create's report. */
export type SheetPageProps = Frame & {
	error: string | null;
	checked: { orders: CheckedOrder[]; carried: CarriedFile } | null;
	placed: { orders: CheckedOrder[]; placed: PlacedOrder[] } | null;
};

function orderVerdict(order: CheckedOrder, placed: PlacedOrder | undefined): string {
	if (placed?.kind === "created") return "Placed now";
	if (order.placedOrderId !== null) return "Already placed: nothing new";
	if (placed?.kind === "not_placed") return "Not placed";
	return order.ready ? "Ready to place" : "Not placed: fix the rows";
}

function OrderLink({ id, mode, label }: { id: string; mode: ConsoleMode; label: string }) {
	return <a href={withMode(`/partner/orders/${id}`, mode)}>{label}</a>;
}

/** Each order of the sheet: its rows, each with its verdict; the order's own problems; its price. */
function VerdictTable({
	orders,
	placed,
	mode,
}: {
	orders: CheckedOrder[];
	placed: PlacedOrder[] | null;
	mode: ConsoleMode;
}) {
	return (
		<div class="table-wrap">
			<table class="verdicts">
				<thead>
					<tr>
						<th scope="col">Order</th>
						<th scope="col" class="num">
							Line
						</th>
						<th scope="col">Verdict</th>
						<th scope="col" class="num">
							Price
						</th>
					</tr>
				</thead>
				<tbody>
					{orders.map((order, index) => {
						const outcome = placed?.[index];
						const orderId =
							outcome?.kind === "created" ? outcome.created.order.order.id : (order.placedOrderId ?? null);
						return (
							<>
								<tr>
									<td data-label="Order">
										<strong>
											{orderId === null ? (
												order.externalId || "(no external id)"
											) : (
												<OrderLink id={orderId} mode={mode} label={order.externalId} />
											)}
										</strong>
									</td>
									<td data-label="Lines" class="num">
										{order.rows.map((row) => row.line).join(", ")}
									</td>
									<td data-label="Verdict">
										<span class={order.ready || orderId !== null ? "ok" : "bad"}>{orderVerdict(order, outcome)}</span>
										{order.problems.length === 0 ? null : (
											<ul>
												{order.problems.map((problem) => (
													<li>{problem}</li>
												))}
											</ul>
										)}
									</td>
									<td data-label="Price" class="num">
										{order.costs === null ? "—" : moneyText(order.costs.total, order.costs.currency)}
									</td>
								</tr>
								{order.rows.map((row) => (
									<tr>
										<td data-label="Order" class="muted repeat">
											{order.externalId}
										</td>
										<td data-label="Line" class="num">
											{row.line}
										</td>
										<td data-label="Row">
											{row.problems.length === 0 ? (
												<span class="ok">OK</span>
											) : (
												<ul class="bad">
													{row.problems.map((problem) => (
														<li>{problem}</li>
													))}
												</ul>
											)}
										</td>
										<td data-label="Price" class="num muted repeat">
											—
										</td>
									</tr>
								))}
							</>
						);
					})}
				</tbody>
			</table>
		</div>
	);
}

/** The CSV page: the upload form, and the dry run or the report when there is one. */
export function SheetPage(props: SheetPageProps) {
	const { mode, viewer } = props;
	const ready = props.checked?.orders.filter((order) => order.ready) ?? [];
	const created = props.placed?.placed.filter((outcome) => outcome.kind === "created").length ?? 0;
	return (
		<PartnerLayout title="Place orders from a CSV" viewer={viewer} mode={mode} section="place-order" css={CSS}>
			<h1>Place orders from a CSV</h1>
			<p>
				<a href={withMode("/partner/place", mode)}>Place one order with the form</a>
			</p>
			{props.error === null ? null : <div role="alert">{props.error}</div>}
			{props.placed === null ? null : (
				<section class="panel">
					<h2>What was placed</h2>
					<p role="status">
						{created === 0
							? "No new order was placed."
							: `${created} ${created === 1 ? "order was" : "orders were"} placed: the service checks their files and starts them.`}
					</p>
					<VerdictTable orders={props.placed.orders} placed={props.placed.placed} mode={mode} />
				</section>
			)}
			{props.checked === null ? null : (
				<section class="panel">
					<h2>Preview: nothing is placed yet</h2>
					<p>
						{ready.length} of {props.checked.orders.length} orders are ready to place, for{" "}
						{moneyText(
							ready.reduce((sum, order) => sum + (order.costs?.total ?? 0), 0),
							ready[0]?.costs?.currency ?? "USD",
						)}
						. Orders with a problem are not placed; fix their rows and upload the file again.
					</p>
					<VerdictTable orders={props.checked.orders} placed={null} mode={mode} />
					{ready.length === 0 ? null : (
						<form method="post" action={withMode("/partner/place/csv/create", mode)}>
							<input type="hidden" name="_csrf" value={viewer.csrfToken} />
							<input type="hidden" name="content" value={props.checked.carried.content} />
							<input type="hidden" name="mark" value={props.checked.carried.mark} />
							<button type="submit">
								Place {ready.length} {ready.length === 1 ? "order" : "orders"}
							</button>
						</form>
					)}
				</section>
			)}
			<section class="panel">
				<h2>Upload a CSV</h2>
				<p>
					One row per item; the rows of one order share its <code>external_id</code> and give its recipient on the first
					row. Each row names its file by <code>print_file_id</code> (a file uploaded before) or{" "}
					<code>print_file_url</code> (a public https address). At most {MAX_SHEET_ROWS} rows and{" "}
					{MAX_SHEET_BYTES / 1024} KiB; UTF-8. The upload only shows what would happen: nothing is placed until you
					confirm.
				</p>
				<p>
					<a href="/partner/place/csv/template.csv" download="orders-template.csv">
						Download the template (CSV)
					</a>
				</p>
				<form method="post" action={withMode("/partner/place/csv", mode)} enctype="multipart/form-data">
					<input type="hidden" name="_csrf" value={viewer.csrfToken} />
					<label for="file">CSV file of orders</label>
					<input id="file" name="file" type="file" accept=".csv,text/csv" required />
					<button type="submit">Preview the orders</button>
				</form>
			</section>
		</PartnerLayout>
	);
}
