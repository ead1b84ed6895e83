import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { AccountIdParams } from "../accounts/schema.ts";
import { accountExists } from "../accounts/store.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { PriceBookBody, type PriceBookInput, PriceBookSchema } from "./book.ts";
import { findPriceBook, publishPriceBook, setDiscountPercent } from "./store.ts";

const VersionQuery = z.object({
	version: z.coerce
		.number()
		.int()
		.min(1)
		.optional()
		.openapi({
			param: { name: "version", in: "query" },
			description: "An earlier version; the one in force by default.",
		}),
});

const DiscountBody = z
	.strictObject({ discount_percent: z.number().int().min(0).max(50).openapi({ example: 10 }) })
	.openapi("DiscountBody");
const DiscountSchema = z
	.object({ account_id: z.string(), discount_percent: z.number().int() })
	.openapi("AccountDiscount");

const getPriceBook = protectedRoute(null, {
	method: "get",
	path: "/price-book",
	tags: ["Pricing"],
	summary: "The price book in force (or an earlier version): every rate, the mat tiers and the shipping tables",
	request: { query: VersionQuery },
	responses: { 200: jsonResponse(PriceBookSchema, "The price book."), ...errorResponses(404, 422) },
});

const publish = protectedRoute("admin", {
	method: "post",
	path: "/admin/price-book",
	tags: ["Admin"],
	summary: "Publish a new version of the price book (the whole book); earlier versions are kept unchanged",
	request: { body: { required: true, content: { "application/json": { schema: PriceBookBody } } } },
	responses: { 201: jsonResponse(PriceBookSchema, "The published book."), ...errorResponses(400, 422) },
});

const setDiscount = protectedRoute("admin", {
	method: "put",
	path: "/admin/accounts/{id}/pricing",
	tags: ["Admin"],
	summary: "Set an account's discount on unit prices (0 to 50 percent)",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: DiscountBody } } },
	},
	responses: { 200: jsonResponse(DiscountSchema, "The account's discount."), ...errorResponses(400, 404, 422) },
});

/** 422s for a book that would leave a catalog item unpriced: every frame, paper and glazing needs its rate. */
async function checkCoversCatalog(db: D1Database, book: PriceBookInput): Promise<void> {
	const { catalog } = await isolateCatalog.get(db);
	const missing = (field: string, slugs: string[], rates: Record<string, number>) => {
		const absent = slugs.find((slug) => rates[slug] === undefined);
		if (absent !== undefined) throw new ApiError("validation_error", `${field} has no rate for "${absent}".`, field);
	};
	missing(
		"frames.mills_per_foot",
		catalog.frames.map((frame) => frame.slug),
		book.frames.mills_per_foot,
	);
	missing(
		"print.paper_mills_per_sq_in",
		catalog.papers.map((paper) => paper.slug),
		book.print.paper_mills_per_sq_in,
	);
	missing(
		"glazing.mills_per_sq_in",
		catalog.glazings.map((glazing) => glazing.slug),
		book.glazing.mills_per_sq_in,
	);
}

/** `GET /v1/price-book` (any valid key), and the admin's `POST /v1/admin/price-book` and `PUT /v1/admin/accounts/{id}/pricing`. */
export const pricingRoutes = createApp<AuthedEnv>()
	.openapi(getPriceBook, async (c) => {
		const { version } = c.req.valid("query");
		const book = await findPriceBook(c.env.DB, version);
		if (book === null) throw new ApiError("not_found", `No price book version ${version ?? ""}.`.trim(), "version");
		return c.json(book, 200);
	})
	.openapi(publish, async (c) => {
		const body = c.req.valid("json");
		await checkCoversCatalog(c.env.DB, body);
		return c.json(await publishPriceBook(c.env.DB, body, new Date()), 201);
	})
	.openapi(setDiscount, async (c) => {
		const { id } = c.req.valid("param");
		const { discount_percent: percent } = c.req.valid("json");
		if (!(await accountExists(c.env.DB, id))) throw new ApiError("not_found", `No account ${id}.`, "id");
		await setDiscountPercent(c.env.DB, id, percent, new Date());
		return c.json({ account_id: id, discount_percent: percent }, 200);
	});
