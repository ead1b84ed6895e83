/**
 * A month's statement as the partner reads it: the balances, the month's totals with the partner tax,
 * every entry in words with its order or claim linked, the CSV of the same entries, its printable
 * invoice, and the way to other months, amounts in the statement's currency. The current month is the
 * month so far.
 */
import { formatTime } from "../http/format.ts";
import { FIRST_MONTH, type Statement } from "../ledger/statement.ts";
import { ENTRY_TYPE_WORDS } from "../ledger/words.ts";
import { moneyText } from "../money/currencies.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

const MONEY_CSS =
	'.months { display: flex; flex-wrap: wrap; gap: .25rem 1rem; list-style: none; padding: 0; margin: 0; } .months a[aria-current="page"] { font-weight: 700; color: var(--ink); } .month-form { display: flex; flex-wrap: wrap; gap: 0 1rem; align-items: flex-end; } .month-form input { max-width: 12rem; } .memo { overflow-wrap: anywhere; } td.when { white-space: nowrap; } @media (max-width: 40rem) { td.when { white-space: normal; } }';

const MONTH_NAMES = [
	"January",
	"February",
	"March",
	"April",
	"May",
	"June",
	"July",
	"August",
	"September",
	"October",
	"November",
	"December",
];

/** `2026-11` as people say it: `November 2026`. */
export function monthWords(month: string): string {
	return `${MONTH_NAMES[Number(month.slice(5, 7)) - 1] ?? month} ${month.slice(0, 4)}`;
}

/** The month before `month`, both as `YYYY-MM`. */
function monthBefore(month: string): string {
	const year = Number(month.slice(0, 4));
	const index = Number(month.slice(5, 7)) - 1;
	const before = new Date(Date.UTC(year, index - 1, 1));
	return before.toISOString().slice(0, 7);
}

/** The twelve months up to `current`, newest first, none before the ledger's first. */
export function recentMonths(current: string): string[] {
	const months = [current];
	while (months.length < 12) {
		const previous = monthBefore(months.at(-1) ?? current);
		if (previous < FIRST_MONTH) break;
		months.push(previous);
	}
	return months;
}

/** The page of `month`'s statement (the current month's when `month` is it), with its CSV and the other months. */
export function MoneyPage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	statement: Statement;
	currentMonth: string;
}) {
	const { statement, mode, currentMonth } = props;
	const month = statement.month;
	const soFar = month === currentMonth;
	const title = `${monthWords(month)}${soFar ? " so far" : ""}`;
	const csvHref = withMode(`/partner/money/csv?month=${month}`, mode);
	const invoiceHref = withMode(`/partner/money/invoice?month=${month}`, mode);
	const money = (amount: number) => moneyText(amount, statement.currency);
	return (
		<PartnerLayout title={`Statement · ${title}`} viewer={props.viewer} mode={mode} section="money" css={MONEY_CSS}>
			<h1>Statement · {title}</h1>
			<nav class="panel" aria-label="Months">
				<h2>Months</h2>
				<ul class="months">
					{recentMonths(currentMonth).map((shown) => (
						<li>
							<a
								href={withMode(`/partner/money?month=${shown}`, mode)}
								aria-current={shown === month ? "page" : undefined}
							>
								{monthWords(shown)}
							</a>
						</li>
					))}
				</ul>
				<form class="month-form" method="get" action="/partner/money">
					{mode === "test" ? <input type="hidden" name="mode" value="test" /> : null}
					<div>
						<label for="month">Another month</label>
						<input id="month" type="month" name="month" value={month} min={FIRST_MONTH} max={currentMonth} required />
					</div>
					<button type="submit" class="secondary">
						Show
					</button>
				</form>
			</nav>
			<section class="panel">
				<h2>Balance</h2>
				{soFar ? <p class="muted">The month is not over: these are its entries until now.</p> : null}
				<dl>
					<dt>Opening balance</dt>
					<dd>{money(statement.opening_balance_cents)}</dd>
					<dt>Charges</dt>
					<dd>{money(statement.totals.charges_cents)}</dd>
					<dt>Credits</dt>
					<dd>{money(statement.totals.credits_cents)}</dd>
					<dt>Adjustments</dt>
					<dd>{money(statement.totals.adjustments_cents)}</dd>
					<dt>{soFar ? "Balance now" : "Closing balance"}</dt>
					<dd>{money(statement.closing_balance_cents)}</dd>
					<dt>Tax on the month</dt>
					<dd>{money(statement.totals.tax_cents)}</dd>
				</dl>
				<p class="actions">
					<a class="button" href={csvHref} download>
						Download the CSV of {monthWords(month)}
					</a>
					<a class="button secondary" href={invoiceHref}>
						Invoice of {monthWords(month)}
					</a>
				</p>
			</section>
			{statement.entries.length === 0 ? (
				<p class="panel muted">No entries in {monthWords(month)}.</p>
			) : (
				<div class="table-wrap">
					<table>
						<caption class="muted">Entries, oldest first</caption>
						<thead>
							<tr>
								<th scope="col">When</th>
								<th scope="col">Entry</th>
								<th scope="col">For</th>
								<th scope="col" class="num">
									Amount
								</th>
							</tr>
						</thead>
						<tbody>
							{statement.entries.map((entry) => (
								<tr>
									<td class="when">{formatTime(entry.at)}</td>
									<td>{ENTRY_TYPE_WORDS[entry.type]}</td>
									<td class="memo">
										<EntryLinks entry={entry} mode={mode} />
									</td>
									<td class="num">{money(entry.amount_cents)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</PartnerLayout>
	);
}

/** An entry's memo, linked to its order's page, and its claim's page when a claim caused it. */
function EntryLinks({ entry, mode }: { entry: Statement["entries"][number]; mode: ConsoleMode }) {
	return (
		<>
			{entry.order_id === null ? (
				entry.memo
			) : (
				<a href={withMode(`/partner/orders/${entry.order_id}`, mode)}>{entry.memo}</a>
			)}
			{entry.claim_id === null ? null : (
				<>
					{" · "}
					<a href={withMode(`/partner/claims/${entry.claim_id}`, mode)}>
						Claim <span class="mono">{entry.claim_id}</span>
					</a>
				</>
			)}
		</>
	);
}
