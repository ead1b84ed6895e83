/**
 * What an adjustment is written in: the account's billing currency, like every other entry of its
 * statement, and the partner tax at the account's treatment now, from its billing and the landed-cost
 * table in force (an adjustment belongs to no order, so none was kept for it).
 */
import { partnerTaxOf } from "../customs/partner-tax.ts";
import { landedCostTables } from "../customs/store.ts";
import { readTogether } from "../http/batched-read.ts";
import { type EntryTaxRule, NO_TAX } from "../ledger/entry-tax.ts";
import { accountBillingRead } from "../money/account-billing.ts";
import type { Currency } from "../money/currencies.ts";

/** The currency and tax rule of an adjustment to the account in `db` at `now`; no tax when no table is in force. */
export async function adjustmentTerms(
	db: D1Database,
	accountId: string,
	now: Date,
): Promise<{ currency: Currency; tax: EntryTaxRule }> {
	const { billing, table } = await readTogether(db, {
		billing: accountBillingRead(db, accountId),
		table: landedCostTables.inForceRead(db, now),
	});
	return { currency: billing.currency, tax: table === null ? NO_TAX : partnerTaxOf(billing, table) };
}
