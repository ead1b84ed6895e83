/**
 * A month's invoice as the partner prints it: the service as supplier, the partner with its tax
 * country and VAT number, each entry of the month's statement with its net, tax rate and tax, the
 * totals due, and for a reverse charge the legal mention. Every figure is the statement's (the same
 * read as GET /v1/statements/{month}), in its currency. On paper (A4 or Letter) the console's bars go.
 */
import { countryName } from "../addresses/postal-lines.ts";
import type { Statement } from "../ledger/statement.ts";
import type { LedgerEntry } from "../ledger/store.ts";
import { ENTRY_TYPE_WORDS } from "../ledger/words.ts";
import type { AccountBilling } from "../money/account-billing.ts";
import { moneyText } from "../money/currencies.ts";
import { type LayoutViewer, PartnerLayout } from "./layout.tsx";
import { monthWords } from "./money-page.tsx";
import { type ConsoleMode, withMode } from "./scope.ts";

/** Who issues the invoice: the service, established where its pieces ship from. */
export const SUPPLIER = { name: "Framed-Print Fulfillment", country: "US" } as const;

/** The legal mention an invoice under reverse charge carries. */
export const REVERSE_CHARGE_MENTION = "Reverse charge: the customer accounts for the VAT";

const INVOICE_CSS = `
.parties { display: grid; grid-template-columns: repeat(auto-fit, minmax(15rem, 1fr)); gap: 0 1.25rem; }
.parties h2 { font-size: 1rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); }
.invoice-totals { max-width: 24rem; margin-left: auto; grid-template-columns: 1fr auto; }
.invoice-totals dd { text-align: right; font-variant-numeric: tabular-nums; }
.invoice-totals .due { font-size: 1.15rem; }
.legal { font-weight: 700; border-left: 4px solid var(--ink); padding-left: .75rem; }
td.what { overflow-wrap: anywhere; }
td.when { white-space: nowrap; }
@media (max-width: 40rem) {
  .entries thead { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); }
  .entries tr { display: grid; grid-template-columns: 1fr auto; gap: 0 .75rem; padding: .5rem .6rem; border-bottom: 1px solid var(--line); }
  .entries td { display: block; border: 0; padding: .1rem 0; }
  .entries td.what { grid-column: 1 / -1; }
  .entries td[data-label] { display: contents; }
  .entries td[data-label]::before { content: attr(data-label); color: var(--muted); }
  td.when { white-space: normal; }
}
@page { margin: 15mm; }
@media print {
  html, body { background: #fff; font-size: 11pt; }
  .top, .sections, .modes, .no-print { display: none; }
  main { max-width: none; padding: 0; }
  .panel { border: 0; padding: 0; margin-bottom: 8mm; }
  .table-wrap { overflow: visible; }
  tr { break-inside: avoid; }
  a { color: inherit; text-decoration: none; }
}`;

/** A rate in hundredths of a percent as people write it: `19 %`, `20.5 %`. */
export function rateText(rateBp: number): string {
	return `${rateBp / 100} %`;
}

/** How an entry is taxed, in a cell: its rate, the reverse charge, or no tax. */
function taxRateWords(entry: LedgerEntry): string {
	if (entry.tax_treatment === "vat") return rateText(entry.tax_rate_bp);
	if (entry.tax_treatment === "reverse_charge") return "Reverse charge";
	return "No tax";
}

/** The printable invoice of `statement`'s month for the partner `partner`, billed as `billing`. */
export function InvoicePage(props: {
	viewer: LayoutViewer;
	mode: ConsoleMode;
	statement: Statement;
	partner: { name: string; billing: AccountBilling };
}) {
	const { statement, mode, partner } = props;
	const { currency, totals } = statement;
	const month = monthWords(statement.month);
	const reverseCharge = statement.entries.some((entry) => entry.tax_treatment === "reverse_charge");
	const vatNumber = partner.billing.tax_id;
	return (
		<PartnerLayout title={`Invoice · ${month}`} viewer={props.viewer} mode={mode} section="money" css={INVOICE_CSS}>
			<h1>Invoice · {month}</h1>
			<p class="no-print">
				<a href={withMode(`/partner/money?month=${statement.month}`, mode)}>Back to the statement of {month}</a>
				<span class="muted"> · Print this page from your browser: it fits A4 and Letter paper.</span>
			</p>
			<section class="panel parties" aria-label="Supplier and customer">
				<div>
					<h2>Supplier</h2>
					<p>
						<strong>{SUPPLIER.name}</strong>
						<br />
						{countryName(SUPPLIER.country)}
					</p>
				</div>
				<div>
					<h2>Customer</h2>
					<p>
						<strong>{partner.name}</strong>
						<br />
						{partner.billing.tax_country === null
							? "Tax country not set"
							: `Tax country: ${countryName(partner.billing.tax_country)}`}
						<br />
						{vatNumber === null ? "No VAT number" : `VAT number: ${vatNumber}`}
					</p>
				</div>
			</section>
			<section class="panel" aria-label="Invoice period">
				<dl>
					<dt>Period</dt>
					<dd>{month} (UTC)</dd>
					<dt>Currency</dt>
					<dd>{currency}</dd>
				</dl>
			</section>
			{statement.entries.length === 0 ? (
				<p class="panel muted">No entries in {month}.</p>
			) : (
				<section class="table-wrap" tabindex={0} aria-label={`Entries of ${month}`}>
					<table class="entries">
						<caption class="muted">Entries, oldest first</caption>
						<thead>
							<tr>
								<th scope="col">Date</th>
								<th scope="col">What</th>
								<th scope="col" class="num">
									Net
								</th>
								<th scope="col" class="num">
									Tax rate
								</th>
								<th scope="col" class="num">
									Tax
								</th>
							</tr>
						</thead>
						<tbody>
							{statement.entries.map((entry) => (
								<tr>
									<td class="when">{entry.at.slice(0, 10)}</td>
									<td class="what">
										{ENTRY_TYPE_WORDS[entry.type]} · {entry.memo}
									</td>
									<td class="num" data-label="Net">
										{moneyText(entry.amount_cents, currency)}
									</td>
									<td class="num" data-label="Tax rate">
										{taxRateWords(entry)}
									</td>
									<td class="num" data-label="Tax">
										{moneyText(entry.tax_cents, currency)}
									</td>
								</tr>
							))}
						</tbody>
					</table>
				</section>
			)}
			<section class="panel" aria-label="Totals">
				<dl class="invoice-totals">
					<dt>Net</dt>
					<dd>{moneyText(totals.net_cents, currency)}</dd>
					<dt>Tax</dt>
					<dd>{moneyText(totals.tax_cents, currency)}</dd>
					<dt class="due">Total due</dt>
					<dd class="due">{moneyText(totals.net_with_tax_cents, currency)}</dd>
				</dl>
			</section>
			{reverseCharge ? (
				<p class="panel legal">
					{REVERSE_CHARGE_MENTION}
					{vatNumber === null ? "." : ` (customer's VAT number ${vatNumber}).`}
				</p>
			) : null}
		</PartnerLayout>
	);
}
