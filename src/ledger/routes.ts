import { z } from "@hono/zod-openapi";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses } from "../http/errors.ts";
import { StatementParams, StatementSchema } from "./schema.ts";
import { statementCsv } from "./statement.ts";
import { statementFor } from "./statement-read.ts";

const CSV_EXAMPLE =
	"id,at,type,order_id,claim_id,amount_cents,currency,memo\r\nled_7Gh2kQ,2026-11-03T14:05:09.120Z,charge,ord_9Kd3,,18450,USD,Order SHOP-10442\r\n";

const getStatementRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/statements/{month}",
	tags: ["Statements"],
	summary: "A month's statement of the key's account and mode: balances, entries and totals (JSON or CSV)",
	description:
		"Months are UTC. `Accept: text/csv` gives the entries as RFC 4180 CSV with a header row; a cell a spreadsheet would read as a formula starts with a single quote. A month before 2020-01 or after the current one is a 422 `statement_month_out_of_range`.",
	request: { params: StatementParams },
	responses: {
		200: {
			description: "The statement; with `Accept: text/csv`, its entries as a CSV attachment.",
			content: {
				"application/json": { schema: StatementSchema },
				"text/csv": { schema: z.string().openapi({ example: CSV_EXAMPLE }) },
			},
		},
		...errorResponses(422),
	},
});

/** Whether the request asks for CSV before JSON. */
function wantsCsv(accept: string | undefined): boolean {
	const types = (accept ?? "").split(",").map((part) => part.split(";")[0]?.trim().toLowerCase());
	const csv = types.indexOf("text/csv");
	const json = types.indexOf("application/json");
	return csv !== -1 && (json === -1 || csv < json);
}

export const ledgerRoutes = createApp<AuthedEnv>().openapi(getStatementRoute, async (c) => {
	const { month } = c.req.valid("param");
	const statement = await statementFor(
		databaseOf(c.env, c.var.principal.accountId),
		c.var.principal,
		month,
		new Date(),
	);
	if (!wantsCsv(c.req.header("accept"))) return c.json(statement, 200);
	const filename = `statement-${statement.month}-${c.var.principal.mode}.csv`;
	return c.body(statementCsv(statement), 200, {
		"Content-Type": "text/csv; charset=utf-8",
		"Content-Disposition": `attachment; filename="${filename}"`,
	});
});
