/**
 * The service team's statements: every partner's month, one partner's month with its entries, and
 * that month's CSV, read through the same code as the partner's GET /v1/statements/{month}.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { accountNames, listAccountNames } from "../accounts/store.ts";
import { databaseOf, directoryDatabase, readByAccountDatabase } from "../databases.ts";
import { ApiError, okOrThrow, refusalError } from "../http/errors.ts";
import { page } from "../http/html-pages.ts";
import { MONTH_PATTERN, statementCsv, statementMonth } from "../ledger/statement.ts";
import { statementFor } from "../ledger/statement-read.ts";
import { monthBalances } from "../ledger/store.ts";
import { accountCurrencies } from "../money/account-billing.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { requireSession } from "./session-gate.ts";
import { PartnerStatementPage, StatementsPage, type StatementView } from "./statement-pages.tsx";

export const statementRoutes = new Hono<ConsoleEnv>();

/** The month and mode asked for (this month, live, by default); a malformed one is a 422 page. */
function viewOf(c: Context, now: Date): StatementView {
	const month = c.req.query("month") ?? now.toISOString().slice(0, 7);
	const mode = c.req.query("mode") ?? "live";
	if (!MONTH_PATTERN.test(month)) throw new ApiError("invalid_field", "month: must be a month as YYYY-MM.", "month");
	if (mode !== "live" && mode !== "test") throw new ApiError("invalid_field", "mode: must be live or test.", "mode");
	return { month, mode };
}

statementRoutes.get("/statements", requireSession, async (c) => {
	const now = new Date();
	const view = viewOf(c, now);
	// The month's bounds are checked as the API checks them: a month to come, or before 2020, is refused.
	const bounds = statementMonth(view.month, now);
	if (!bounds.ok) throw refusalError(bounds);
	const accounts = await listAccountNames(directoryDatabase(c.env));
	const balances = await readByAccountDatabase(
		c.env,
		accounts.map((account) => account.id),
		(database, accountIds) => monthBalances(database, accountIds, view.mode, view.month),
	);
	const currencies = await readByAccountDatabase(
		c.env,
		accounts.map((account) => account.id),
		accountCurrencies,
	);
	const partners = accounts.map((account, index) => {
		const balance = balances[index] ?? { netCents: 0, closingCents: 0 };
		const { netCents, closingCents } = balance;
		const currency = currencies[index] ?? "USD";
		return {
			accountId: account.id,
			name: account.name,
			currency,
			openingCents: closingCents - netCents,
			netCents,
			closingCents,
		};
	});
	return page(c, <StatementsPage view={view} partners={partners} csrfToken={c.var.operator.csrfToken} />);
});

/** The account's name, or a 404 page's error. */
async function partnerName(db: D1Database, accountId: string): Promise<string> {
	const name = (await accountNames(db, [accountId])).get(accountId);
	if (name === undefined) throw new ApiError("account_not_found", `There is no partner ${accountId}.`, "id");
	return name;
}

statementRoutes.get("/statements/:accountId", requireSession, async (c) => {
	const now = new Date();
	const view = viewOf(c, now);
	const accountId = c.req.param("accountId");
	const name = await partnerName(directoryDatabase(c.env), accountId);
	const read = await statementFor(databaseOf(c.env, accountId), { accountId, mode: view.mode }, view.month, now);
	const { statement } = okOrThrow(read);
	const props = { name, accountId, view, statement, csrfToken: c.var.operator.csrfToken };
	return page(c, <PartnerStatementPage {...props} />);
});

statementRoutes.get("/statements/:accountId/csv", requireSession, async (c) => {
	const now = new Date();
	const view = viewOf(c, now);
	const accountId = c.req.param("accountId");
	await partnerName(directoryDatabase(c.env), accountId);
	const read = await statementFor(databaseOf(c.env, accountId), { accountId, mode: view.mode }, view.month, now);
	const { statement } = okOrThrow(read);
	return c.body(statementCsv(statement), 200, {
		"Content-Type": "text/csv; charset=utf-8",
		"Content-Disposition": `attachment; filename="statement-${accountId}-${view.month}-${view.mode}.csv"`,
	});
});
