/** The operators' archive run (scope `admin`): one bounded batch per database, its counts answered. */
import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses } from "../http/errors.ts";
import { archiveFinishedOrders, ORDER_ARCHIVE_BATCH } from "./run.ts";

const ArchiveRunBody = z
	.object({
		days: z
			.number()
			.int()
			.min(1)
			.max(3650)
			.optional()
			.openapi({ description: "Archive orders finished this many days ago or more (default ORDER_ARCHIVE_DAYS)." }),
		limit: z
			.number()
			.int()
			.min(1)
			.max(ORDER_ARCHIVE_BATCH)
			.optional()
			.openapi({ description: `The most orders archived per database (default ${ORDER_ARCHIVE_BATCH}).` }),
	})
	.strict()
	.openapi("OrderArchiveRunBody");

const ArchiveRunCountsSchema = z
	.object({
		archived: z
			.number()
			.int()
			.openapi({ description: "Orders moved to their records in R2 by this run.", example: 100 }),
		skipped: z
			.number()
			.int()
			.openapi({ description: "Candidates left in D1: changed meanwhile, or a claim or delivery came.", example: 0 }),
	})
	.openapi("OrderArchiveRunCounts");

const runArchive = protectedRoute("admin", {
	method: "post",
	path: "/admin/order-archive/run",
	tags: ["Admin"],
	summary: "Archive a batch of finished orders to R2",
	description:
		"Moves delivered or canceled orders older than the age (items, shipments, history) to immutable records in R2, a bounded batch per database; they read back the same. Call again until `archived` is 0.",
	request: { body: { required: false, content: { "application/json": { schema: ArchiveRunBody } } } },
	responses: { 200: jsonResponse(ArchiveRunCountsSchema, "What this run did."), ...errorResponses(400, 422) },
});

/** `POST /v1/admin/order-archive/run`. */
export const orderArchiveRoutes = createApp<AuthedEnv>().openapi(runArchive, async (c) => {
	const body = c.req.header("content-type")?.includes("application/json") ? c.req.valid("json") : {};
	return c.json(await archiveFinishedOrders(c.env, new Date(), body), 200);
});
