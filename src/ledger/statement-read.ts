/** A month's statement of an account and mode, read in one batch and checked month by month. */
import type { Owner } from "../accounts/owner.ts";
import { readTogether } from "../http/batched-read.ts";
import { accountBillingRead } from "../money/account-billing.ts";
import { isCurrency } from "../money/currencies.ts";
import type { Refusal } from "../problem.ts";
import { type Statement, statementMonth, statementOf } from "./statement.ts";
import { monthOfLedgerRead } from "./store.ts";

/**
 * The statement of `month` (`YYYY-MM`) for `owner`, or the refusal of a month before the ledger or after
 * `now`'s. Its currency is its entries' (a month's entries are in one currency: the account's currency
 * cannot change while the month has entries), else the account's billing currency; its opening balance
 * is the earlier entries' of that currency only.
 */
export async function statementFor(
	db: D1Database,
	owner: Owner,
	month: string,
	now: Date,
): Promise<{ ok: true; statement: Statement } | Refusal> {
	const bounds = statementMonth(month, now);
	if (!bounds.ok) return bounds;
	const { billing, ledger } = await readTogether(db, {
		billing: accountBillingRead(db, owner.accountId),
		ledger: monthOfLedgerRead(db, owner, month, bounds),
	});
	const currency = ledger.entries[0]?.currency ?? billing.currency;
	// Entries are written in an order's or the account's billing currency, so never in another.
	if (!isCurrency(currency)) throw new Error(`the ledger of ${owner.accountId} has an entry in ${currency}`);
	const opening = ledger.openingByCurrency.get(currency) ?? 0;
	return { ok: true, statement: statementOf(month, currency, opening, ledger.entries) };
}
