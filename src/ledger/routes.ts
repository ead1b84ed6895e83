import { z } from "@hono/zod-openapi";
import { accepts } from "hono/accepts";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses, okOrThrow } from "../http/errors.ts";
import { StatementParams, StatementSchema } from "./schema.ts";
import { statementCsv } from "./statement.ts";
import { statementFor } from "./statement-read.ts";

const CSV_EXAMPLE =
	"id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp\r\nled_7Gh2kQ,2026-11-03T14:05:09.120Z,charge,ord_9Kd3,,18450,EUR,Order SHOP-10442,3506,vat,1900\r\n";

const getStatementRoute = protectedRoute("orders:read", {
	method: "get",
	path: "/statements/{month}",
	tags: ["Statements"],
	summary: "A month's statement of the key's account and mode: balances, entries and totals (JSON or CSV)",
	description:
		"Months are UTC. `Accept: text/csv` gives the entries as RFC 4180 CSV with a header row (Accept is negotiated by its q values: `text/csv;q=0.1, application/json` gives JSON); a cell a spreadsheet would read as a formula starts with a single quote. A month before 2020-01 or after the current one is a 422 `statement_month_out_of_range`.",
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

/** What the statement can be answered as; JSON first: the answer to no Accept, to any type, or to anything else. */
const STATEMENT_TYPES = ["application/json", "text/csv"];

export const ledgerRoutes = createApp<AuthedEnv>().openapi(getStatementRoute, async (c) => {
	const { month } = c.req.valid("param");
	const read = await statementFor(databaseOf(c.env, c.var.principal.accountId), c.var.principal, month, new Date());
	const { statement } = okOrThrow(read);
	// Content negotiation by Accept's q values (RFC 9110 12.5.1): the highest q wins, a more specific range
	// at equal q, then the order written; q=0 refuses a type.
	const type = accepts(c, { header: "Accept", supports: STATEMENT_TYPES, default: "application/json" });
	if (type !== "text/csv") return c.json(statement, 200);
	const filename = `statement-${statement.month}-${c.var.principal.mode}.csv`;
	return c.body(statementCsv(statement), 200, {
		"Content-Type": "text/csv; charset=utf-8",
		"Content-Disposition": `attachment; filename="${filename}"`,
	});
});
