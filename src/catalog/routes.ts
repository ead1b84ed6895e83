import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ifNoneMatchHits } from "../http/etag.ts";
import { isolateCatalog } from "./cache.ts";
import { CatalogSchema } from "./schema.ts";

/** Partners fetch the catalog once and cache it: an hour's freshness, then a cheap revalidation (ETag). */
const CACHE_CONTROL = "private, max-age=3600";

const getCatalog = protectedRoute(null, {
	method: "get",
	path: "/catalog",
	tags: ["Catalog"],
	summary: "Read the catalog of frames, mats and sizes",
	request: {},
	responses: {
		200: {
			description: "The catalog, with a strong ETag.",
			content: { "application/json": { schema: CatalogSchema } },
		},
		304: { description: "The catalog has not changed since the ETag in `If-None-Match`." },
	},
});

/** `GET /v1/catalog`. */
export const catalogRoutes = createApp<AuthedEnv>().openapi(getCatalog, async (c) => {
	const { body, etag } = await isolateCatalog.get(directoryDatabase(c.env));
	c.header("ETag", etag);
	c.header("Cache-Control", CACHE_CONTROL);
	if (ifNoneMatchHits(c.req.header("If-None-Match"), etag)) return c.body(null, 304);
	return c.body(body, 200, { "Content-Type": "application/json; charset=UTF-8" });
});
