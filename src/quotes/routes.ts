import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { newId } from "../ids.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { findOwnedPrintFile, type PrintFileRow } from "../print-files/store.ts";
import { pieceFactsOf } from "./facts.ts";
import { priceQuote } from "./price-quote.ts";
import { CreateQuoteBody, type CreateQuoteInput, QuoteSchema } from "./schema.ts";
import { findOwnedQuote, insertQuote } from "./store.ts";

/** How long a quote can be ordered against. */
export const QUOTE_LIFETIME_MS = 48 * 3600_000;

const QuoteIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "quo_4Zq8" }),
});

const createQuote = protectedRoute("orders:write", {
	method: "post",
	path: "/quotes",
	tags: ["Quotes"],
	summary: "Price a cart: each item's framing, dimensions and unit price, the packages and every shipping option",
	request: { body: { required: true, content: { "application/json": { schema: CreateQuoteBody } } } },
	responses: { 201: jsonResponse(QuoteSchema, "The quote, valid 48 hours."), ...errorResponses(400, 422) },
});

const getQuote = protectedRoute("orders:read", {
	method: "get",
	path: "/quotes/{id}",
	tags: ["Quotes"],
	summary: "Read a quote as it was given",
	request: { params: QuoteIdParams },
	responses: { 200: jsonResponse(QuoteSchema, "The quote."), ...errorResponses(404) },
});

/** The request's print files in the caller's account and mode, as they stand now. */
async function filesOf(env: Env, owner: AuthedEnv["Variables"]["principal"], input: CreateQuoteInput) {
	const ids = [
		...new Set(input.items.flatMap((item) => (item.print_file_id === undefined ? [] : [item.print_file_id]))),
	];
	const found = await Promise.all(ids.map((id) => findOwnedPrintFile(databaseOf(env, owner.accountId), owner, id)));
	const current = await Promise.all(found.flatMap((file) => (file === null ? [] : [printFileNow(env, file)])));
	return new Map<string, PrintFileRow>(current.map((file) => [file.id, file]));
}

/** `POST /v1/quotes` and `GET /v1/quotes/{id}`: quotes belong to one account and mode, like orders. */
export const quoteRoutes = createApp<AuthedEnv>()
	.openapi(createQuote, async (c) => {
		const input = c.req.valid("json");
		const owner = c.var.principal;
		const [facts, files] = await Promise.all([
			pieceFactsOf(databaseOf(c.env, owner.accountId), owner.accountId),
			filesOf(c.env, owner, input),
		]);
		const outcome = priceQuote(input, { ...facts, files });
		if (!outcome.ok) throw new ApiError(outcome.code, `${outcome.field}: ${outcome.message}`, outcome.field);
		const now = new Date();
		const quote = {
			id: newId("quo"),
			created_at: now.toISOString(),
			expires_at: new Date(now.getTime() + QUOTE_LIFETIME_MS).toISOString(),
			...outcome.quote,
		};
		await insertQuote(databaseOf(c.env, owner.accountId), owner, quote);
		return c.json(quote, 201);
	})
	.openapi(getQuote, async (c) => {
		const { id } = c.req.valid("param");
		const quote = await findOwnedQuote(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (quote === null) throw new ApiError("quote_not_found", `No quote ${id}.`, "id");
		return c.json(quote, 200);
	});
