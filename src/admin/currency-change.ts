/**
 * When the service team may change an account's billing currency: never under a month that has
 * entries (a statement is in one currency), nor over an open balance (it would be owed in a currency
 * the account no longer has). The partner's other settings change any time.
 */

import { type BillingChange, billingAfter } from "../customs/billing-settings.ts";
import { databaseOf } from "../databases.ts";
import { type CurrencyHold, currencyLockOf } from "../ledger/store.ts";
import { type AccountBilling, accountBillingOf, setAccountBilling } from "../money/account-billing.ts";
import { isCurrency, moneyText } from "../money/currencies.ts";
import { type Refusal, refusalOf } from "../problem.ts";

/** The first instant of `now`'s UTC month, and of the next. */
function monthsAround(now: Date): { start: Date; next: Date } {
	return {
		start: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)),
		next: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)),
	};
}

function amountText(cents: number, currency: string): string {
	return isCurrency(currency) ? moneyText(cents, currency) : `${cents} ${currency}`;
}

/** Why the currency cannot change from `from` given the account's `holds` at `now`, or null. */
export function currencyChangeRefusal(
	holds: readonly CurrencyHold[],
	from: string,
	to: string,
	now: Date,
): Refusal | null {
	const { next } = monthsAround(now);
	const nextMonth = next.toISOString().slice(0, 10);
	const open = holds.filter((hold) => hold.balanceCents !== 0);
	if (open.length > 0) {
		const owed = open.map((hold) => `${hold.mode} ${amountText(hold.balanceCents, hold.currency)}`).join(", ");
		const settle = open.map((hold) => `mode ${hold.mode}, amount_cents ${-hold.balanceCents}`).join("; ");
		return refusalOf(
			"currency_change_refused",
			`The account's balance is not zero (${owed}), so it cannot move from ${from} to ${to}: settle it with an adjustment (${settle}) through POST /v1/admin/accounts/{id}/adjustments, then change the currency next month (from ${nextMonth}), before the account's first entry of that month.`,
		);
	}
	const entries = holds.reduce((sum, hold) => sum + hold.entriesSince, 0);
	if (entries > 0) {
		return refusalOf(
			"currency_change_refused",
			`The account has ${entries} ledger ${entries === 1 ? "entry" : "entries"} this month, whose statement is in ${from}: change the currency to ${to} next month (from ${nextMonth}), before the account's first entry of that month.`,
		);
	}
	return null;
}

/**
 * Sets an account's billing as the service team asks (fields left out kept), or the refusal: a change
 * of currency refused while the ledger holds it, a VAT number that is not of the tax country.
 */
export async function setBillingByAdmin(
	env: Env,
	accountId: string,
	change: BillingChange & { currency: AccountBilling["currency"] },
	now: Date,
): Promise<{ ok: true; billing: AccountBilling } | Refusal> {
	const db = databaseOf(env, accountId);
	const current = await accountBillingOf(db, accountId);
	if (change.currency !== current.currency) {
		const holds = await currencyLockOf(db, accountId, monthsAround(now).start);
		const refused = currencyChangeRefusal(holds, current.currency, change.currency, now);
		if (refused !== null) return refused;
	}
	const after = billingAfter(current, change);
	if (!after.ok) return after;
	await setAccountBilling(db, accountId, after.billing, now);
	return after;
}
