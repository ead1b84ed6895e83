import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { AccountIdParams } from "../accounts/schema.ts";
import { accountExists } from "../accounts/store.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf, directoryDatabase, everyDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { PriceBookBody, type PriceBookBodyInput, type PriceBookInput, PriceBookSchema } from "./book.ts";
import { SEED_BOOK } from "./seed-book.ts";
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
	.object({
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		discount_percent: z.number().int().openapi({ example: 10 }),
	})
	.openapi("AccountDiscount");

/** The seed book as the document shows it, with two of the catalog's frames. */
const PRICE_BOOK_EXAMPLE = {
	...SEED_BOOK,
	frames: { mills_per_foot: { "walnut-flat-075": 6800, "walnut-flat-125": 8200 } },
} satisfies PriceBookInput;
/** That book as the service answers it once published. */
const PUBLISHED_BOOK_EXAMPLE = { ...PRICE_BOOK_EXAMPLE, version: 1, published_at: "2026-11-22T10:00:00.000Z" };

const getPriceBook = protectedRoute(null, {
	method: "get",
	path: "/price-book",
	tags: ["Pricing"],
	summary: "The price book in force (or an earlier version): every rate, the mat tiers and the shipping tables",
	request: { query: VersionQuery },
	responses: {
		200: {
			description: "The price book.",
			content: { "application/json": { schema: PriceBookSchema, example: PUBLISHED_BOOK_EXAMPLE } },
		},
		...errorResponses(404, 422),
	},
});

const publish = protectedRoute("admin", {
	method: "post",
	path: "/admin/price-book",
	tags: ["Admin"],
	summary: "Publish a new version of the price book (the whole book); earlier versions are kept unchanged",
	description:
		"A book read with GET may be sent back whole, edited: its `version` and `published_at` are read-only and must be the book in force's (a book published since it was read is a 409), or be left out.",
	request: {
		body: {
			required: true,
			content: { "application/json": { schema: PriceBookBody, example: PRICE_BOOK_EXAMPLE } },
			description:
				"The example is the first book the service published, shortened to two frames: a book rates every catalog frame, paper and glazing.",
		},
	},
	responses: {
		201: {
			description: "The published book.",
			content: { "application/json": { schema: PriceBookSchema, example: { ...PUBLISHED_BOOK_EXAMPLE, version: 2 } } },
		},
		...errorResponses(400, 409, 422),
	},
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
		if (absent !== undefined)
			throw new ApiError("price_book_incomplete", `${field} has no rate for "${absent}".`, field);
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

/**
 * The version a body was read from, when it says: its read-only `version` and `published_at` must
 * be the book in force's. A book published since it was read is a 409 (publishing the edit would
 * undo that book's changes unseen); a date that is not the version's own is a 422 on it.
 */
async function versionReadFrom(db: D1Database, body: PriceBookBodyInput): Promise<number | null> {
	const { version, published_at: publishedAt } = body;
	if (version === undefined && publishedAt === undefined) return null;
	const current = await findPriceBook(db);
	if (current === null) throw new Error("no price book: have the migrations been applied?");
	const drop = "or leave version and published_at out to publish this body as it is";
	if (version !== undefined && version !== current.version) {
		throw new ApiError(
			"price_book_changed",
			`This book was read as version ${version}, but version ${current.version} (published ${current.published_at}) is in force now: read it again and make the change there, ${drop}.`,
			"version",
		);
	}
	if (publishedAt !== undefined && publishedAt !== current.published_at) {
		throw new ApiError(
			"read_only_field",
			`published_at is read-only: version ${current.version} was published ${current.published_at}; send that, ${drop}.`,
			"published_at",
		);
	}
	return current.version;
}

/** The conflict when another book was published between the check and the write. */
const publishedMeanwhile = () =>
	new ApiError(
		"price_book_changed",
		"Another book was published while this one was being checked: read the book in force again and make the change there.",
		"version",
	);

/** `GET /v1/price-book` (any valid key), and the admin's `POST /v1/admin/price-book` and `PUT /v1/admin/accounts/{id}/pricing`. */
export const pricingRoutes = createApp<AuthedEnv>()
	.openapi(getPriceBook, async (c) => {
		const { version } = c.req.valid("query");
		const book = await findPriceBook(directoryDatabase(c.env), version);
		if (book === null)
			throw new ApiError("price_book_not_found", `No price book version ${version ?? ""}.`.trim(), "version");
		return c.json(book, 200);
	})
	.openapi(publish, async (c) => {
		const body = c.req.valid("json");
		const { version: _version, published_at: _publishedAt, ...book } = body;
		const readFrom = await versionReadFrom(directoryDatabase(c.env), body);
		await checkCoversCatalog(directoryDatabase(c.env), book);
		const published = await publishPriceBook(directoryDatabase(c.env), book, new Date(), readFrom);
		if (published === null) throw publishedMeanwhile();
		// Orders are priced from the book in their account's database: each other one gets the same book.
		await Promise.all(
			everyDatabase(c.env)
				.filter((database) => database !== directoryDatabase(c.env))
				.map((database) => publishPriceBook(database, book, new Date(published.published_at), null)),
		);
		return c.json(published, 201);
	})
	.openapi(setDiscount, async (c) => {
		const { id } = c.req.valid("param");
		const { discount_percent: percent } = c.req.valid("json");
		if (!(await accountExists(directoryDatabase(c.env), id)))
			throw new ApiError("account_not_found", `No account ${id}.`, "id");
		await setDiscountPercent(databaseOf(c.env, id), id, percent, new Date());
		return c.json({ account_id: id, discount_percent: percent }, 200);
	});
