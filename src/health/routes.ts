import { createRoute, z } from "@hono/zod-openapi";
import { directoryDatabase } from "../databases.ts";
import type { PublicEnv } from "../http/app-env.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { log } from "../log.ts";

const HealthSchema = z
	.object({
		status: z.literal("ok"),
		database: z.literal("ok"),
		time: z.string().openapi({ description: "The service's clock.", example: "2026-11-22T10:00:00.000Z" }),
	})
	.openapi("Health");

const getHealth = createRoute({
	method: "get",
	path: "/health",
	tags: ["Service"],
	summary: "Liveness: the Worker runs and D1 answers",
	responses: {
		200: { description: "Healthy.", content: { "application/json": { schema: HealthSchema } } },
		...errorResponses(500),
	},
});

/** `GET /v1/health` (public): 200 when D1 answers a query, else 500 `server_error`. */
export const healthRoutes = createApp<PublicEnv>().openapi(getHealth, async (c) => {
	try {
		await directoryDatabase(c.env).prepare("SELECT 1").first();
	} catch (error) {
		log.error("health.database_unreachable", {
			request_id: c.var.requestId,
			check: "database",
			message: String(error),
		});
		throw new ApiError("database_unavailable", "The database is not answering.");
	}
	return c.json({ status: "ok" as const, database: "ok" as const, time: new Date().toISOString() }, 200);
});
