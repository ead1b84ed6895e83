/**
 * The partner console's money, under /partner/money: a month's statement (the current month so far
 * by default), its CSV and its printable invoice, all read by statementFor, the function behind GET /v1/statements/{month},
 * for the signed-in account in the page's mode, and the CSV written by the API's own formula-safe
 * writer. Only roles that see money open them.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { findAccount } from "../accounts/store.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { ApiError, okOrThrow } from "../http/errors.ts";
import { page } from "../http/html-pages.ts";
import { MONTH_PATTERN, type Statement, statementCsv } from "../ledger/statement.ts";
import { statementFor } from "../ledger/statement-read.ts";
import { accountBillingOf } from "../money/account-billing.ts";
import { InvoicePage } from "./money-invoice.tsx";
import { MoneyPage } from "./money-page.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { modeOf, ownerOf } from "./scope.ts";
import { requireAbility, requirePartner } from "./session-gate.ts";

export const partnerMoneyRoutes = new Hono<SignedInPartnerEnv>();

partnerMoneyRoutes.use("*", requirePartner, requireAbility("see_money"));

/**
 * The statement of the month the address names (`?month=YYYY-MM`, the current month without it), as
 * the API reads it; a malformed month, or one before the ledger or to come, is a 422 page in words.
 */
async function statementAsked(c: Context<SignedInPartnerEnv>, now: Date): Promise<Statement> {
	const month = (c.req.query("month") ?? now.toISOString().slice(0, 7)).slice(0, 16);
	if (!MONTH_PATTERN.test(month)) {
		throw new ApiError("invalid_field", "Choose a month as year and month, like 2026-11.", "month");
	}
	const owner = ownerOf(c);
	return okOrThrow(await statementFor(databaseOf(c.env, owner.accountId), owner, month, now)).statement;
}

partnerMoneyRoutes.get("/", async (c) => {
	const now = new Date();
	const statement = await statementAsked(c, now);
	const { csrfToken, user } = c.var.signedIn;
	return page(
		c,
		<MoneyPage
			viewer={{ csrfToken, role: user.role }}
			mode={modeOf(c)}
			statement={statement}
			currentMonth={now.toISOString().slice(0, 7)}
		/>,
	);
});

partnerMoneyRoutes.get("/csv", async (c) => {
	const statement = await statementAsked(c, new Date());
	return c.body(statementCsv(statement), 200, {
		"Content-Type": "text/csv; charset=utf-8",
		"Content-Disposition": `attachment; filename="statement-${statement.month}-${modeOf(c)}.csv"`,
		"Cache-Control": "private, no-store",
	});
});

partnerMoneyRoutes.get("/invoice", async (c) => {
	const statement = await statementAsked(c, new Date());
	const { accountId } = ownerOf(c);
	const [account, billing] = await Promise.all([
		findAccount(directoryDatabase(c.env), accountId),
		accountBillingOf(databaseOf(c.env, accountId), accountId),
	]);
	const { csrfToken, user } = c.var.signedIn;
	return page(
		c,
		<InvoicePage
			viewer={{ csrfToken, role: user.role }}
			mode={modeOf(c)}
			statement={statement}
			partner={{ name: account?.name ?? accountId, billing }}
		/>,
	);
});
