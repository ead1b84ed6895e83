import type { Child } from "hono/jsx";
import { KNOWN_CARRIER_NAMES } from "../orders/carrier-tracking.ts";
import type { ImportReport, RowResult } from "../shipment-import/import-rows.ts";
import type { ImportPreview, PreviewRow } from "../shipment-import/preview.ts";
import type { CarriedFile } from "./import-upload.ts";
import { CsrfField, Layout } from "./layout.tsx";

/** A previewed file: what each row would do, and the file itself for the confirm form. */
export type PreviewedImport = { preview: ImportPreview; carried: CarriedFile };

/** What the import page shows: the form; a file's preview; the confirmed import's report; or why the file was refused. */
export type ImportPageProps = {
	csrfToken: string;
	previewed: PreviewedImport | null;
	report: ImportReport | null;
	error: string | null;
};

/** The row's order: a link to its page when it was found, else what the row named. */
function OrderCell({ row }: { row: { order_id: string | null; external_id: string | null } }) {
	if (row.order_id === null) return <>{row.external_id ?? <span class="muted">—</span>}</>;
	return <a href={`/ops/orders/${row.order_id}`}>{row.external_id ?? row.order_id}</a>;
}

/** A row's first two cells: its line in the file and its order. */
function LineAndOrder({ row }: { row: { line: number; order_id: string | null; external_id: string | null } }) {
	return (
		<>
			<td data-label="Line" class="num">
				{row.line}
			</td>
			<td data-label="Order">
				<OrderCell row={row} />
			</td>
		</>
	);
}

const ACTION_WORDS: Readonly<Record<PreviewRow["action"], string>> = {
	ship: "Ship",
	already_shipped: "Nothing: already shipped",
	refused: "Refused",
};

/**
 * What a previewed row would do, in full: the tracking it would ship with, or the one reason it would
 * not. One block, so a narrow screen's card shows it beside its label as one piece.
 */
function PreviewDetail({ row }: { row: PreviewRow }) {
	if (row.action !== "ship" || row.tracking === null) return <div>{row.message}</div>;
	const units = row.units ?? [];
	const count = units.reduce((sum, unit) => sum + unit.quantity, 0);
	return (
		<div class="detail">
			{row.tracking.carrier} <span class="mono">{row.tracking.number}</span>
			<div class="url muted">{row.tracking.url}</div>
			{units.length === 0 ? null : (
				<div data-testid="row-units">
					{plural(count, "unit", "units")}:{" "}
					{units.map((unit, index) => (
						<>
							{index === 0 ? "" : ", "}
							{unit.quantity} × <span class="mono">{unit.item_id}</span>
						</>
					))}
				</div>
			)}
		</div>
	);
}

/** A table of the file's rows: line, order, then what was (or would be) done and its detail. */
function RowsTable({ what, detail, children }: { what: string; detail: string; children: Child }) {
	return (
		<div class="table-wrap">
			<table class="cards">
				<thead>
					<tr>
						<th scope="col" class="num">
							Line
						</th>
						<th scope="col">Order</th>
						<th scope="col">{what}</th>
						<th scope="col">{detail}</th>
					</tr>
				</thead>
				<tbody>{children}</tbody>
			</table>
		</div>
	);
}

function plural(count: number, one: string, many: string): string {
	return `${count.toLocaleString("en-US")} ${count === 1 ? one : many}`;
}

/** The dry run: every row with what it would do, the counts, and the confirm that imports exactly this file. */
function Preview({ csrfToken, previewed }: { csrfToken: string; previewed: PreviewedImport }) {
	const { preview, carried } = previewed;
	const total = preview.rows.length;
	return (
		<section class="panel" aria-labelledby="preview-heading" data-testid="import-preview">
			<h2 id="preview-heading">Preview: nothing has changed yet</h2>
			<p class="counts">
				{plural(total, "row", "rows")}: {preview.ship.toLocaleString("en-US")} would ship,{" "}
				{preview.already_shipped.toLocaleString("en-US")} already shipped, {preview.refused.toLocaleString("en-US")}{" "}
				refused.
			</p>
			<RowsTable what="Would do" detail="Tracking or reason">
				{preview.rows.map((row) => (
					<tr data-line={row.line} data-action={row.action}>
						<LineAndOrder row={row} />
						<td data-label="Would do" class={row.action === "refused" ? "warning" : undefined}>
							{ACTION_WORDS[row.action]}
						</td>
						<td data-label="Tracking or reason">
							<PreviewDetail row={row} />
						</td>
					</tr>
				))}
			</RowsTable>
			{preview.ship === 0 ? (
				<p>
					Nothing in this file would ship. <a href="/ops/shipments/import">Upload another file</a>
				</p>
			) : (
				<form method="post" action="/ops/shipments/import/confirm" enctype="multipart/form-data" class="confirm">
					<CsrfField token={csrfToken} />
					<input type="hidden" name="content" value={carried.content} />
					<input type="hidden" name="mark" value={carried.mark} />
					<button type="submit">Confirm: ship {plural(preview.ship, "order", "orders")}</button>{" "}
					<a href="/ops/shipments/import">Cancel</a>
				</form>
			)}
		</section>
	);
}

const RESULT_WORDS: Readonly<Record<RowResult["outcome"], string>> = {
	shipped: "Shipped",
	already_shipped: "Already shipped",
	refused: "Refused",
};

/**
 * The confirmed import: green only when every row was applied (shipped, or shipped already with the
 * same tracking); amber when some were refused, red when all were. Each refusal is listed once, in
 * the summary; the table below lists the rows applied.
 */
function Report({ report }: { report: ImportReport }) {
	const total = report.rows.length;
	const applied = report.shipped + report.already_shipped;
	const tone = report.refused === 0 ? "ok" : applied > 0 ? "partial" : "failed";
	const refusals = report.rows.filter((row) => row.outcome === "refused");
	const done = report.rows.filter((row) => row.outcome !== "refused");
	return (
		<section class="panel" aria-labelledby="report-heading">
			<h2 id="report-heading">Result</h2>
			<div role="status" class={`summary summary-${tone}`} data-tone={tone}>
				<p>
					{tone === "ok"
						? `All ${plural(total, "row", "rows")} applied: ${report.shipped.toLocaleString("en-US")} shipped now, ${report.already_shipped.toLocaleString("en-US")} already shipped.`
						: `${applied.toLocaleString("en-US")} of ${plural(total, "row", "rows")} applied, ${report.refused.toLocaleString("en-US")} refused.`}
				</p>
				{refusals.length === 0 ? null : (
					<ul class="plain refusals">
						{refusals.map((row) => (
							<li data-line={row.line}>
								Line {row.line}
								{row.order_id === null && row.external_id === null ? null : (
									<>
										{" "}
										(<OrderCell row={row} />)
									</>
								)}
								: {row.message}
							</li>
						))}
					</ul>
				)}
			</div>
			{done.length === 0 ? null : (
				<RowsTable what="Result" detail="Tracking">
					{done.map((row) => (
						<tr data-line={row.line} data-outcome={row.outcome}>
							<LineAndOrder row={row} />
							<td data-label="Result">{RESULT_WORDS[row.outcome]}</td>
							<td data-label="Tracking">{row.message}</td>
						</tr>
					))}
				</RowsTable>
			)}
			<p>
				<a href="/ops/shipments/import">Import another file</a>
			</p>
		</section>
	);
}

/** Shipping in bulk: upload a label tool's CSV, see what each row would do, confirm, see each row's result. */
export function ImportPage({ csrfToken, previewed, report, error }: ImportPageProps) {
	const showForm = previewed === null && report === null;
	return (
		<Layout title="Ship in bulk" csrfToken={csrfToken}>
			<h1>Ship in bulk</h1>
			{showForm ? (
				<section class="panel">
					<p>
						Upload the CSV your label tool or spreadsheet exports, separated by commas, semicolons or tabs. Its header
						row names the columns: <code>order_id</code> or <code>external_id</code> (the partner's order number),{" "}
						<code>carrier</code>, <code>tracking_number</code> and <code>tracking_url</code>. The URL may be left empty
						for {KNOWN_CARRIER_NAMES}: it is built from the number. An optional <code>item_ids</code> column makes a row
						one box of the units it names (<code>itm_a;itm_b</code>: every unit of each that remains;{" "}
						<code>itm_a:2</code>: two of them); without it a row ships every unit that remains. You see what each row
						would do before anything ships; a row for an order already shipped with the same tracking changes nothing.
						At most 5,000 rows.
					</p>
					<form method="post" action="/ops/shipments/import" enctype="multipart/form-data">
						<CsrfField token={csrfToken} />
						<label for="file">CSV file</label>
						<input id="file" name="file" type="file" accept=".csv,.tsv,.txt,text/csv" required />
						<button type="submit">Preview</button>
					</form>
				</section>
			) : null}
			{error === null ? null : <div role="alert">{error}</div>}
			{previewed === null ? null : <Preview csrfToken={csrfToken} previewed={previewed} />}
			{report === null ? null : <Report report={report} />}
		</Layout>
	);
}
