/** A month's statement of an account and mode, read in one batch and checked month by month. */
import type { Owner } from "../accounts/owner.ts";
import type { Refusal } from "../problem.ts";
import { type Statement, statementMonth, statementOf } from "./statement.ts";
import { monthOfLedger } from "./store.ts";

/** The statement of `month` (`YYYY-MM`) for `owner`, or the refusal of a month before the ledger or after `now`'s. */
export async function statementFor(
	db: D1Database,
	owner: Owner,
	month: string,
	now: Date,
): Promise<{ ok: true; statement: Statement } | Refusal> {
	const bounds = statementMonth(month, now);
	if (!bounds.ok) return bounds;
	const { openingCents, entries } = await monthOfLedger(db, owner, month, bounds);
	return { ok: true, statement: statementOf(month, openingCents, entries) };
}
