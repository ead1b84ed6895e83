import type { ImportReport, RowOutcome } from "../production/shipments-import.ts";
import { CsrfField, Layout } from "./layout.tsx";

/** What the import page shows: the form, and the last import's report or why the file was refused. */
export type ImportPageProps = { csrfToken: string; report: ImportReport | null; error: string | null };

const OUTCOME_WORDS: Readonly<Record<RowOutcome, string>> = {
	shipped: "Shipped",
	already_shipped: "Already shipped",
	refused: "Refused",
};

function Report({ report }: { report: ImportReport }) {
	return (
		<section class="panel" aria-labelledby="report-heading">
			<h2 id="report-heading">Result</h2>
			<p role="status">
				{report.shipped} shipped, {report.already_shipped} already shipped, {report.refused} refused.
			</p>
			<div class="table-wrap">
				<table class="cards">
					<thead>
						<tr>
							<th scope="col" class="num">
								Line
							</th>
							<th scope="col">Order</th>
							<th scope="col">Result</th>
							<th scope="col">Why</th>
						</tr>
					</thead>
					<tbody>
						{report.rows.map((row) => (
							<tr data-line={row.line} data-outcome={row.outcome}>
								<td data-label="Line" class="num">
									{row.line}
								</td>
								<td data-label="Order">
									{row.order_id === null ? (
										(row.external_id ?? <span class="muted">—</span>)
									) : (
										<a href={`/ops/orders/${row.order_id}`}>{row.external_id ?? row.order_id}</a>
									)}
								</td>
								<td data-label="Result" class={row.outcome === "refused" ? "warning" : undefined}>
									{OUTCOME_WORDS[row.outcome]}
								</td>
								<td data-label="Why">{row.message}</td>
							</tr>
						))}
					</tbody>
				</table>
			</div>
		</section>
	);
}

/** Shipping in bulk: upload a label tool's CSV of tracking numbers, see each row's result. */
export function ImportPage({ csrfToken, report, error }: ImportPageProps) {
	return (
		<Layout title="Ship in bulk" csrfToken={csrfToken}>
			<h1>Ship in bulk</h1>
			<section class="panel">
				<p>
					Upload the CSV your label tool exports. Its header row names the columns: <code>order_id</code> or{" "}
					<code>external_id</code> (the partner's order number), <code>carrier</code>, <code>tracking_number</code> and{" "}
					<code>tracking_url</code>. Each row ships its order; a row for an order already shipped with the same tracking
					changes nothing. At most 5,000 rows.
				</p>
				<form method="post" action="/ops/shipments/import" enctype="multipart/form-data">
					<CsrfField token={csrfToken} />
					<label for="file">CSV file</label>
					<input id="file" name="file" type="file" accept=".csv,text/csv" required />
					<button type="submit">Ship these orders</button>
				</form>
			</section>
			{error === null ? null : <div role="alert">{error}</div>}
			{report === null ? null : <Report report={report} />}
		</Layout>
	);
}
