import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { createQuote } from "./create-quote.ts";
import { CreateQuoteBody, QuoteSchema } from "./schema.ts";
import { findOwnedQuote } from "./store.ts";

const QuoteIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "quo_4Zq8" }),
});

const createQuoteRoute = protectedRoute("orders:write", {
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

/** `POST /v1/quotes` and `GET /v1/quotes/{id}`: quotes belong to one account and mode, like orders. */
export const quoteRoutes = createApp<AuthedEnv>()
	.openapi(createQuoteRoute, async (c) => {
		const quoted = okOrThrow(await createQuote(c.env, c.var.principal, c.req.valid("json")));
		return c.json(quoted.quote, 201);
	})
	.openapi(getQuote, async (c) => {
		const { id } = c.req.valid("param");
		const quote = await findOwnedQuote(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (quote === null) throw new ApiError("quote_not_found", `No quote ${id}.`, "id");
		return c.json(quote, 200);
	});
