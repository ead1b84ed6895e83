/**
 * The partner tax an adjustment is written under: the account's treatment now, from its billing and
 * the landed-cost table in force (an adjustment belongs to no order, so none was kept for it).
 */
import { partnerTaxOf } from "../customs/partner-tax.ts";
import { landedCostTables } from "../customs/store.ts";
import { readTogether } from "../http/batched-read.ts";
import { type EntryTaxRule, NO_TAX } from "../ledger/entry-tax.ts";
import { accountBillingRead } from "../money/account-billing.ts";

/** The tax rule of an adjustment to the account in `db` at `now`; no tax when no table is in force. */
export async function adjustmentTax(db: D1Database, accountId: string, now: Date): Promise<EntryTaxRule> {
	const { billing, table } = await readTogether(db, {
		billing: accountBillingRead(db, accountId),
		table: landedCostTables.inForceRead(db, now),
	});
	return table === null ? NO_TAX : partnerTaxOf(billing, table);
}
