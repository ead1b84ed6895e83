import { describe, expect, it } from "vitest";
import { csvCell, statementCsv, statementMonth, statementOf } from "../../src/ledger/statement.ts";
import type { LedgerEntry } from "../../src/ledger/store.ts";

const NOW = new Date("2026-11-24T07:00:00.000Z");

function entry(type: LedgerEntry["type"], amount: number, memo = "Order A-1"): LedgerEntry {
	return {
		id: `led_${type}`,
		at: "2026-11-03T10:00:00.000Z",
		type,
		order_id: null,
		claim_id: null,
		amount_cents: amount,
		currency: "USD",
		memo,
		tax_cents: 0,
		tax_treatment: "none",
		tax_rate_bp: 0,
	};
}

describe("statementMonth", () => {
	it("bounds a month in UTC, December running to the next year's January", () => {
		expect(statementMonth("2025-12", NOW)).toEqual({
			ok: true,
			month: "2025-12",
			start: "2025-12-01T00:00:00.000Z",
			end: "2026-01-01T00:00:00.000Z",
		});
	});

	it("refuses a month before 2020-01 or after the current one, and takes the current one", () => {
		expect(statementMonth("2019-12", NOW)).toMatchObject({
			ok: false,
			code: "statement_month_out_of_range",
			field: "month",
		});
		expect(statementMonth("2026-12", NOW)).toMatchObject({ ok: false, code: "statement_month_out_of_range" });
		expect(statementMonth("2026-11", NOW)).toMatchObject({ ok: true });
	});
});

describe("statementOf", () => {
	it("sums charges with repricings, credits of both kinds, adjustments, and closes at opening plus net", () => {
		const statement = statementOf("2026-11", "USD", 1000, [
			entry("charge", 5000),
			entry("repricing", -300),
			entry("cancellation_credit", -4700),
			entry("claim_credit", -800),
			entry("adjustment", 250),
		]);
		expect(statement.totals).toEqual({
			charges_cents: 4700,
			credits_cents: -5500,
			adjustments_cents: 250,
			net_cents: -550,
			tax_cents: 0,
			net_with_tax_cents: -550,
		});
		expect(statement.closing_balance_cents).toBe(450);
	});
});

describe("statementOf with the partner tax", () => {
	it("sums each entry's tax into tax_cents and net_with_tax_cents, balances staying sums of amounts", () => {
		const taxed = (type: LedgerEntry["type"], amount: number, tax: number): LedgerEntry => ({
			...entry(type, amount),
			currency: "EUR",
			tax_cents: tax,
			tax_treatment: "vat",
			tax_rate_bp: 1900,
		});
		const statement = statementOf("2026-11", "EUR", 200, [
			taxed("charge", 10_000, 1900),
			taxed("cancellation_credit", -10_000, -1900),
			taxed("charge", 5050, 960),
			taxed("claim_credit", -1000, -190),
		]);
		expect(statement.currency).toBe("EUR");
		expect(statement.totals).toMatchObject({ net_cents: 4050, tax_cents: 770, net_with_tax_cents: 4820 });
		expect(statement.closing_balance_cents).toBe(4250);
	});
});

describe("csvCell", () => {
	it("makes a cell starting with =, +, -, @, a tab or a CR inert with a leading quote", () => {
		expect(["=1+1", "+1", "-1", "@A1", "\tx", "\rx"].map(csvCell)).toEqual([
			"'=1+1",
			"'+1",
			"'-1",
			"'@A1",
			"'\tx",
			'"\'\rx"',
		]);
	});

	it("quotes a cell with a comma, a quote or a line break as RFC 4180 says, and leaves numbers as numbers", () => {
		expect(csvCell('a "b", c')).toBe('"a ""b"", c"');
		expect(csvCell("two\nlines")).toBe('"two\nlines"');
		expect(csvCell(-2500)).toBe("-2500");
		expect(csvCell(null)).toBe("");
		expect(csvCell("Order A-1")).toBe("Order A-1");
	});

	it("writes a header row and one CRLF-ended row per entry", () => {
		const csv = statementCsv(statementOf("2026-11", "USD", 0, [entry("adjustment", -100, "=cmd")]));
		expect(csv).toBe(
			"id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp\r\nled_adjustment,2026-11-03T10:00:00.000Z,adjustment,,,-100,USD,'=cmd,0,none,0\r\n",
		);
	});
});
