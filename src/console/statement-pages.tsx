/**
 * The service team's view of the money: every partner's month (opening, net, closing) with a link to
 * its entries and its CSV, and one partner's statement of any month.
 */

import { formatTime } from "../http/format.ts";
import type { Statement } from "../ledger/statement.ts";
import { ENTRY_TYPE_WORDS } from "../ledger/words.ts";
import { type Currency, isCurrency, moneyText } from "../money/currencies.ts";
import { Layout } from "./layout.tsx";

/** A row of the overview: the partner and its month's balances. */
export type PartnerMonth = {
	accountId: string;
	name: string;
	/** The account's billing currency, which its balances are in. */
	currency: Currency;
	openingCents: number;
	netCents: number;
	closingCents: number;
};

/** The month and mode a page shows, and where its links go. */
export type StatementView = { month: string; mode: "live" | "test" };

const STATEMENT_CSS =
	".month-form { display: flex; flex-wrap: wrap; gap: .75rem 1rem; align-items: end; margin: 0 0 1.25rem; } .month-form label { display: grid; gap: .25rem; font-weight: 600; } .month-form input, .month-form select { font: inherit; padding: .45rem .6rem; border: 2px solid var(--line); border-radius: .4rem; background: var(--paper); } .month-form button, a.button { font: inherit; font-weight: 700; padding: .5rem 1rem; border-radius: .4rem; border: 2px solid var(--accent); background: var(--accent); color: var(--accent-ink); text-decoration: none; display: inline-block; } .memo { overflow-wrap: anywhere; } @media (max-width: 40rem) { table.statement th:nth-child(2), table.statement td:nth-child(2) { display: none; } th, td { padding: .55rem .5rem; } }";

function query({ month, mode }: StatementView): string {
	return `month=${month}&mode=${mode}`;
}

function MonthForm({ view, action }: { view: StatementView; action: string }) {
	return (
		<form class="month-form" method="get" action={action}>
			<label>
				Month
				<input type="month" name="month" value={view.month} min="2020-01" required />
			</label>
			<label>
				Mode
				<select name="mode">
					<option value="live" selected={view.mode === "live"}>
						live
					</option>
					<option value="test" selected={view.mode === "test"}>
						test
					</option>
				</select>
			</label>
			<button type="submit">Show</button>
		</form>
	);
}

/** Every partner's month: opening, net and closing, each with its entries' page and its CSV. */
export function StatementsPage(props: { view: StatementView; partners: PartnerMonth[]; csrfToken: string }) {
	const { view } = props;
	return (
		<Layout title={`Statements ${view.month}`} csrfToken={props.csrfToken}>
			<style>{STATEMENT_CSS}</style>
			<h1>
				Statements · <span class="nowrap">{view.month}</span> <span class="muted">({view.mode})</span>
			</h1>
			<MonthForm view={view} action="/ops/statements" />
			{props.partners.length === 0 ? (
				<p class="panel muted">No partners yet.</p>
			) : (
				<div class="table-wrap">
					<table class="statement">
						<thead>
							<tr>
								<th>Partner</th>
								<th class="num">Opening</th>
								<th class="num">Month's net</th>
								<th class="num">Closing</th>
								<th>CSV</th>
							</tr>
						</thead>
						<tbody>
							{props.partners.map((partner) => (
								<tr>
									<td>
										<a href={`/ops/statements/${partner.accountId}?${query(view)}`}>{partner.name}</a>
									</td>
									<td class="num amount">{moneyText(partner.openingCents, partner.currency)}</td>
									<td class="num amount">{moneyText(partner.netCents, partner.currency)}</td>
									<td class="num amount">{moneyText(partner.closingCents, partner.currency)}</td>
									<td>
										<a href={`/ops/statements/${partner.accountId}/csv?${query(view)}`} download>
											CSV
										</a>
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</Layout>
	);
}

/** One partner's statement of a month: balances, totals and entries, and its CSV. */
export function PartnerStatementPage(props: {
	name: string;
	accountId: string;
	view: StatementView;
	statement: Statement;
	csrfToken: string;
}) {
	const { statement, view } = props;
	// Entries are written in the account's currency; an account without any shows its statement in USD.
	const currency: Currency = isCurrency(statement.currency) ? statement.currency : "USD";
	return (
		<Layout title={`${props.name} ${view.month}`} csrfToken={props.csrfToken}>
			<style>{STATEMENT_CSS}</style>
			<p>
				<a href={`/ops/statements?${query(view)}`}>All partners</a>
			</p>
			<h1>
				{props.name} · <span class="nowrap">{view.month}</span> <span class="muted">({view.mode})</span>
			</h1>
			<MonthForm view={view} action={`/ops/statements/${props.accountId}`} />
			<div class="grid">
				<section class="panel">
					<h2>Balance</h2>
					<dl class="facts">
						<dt>Opening</dt>
						<dd class="amount">{moneyText(statement.opening_balance_cents, currency)}</dd>
						<dt>Charges</dt>
						<dd class="amount">{moneyText(statement.totals.charges_cents, currency)}</dd>
						<dt>Credits</dt>
						<dd class="amount">{moneyText(statement.totals.credits_cents, currency)}</dd>
						<dt>Adjustments</dt>
						<dd class="amount">{moneyText(statement.totals.adjustments_cents, currency)}</dd>
						<dt>Closing</dt>
						<dd class="amount">{moneyText(statement.closing_balance_cents, currency)}</dd>
					</dl>
					<p>
						<a class="button" href={`/ops/statements/${props.accountId}/csv?${query(view)}`} download>
							Download CSV
						</a>
					</p>
				</section>
			</div>
			{statement.entries.length === 0 ? (
				<p class="panel muted">No entries in {view.month}.</p>
			) : (
				<div class="table-wrap">
					<table class="statement">
						<thead>
							<tr>
								<th>Entry</th>
								<th>When</th>
								<th>What</th>
								<th class="num">Amount</th>
							</tr>
						</thead>
						<tbody>
							{statement.entries.map((entry) => (
								<tr>
									<td>{ENTRY_TYPE_WORDS[entry.type]}</td>
									<td class="nowrap">{formatTime(entry.at)}</td>
									<td class="memo">
										{entry.order_id === null ? entry.memo : <a href={`/ops/orders/${entry.order_id}`}>{entry.memo}</a>}
									</td>
									<td class="num amount">{moneyText(entry.amount_cents, currency)}</td>
								</tr>
							))}
						</tbody>
					</table>
				</div>
			)}
		</Layout>
	);
}
