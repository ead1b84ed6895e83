/**
 * A monthly statement, pure: which months may be asked for, their bounds in UTC, the totals of a month's
 * entries and its balances, and the CSV a spreadsheet opens without running anything a partner wrote.
 */
import type { Currency } from "../money/currencies.ts";
import { type Refusal, refusal } from "../problem.ts";
import type { LedgerEntry } from "./store.ts";

/** The first month a statement can be asked for: the service keeps no ledger before it. */
export const FIRST_MONTH = "2020-01";

/** A month as `YYYY-MM`, 01 to 12. */
export const MONTH_PATTERN = /^\d{4}-(0[1-9]|1[0-2])$/;

/** A statement's month: its first instant and the first instant of the next, as stored timestamps compare. */
export type MonthBounds = { month: string; start: string; end: string };

/** The month's bounds, or a problem when it is before the ledger's first month or after `now`'s month. */
export function statementMonth(month: string, now: Date): ({ ok: true } & MonthBounds) | Refusal {
	const current = now.toISOString().slice(0, 7);
	if (month < FIRST_MONTH || month > current) {
		const message = `The month ${month} has no statement: ask for a month from ${FIRST_MONTH} to ${current} (UTC).`;
		return refusal("statement_month_out_of_range", "month", message);
	}
	const year = Number(month.slice(0, 4));
	const monthIndex = Number(month.slice(5, 7)) - 1;
	return {
		ok: true,
		month,
		start: new Date(Date.UTC(year, monthIndex, 1)).toISOString(),
		end: new Date(Date.UTC(year, monthIndex + 1, 1)).toISOString(),
	};
}

/**
 * A month's sums: charges (charges and repricings), credits (cancellations and claims), adjustments, net,
 * the partner tax on them, and net with tax (what the month's invoice says is due).
 */
export type StatementTotals = {
	charges_cents: number;
	credits_cents: number;
	adjustments_cents: number;
	net_cents: number;
	tax_cents: number;
	net_with_tax_cents: number;
};

/** The statement as the API answers it. */
export type Statement = {
	month: string;
	currency: Currency;
	opening_balance_cents: number;
	entries: LedgerEntry[];
	totals: StatementTotals;
	closing_balance_cents: number;
};

/**
 * The statement of a month in `currency` from its opening balance in that currency and its entries, in
 * order. Balances are sums of the entries' amounts; the tax is summed beside them.
 */
export function statementOf(
	month: string,
	currency: Currency,
	openingCents: number,
	entries: LedgerEntry[],
): Statement {
	const totals: StatementTotals = {
		charges_cents: 0,
		credits_cents: 0,
		adjustments_cents: 0,
		net_cents: 0,
		tax_cents: 0,
		net_with_tax_cents: 0,
	};
	for (const entry of entries) {
		if (entry.type === "charge" || entry.type === "repricing") totals.charges_cents += entry.amount_cents;
		else if (entry.type === "adjustment") totals.adjustments_cents += entry.amount_cents;
		else totals.credits_cents += entry.amount_cents;
		totals.net_cents += entry.amount_cents;
		totals.tax_cents += entry.tax_cents;
	}
	totals.net_with_tax_cents = totals.net_cents + totals.tax_cents;
	return {
		month,
		currency,
		opening_balance_cents: openingCents,
		entries,
		totals,
		closing_balance_cents: openingCents + totals.net_cents,
	};
}

const CSV_COLUMNS = [
	"id",
	"at",
	"type",
	"order_id",
	"claim_id",
	"amount_cents",
	"currency",
	"memo",
	"tax_cents",
	"tax_treatment",
	"tax_rate_bp",
] as const;

/**
 * One CSV cell: text a spreadsheet would read as a formula (starting with =, +, -, @, a tab or a CR)
 * gets a leading single quote, so it shows as text; then quoted as RFC 4180 asks when it holds a
 * comma, a quote or a line break. Numbers are written as they are (a negative amount stays a number).
 */
export function csvCell(value: string | number | null): string {
	if (value === null) return "";
	if (typeof value === "number") return String(value);
	const inert = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
	return /[",\r\n]/.test(inert) ? `"${inert.replaceAll('"', '""')}"` : inert;
}

/** The statement's entries as RFC 4180 CSV: a header row, one row per entry, CRLF line ends. */
export function statementCsv(statement: Statement): string {
	const rows = [CSV_COLUMNS.join(",")];
	for (const entry of statement.entries) rows.push(CSV_COLUMNS.map((column) => csvCell(entry[column])).join(","));
	return `${rows.join("\r\n")}\r\n`;
}
