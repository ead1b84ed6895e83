/** A month's statement of an account and mode, read in one batch and checked month by month. */
import type { Owner } from "../accounts/owner.ts";
import { refusalError } from "../http/errors.ts";
import { type Statement, statementMonth, statementOf } from "./statement.ts";
import { monthOfLedger } from "./store.ts";

/** The statement of `month` (`YYYY-MM`) for `owner`; a 422 for a month before the ledger or after `now`'s. */
export async function statementFor(db: D1Database, owner: Owner, month: string, now: Date): Promise<Statement> {
	const bounds = statementMonth(month, now);
	if (!bounds.ok) throw refusalError(bounds);
	const { openingCents, entries } = await monthOfLedger(db, owner, month, bounds);
	return statementOf(month, openingCents, entries);
}
