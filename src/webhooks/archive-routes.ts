import { z } from "@hono/zod-openapi";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { readArchiveDay } from "./archive.ts";

/** A line of an archive object, as the document shows it. */
const LINE_EXAMPLE = JSON.stringify({
	account_id: "acct_4fQ9v2",
	mode: "live",
	id: "evt_9Lq3",
	type: "order.delivered",
	order_id: "ord_3kq9",
	created_at: "2026-08-20T15:04:05.000Z",
	body: {
		id: "evt_9Lq3",
		event: "order.delivered",
		created_at: "2026-08-20T15:04:05.000Z",
		order_id: "ord_3kq9",
		external_id: "PO-1001",
		status: "delivered",
		version: 6,
		delivered_at: "2026-08-20T15:04:05.000Z",
	},
	delivery: {
		id: "dlv_7Hq2",
		status: "delivered",
		url: "https://example.com/hooks",
		attempts: 1,
		last_attempt_at: "2026-08-20T15:04:06.000Z",
		last_status_code: 200,
		last_error: null,
		next_attempt_at: null,
		delivered_at: "2026-08-20T15:04:06.000Z",
	},
	endpoint_deliveries: [],
});

/** A real calendar day, `YYYY-MM-DD`. */
const Day = z
	.string()
	.regex(/^\d{4}-\d{2}-\d{2}$/, "must be a day as YYYY-MM-DD")
	.refine((day) => {
		// An impossible date (2026-02-30) parses as an invalid Date, or one rolled into the next month.
		const parsed = new Date(`${day}T00:00:00.000Z`);
		return !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(day);
	}, "must be a real calendar day");

const ArchiveParams = z.object({
	id: z
		.string()
		.regex(/^acct_[0-9A-Za-z]{1,64}$/, "must be an account id (acct_…)")
		.openapi({ param: { name: "id", in: "path" }, example: "acct_4fQ9v2" }),
	mode: z.enum(["live", "test"]).openapi({ param: { name: "mode", in: "path" }, example: "live" }),
	day: Day.openapi({ param: { name: "day", in: "path" }, example: "2026-08-20" }),
});

const readArchive = protectedRoute("admin", {
	method: "get",
	path: "/admin/accounts/{id}/events-archive/{mode}/{day}",
	tags: ["Admin"],
	summary: "An account's events of one UTC day that left the event log for the archive (NDJSON)",
	description:
		"Events older than the retention window leave D1 with their deliveries, written first to R2 per account, mode and UTC day. A busy day is stored in several parts, each at most a few megabytes. This returns the whole day, its parts one after the other in the order they were written (each part oldest first), streamed: one event per line, each as `GET /v1/events` showed it plus its `account_id` and `mode`, each event once. A day with nothing archived is a 404 `events_archive_not_found`.",
	request: { params: ArchiveParams },
	responses: {
		200: {
			description: "The day's archived events, one JSON object per line.",
			content: { "application/x-ndjson": { schema: z.string().openapi({ example: `${LINE_EXAMPLE}\n` }) } },
		},
		...errorResponses(404, 422),
	},
});

const { middleware: _servedOnly, ...described } = readArchive;

/**
 * The service team's read of an archived day of events. Served under a binary media type, which the
 * router types as a plain body, and documented as NDJSON (a type it cannot type).
 */
export const eventArchiveRoutes = createApp<AuthedEnv>().openapi(
	{
		...readArchive,
		hide: true,
		responses: {
			200: {
				description: "The day's archived events.",
				content: { "application/octet-stream": { schema: z.string() } },
			},
			...errorResponses(404, 422),
		},
	},
	async (c) => {
		const { id, mode, day } = c.req.valid("param");
		const archived = await readArchiveDay(c.env, { accountId: id, mode }, day);
		if (archived === null) {
			throw new ApiError("events_archive_not_found", `No events of ${id} (${mode}) were archived for ${day}.`);
		}
		return c.body(archived, 200, { "Content-Type": "application/x-ndjson; charset=utf-8" });
	},
);
eventArchiveRoutes.openAPIRegistry.registerPath(described);
