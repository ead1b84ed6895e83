import { env } from "cloudflare:workers";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { type EntryTaxRule, taxOn } from "../../src/ledger/entry-tax.ts";
import { statementFor } from "../../src/ledger/statement-read.ts";
import {
	cancellationEntry,
	chargeEntry,
	claimCreditEntry,
	type LedgerOwner,
	repricingEntry,
	writeAdjustment,
} from "../../src/ledger/store.ts";
import { createPartner } from "../helpers.ts";

/**
 * Over random sequences of orders charged, repriced and canceled, claims refunded and adjustments, at
 * instants spread over three years and written out of order: each cause writes one entry however often
 * it is replayed (twice, at once, every time); each month's entries sum to its totals, its opening plus
 * net is its closing, and its opening is the previous month's closing; the last closing is what the
 * model of the sequence says is owed, and the months' tax what it says is taxed (a cancellation giving back
 * exactly the tax its order was charged). The statements are the ones the ledger's stores build, run on D1
 * with the balances' trigger, and read as the route reads them.
 */

const SEED = 20261124;
/** Every entry is taxed at 19 %: the tax of each cause is then checked against the model too. */
const VAT: EntryTaxRule = { treatment: "vat", rate_bp: 1900 };
const FIRST = Date.UTC(2024, 0, 1);
const NOW = new Date();

type Step =
	| { kind: "charge"; order: number; cents: number; at: number }
	| { kind: "reprice"; order: number; version: number; cents: number; at: number }
	| { kind: "cancel"; order: number; at: number }
	| { kind: "claim"; order: number; claim: number; cents: number; at: number }
	| { kind: "adjust"; cents: number; at: number };

const instant = fc.integer({ min: FIRST, max: NOW.getTime() });
const order = fc.integer({ min: 0, max: 5 });
const step: fc.Arbitrary<Step> = fc.oneof(
	fc.record({ kind: fc.constant("charge" as const), order, cents: fc.integer({ min: 1, max: 500_000 }), at: instant }),
	fc.record({
		kind: fc.constant("reprice" as const),
		order,
		version: fc.integer({ min: 2, max: 4 }),
		cents: fc.integer({ min: -20_000, max: 20_000 }).filter((cents) => cents !== 0),
		at: instant,
	}),
	fc.record({ kind: fc.constant("cancel" as const), order, at: instant }),
	fc.record({
		kind: fc.constant("claim" as const),
		order,
		claim: fc.integer({ min: 0, max: 3 }),
		cents: fc.integer({ min: 1, max: 100_000 }),
		at: instant,
	}),
	fc.record({
		kind: fc.constant("adjust" as const),
		cents: fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }).filter((cents) => cents !== 0),
		at: instant,
	}),
);

/** The statement a step writes, built afresh (a new entry id) each time: a replay is a real second write. */
function statementOf(db: D1Database, owner: LedgerOwner, prefix: string, move: Exclude<Step, { kind: "adjust" }>) {
	const entryOrder = { id: `${prefix}_ord_${move.order}`, externalId: `=EXT-${move.order}`, currency: "USD", tax: VAT };
	const at = new Date(move.at);
	const amount = { cents: "cents" in move ? move.cents : 0, taxableCents: "cents" in move ? move.cents : 0 };
	switch (move.kind) {
		case "charge":
			return chargeEntry(db, owner, entryOrder, amount, at, null);
		case "reprice":
			return repricingEntry(db, owner, { ...entryOrder, version: move.version }, amount, at, null);
		case "cancel":
			return cancellationEntry(db, owner, entryOrder, at, null);
		case "claim":
			return claimCreditEntry(
				db,
				owner,
				{ id: `${prefix}_clm_${move.claim}`, order: entryOrder, creditCents: move.cents },
				at,
				null,
			);
	}
}

/**
 * What the sequence owes, by the rules: one entry per cause, credits and repricings only after a charge,
 * each entry's tax on its own amount, a cancellation's the tax its order was charged.
 */
function modelOf(steps: Step[]): { entries: number; owed: number; tax: number } {
	const causes = new Set<string>();
	const charged = new Map<number, { cents: number; tax: number }>();
	let entries = 0;
	let owed = 0;
	let tax = 0;
	const add = (cause: string | null, cents: number, taxCents = taxOn(cents, VAT).cents) => {
		if (cause !== null && causes.has(cause)) return;
		if (cause !== null) causes.add(cause);
		entries += 1;
		owed += cents;
		tax += taxCents;
	};
	for (const move of steps) {
		if (move.kind === "adjust") add(null, move.cents);
		else if (move.kind === "charge") {
			const charge = { cents: move.cents, tax: taxOn(move.cents, VAT).cents };
			if (!causes.has(`charge:${move.order}`)) charged.set(move.order, charge);
			add(`charge:${move.order}`, move.cents);
		} else if (move.kind === "claim") add(`claim:${move.claim}`, -move.cents);
		else {
			const charge = charged.get(move.order);
			if (charge === undefined) continue;
			if (move.kind === "reprice") {
				const cause = `reprice:${move.order}:${move.version}`;
				if (!causes.has(cause)) {
					charged.set(move.order, {
						cents: charge.cents + move.cents,
						tax: charge.tax + taxOn(move.cents, VAT).cents,
					});
				}
				add(cause, move.cents);
			} else add(`cancel:${move.order}`, -charge.cents, -charge.tax);
		}
	}
	return { entries, owed, tax };
}

/** Every month from the first instant's to now's, as YYYY-MM. */
function months(): string[] {
	const all: string[] = [];
	for (let at = new Date(FIRST); at <= NOW; at = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + 1, 1))) {
		all.push(at.toISOString().slice(0, 7));
	}
	return all;
}

describe("the ledger over random sequences", () => {
	it("writes one entry per cause, sums each month to its totals, and chains closing to opening month to month", async () => {
		let run = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 25 }), async (steps) => {
				run += 1;
				const partner = await createPartner(`Ledger ${run}`);
				const owner = { accountId: partner.account.id, mode: "live" as const };
				const prefix = `r${run}`;
				for (const move of steps) {
					if (move.kind === "adjust") {
						await writeAdjustment(
							env.DB,
							owner,
							{ amountCents: move.cents, currency: "USD", memo: "+memo", tax: VAT },
							new Date(move.at),
						);
						continue;
					}
					// The same move replayed twice at once: its cause's unique key keeps one entry.
					await Promise.all([
						statementOf(env.DB, owner, prefix, move).run(),
						statementOf(env.DB, owner, prefix, move).run(),
					]);
				}
				const model = modelOf(steps);
				let previousClosing = 0;
				let entries = 0;
				let tax = 0;
				for (const month of months()) {
					const read = await statementFor(env.DB, owner, month, NOW);
					if (!read.ok) throw new Error(`no statement of ${month}: ${read.message}`);
					const { statement } = read;
					expect(statement.opening_balance_cents).toBe(previousClosing);
					const sum = statement.entries.reduce((total, entry) => total + entry.amount_cents, 0);
					const { charges_cents, credits_cents, adjustments_cents, net_cents } = statement.totals;
					expect(net_cents).toBe(sum);
					const taxSum = statement.entries.reduce((total, entry) => total + entry.tax_cents, 0);
					expect(statement.totals.tax_cents).toBe(taxSum);
					expect(statement.totals.net_with_tax_cents).toBe(net_cents + taxSum);
					tax += taxSum;
					expect(charges_cents + credits_cents + adjustments_cents).toBe(net_cents);
					expect(statement.closing_balance_cents).toBe(statement.opening_balance_cents + net_cents);
					expect(statement.entries.every((entry) => entry.at.startsWith(month))).toBe(true);
					previousClosing = statement.closing_balance_cents;
					entries += statement.entries.length;
				}
				expect(entries).toBe(model.entries);
				expect(previousClosing).toBe(model.owed);
				expect(tax).toBe(model.tax);
			}),
			{ seed: SEED, numRuns: 25 },
		);
	}, 240_000);
});
