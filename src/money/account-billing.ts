/**
 * An account's billing (migration 0040's `account_billing`, in the account's database): the currency
 * its quotes, orders, ledger and statements are in, its default duty terms for orders abroad, and where
 * it is established for tax with its VAT number. Without a row: USD, duty unpaid, no tax country.
 */
import { type BatchedRead, readOne, rowRead } from "../http/batched-read.ts";
import type { Currency } from "./currencies.ts";
import type { DutyTerms } from "./duty-terms.ts";

export { DUTY_TERMS, type DutyTerms } from "./duty-terms.ts";

export type AccountBilling = {
	currency: Currency;
	duty_terms: DutyTerms;
	tax_country: string | null;
	tax_id: string | null;
};

/** What an account without settings is billed as. */
export const DEFAULT_BILLING: AccountBilling = { currency: "USD", duty_terms: "dap", tax_country: null, tax_id: null };

/** The account's billing as a read that can share a batch. */
export function accountBillingRead(db: D1Database, accountId: string): BatchedRead<AccountBilling> {
	return rowRead(
		db
			.prepare("SELECT currency, duty_terms, tax_country, tax_id FROM account_billing WHERE account_id = ?1")
			.bind(accountId),
		(row: AccountBilling | null) => row ?? DEFAULT_BILLING,
	);
}

/** The account's billing. */
export function accountBillingOf(db: D1Database, accountId: string): Promise<AccountBilling> {
	return readOne(db, accountBillingRead(db, accountId));
}

/** Writes the account's billing whole (a row is made the first time). */
export async function setAccountBilling(
	db: D1Database,
	accountId: string,
	billing: AccountBilling,
	now: Date,
): Promise<void> {
	await db
		.prepare(
			`INSERT INTO account_billing (account_id, currency, duty_terms, tax_country, tax_id, updated_at)
			 VALUES (?1, ?2, ?3, ?4, ?5, ?6)
			 ON CONFLICT (account_id) DO UPDATE SET currency = excluded.currency, duty_terms = excluded.duty_terms,
			  tax_country = excluded.tax_country, tax_id = excluded.tax_id, updated_at = excluded.updated_at`,
		)
		.bind(accountId, billing.currency, billing.duty_terms, billing.tax_country, billing.tax_id, now.toISOString())
		.run();
}

/** Each account's billing currency, in the order asked (one batch: the console's list of partners). */
export async function accountCurrencies(db: D1Database, accountIds: readonly string[]): Promise<Currency[]> {
	if (accountIds.length === 0) return [];
	const results = await db.batch(accountIds.flatMap((accountId) => accountBillingRead(db, accountId).statements));
	return accountIds.map((_, index) => {
		const row = results[index]?.results[0] as { currency: Currency } | undefined;
		return row?.currency ?? DEFAULT_BILLING.currency;
	});
}
