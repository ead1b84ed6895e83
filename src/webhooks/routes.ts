import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { generateWebhookSecret } from "../accounts/keys.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { dateTime } from "../http/date-time.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { DELIVERY_STATUSES, ORDER_EVENT_TYPES } from "./events.ts";
import { type EventRow, findOwnedEvent, listEventPage, resetForRedelivery, rotateWebhookSecret } from "./store.ts";
import { deliverSoon } from "./webhook-sender.do.ts";

const DeliverySchema = z
	.object({
		status: z.enum(DELIVERY_STATUSES),
		url: z.string().nullable(),
		attempts: z.number().int(),
		last_attempt_at: dateTime().nullable(),
		last_status_code: z.number().int().nullable(),
		last_error: z.string().nullable().openapi({ description: "A short excerpt; receivers' bodies are not stored." }),
		next_attempt_at: dateTime().nullable(),
		delivered_at: dateTime().nullable(),
	})
	.openapi("Delivery");

const EventSchema = z
	.object({
		id: z.string(),
		type: z.enum(ORDER_EVENT_TYPES),
		order_id: z.string(),
		created_at: dateTime(),
		body: z.record(z.string(), z.unknown()).openapi({ description: "The webhook body, as signed and sent." }),
		delivery: DeliverySchema.nullable().openapi({ description: "Null for events that are not sent (order.received)." }),
	})
	.openapi("Event");

const EventPageSchema = z
	.object({ data: z.array(EventSchema), next_cursor: z.string().nullable() })
	.openapi("EventPage");

const EventQuery = z.object({
	order_id: z.string().optional(),
	type: z.enum(ORDER_EVENT_TYPES).optional(),
	delivery_status: z.enum(DELIVERY_STATUSES).optional(),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(512).optional(),
});

function toEvent(row: EventRow): z.infer<typeof EventSchema> {
	return {
		id: row.id,
		type: row.type,
		order_id: row.order_id,
		created_at: row.created_at,
		body: JSON.parse(row.body) as Record<string, unknown>,
		delivery:
			row.d_status === null
				? null
				: {
						status: row.d_status,
						url: row.url,
						attempts: row.attempts ?? 0,
						last_attempt_at: row.last_attempt_at,
						last_status_code: row.last_status_code,
						last_error: row.last_error,
						next_attempt_at: row.next_attempt_at,
						delivered_at: row.delivered_at,
					},
	};
}

const listEvents = protectedRoute("events:read", {
	method: "get",
	path: "/events",
	tags: ["Events"],
	summary: "List events, newest first, with their delivery state",
	request: { query: EventQuery },
	responses: { 200: jsonResponse(EventPageSchema, "A page of events."), ...errorResponses(422) },
});

const EventIdParams = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "evt_4Zq" }) });

const redeliver = protectedRoute("events:read", {
	method: "post",
	path: "/events/{id}/redeliver",
	tags: ["Events"],
	summary: "Send an event again (also after it failed)",
	request: { params: EventIdParams },
	responses: { 200: jsonResponse(EventSchema, "The event, its delivery pending again."), ...errorResponses(404, 409) },
});

const rotateSecret = protectedRoute("orders:write", {
	method: "post",
	path: "/webhook-secret/rotate",
	tags: ["Events"],
	summary:
		"Issue a new webhook secret for the key's mode (live or test); the old one keeps signing, as the second v1=, for 24 hours",
	responses: {
		201: jsonResponse(
			z
				.object({
					webhook_secret: z.string(),
					mode: z
						.enum(["live", "test"])
						.openapi({ description: "The mode whose webhooks the secret signs: the key's." }),
					previous_secrets_expire_at: dateTime(),
				})
				.openapi("RotatedSecret"),
			"The new secret, shown this once.",
		),
	},
});

/** The event log, redelivery and secret rotation. */
export const webhookRoutes = createApp<AuthedEnv>()
	.openapi(listEvents, async (c) => {
		const query = c.req.valid("query");
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const results = await listEventPage(c.env.DB, c.var.principal, {
			orderId: query.order_id,
			type: query.type,
			deliveryStatus: query.delivery_status,
			cursor,
			limit: query.limit,
		});
		const page = results.slice(0, query.limit);
		const last = page.at(-1);
		return c.json(
			{
				data: page.map(toEvent),
				next_cursor:
					results.length > query.limit && last !== undefined
						? encodeCursor({ createdAt: last.created_at, id: last.id })
						: null,
			},
			200,
		);
	})
	.openapi(redeliver, async (c) => {
		const { id } = c.req.valid("param");
		const event = await findOwnedEvent(c.env.DB, c.var.principal, id);
		if (event === null) throw new ApiError("not_found", `No event ${id}.`, "id");
		if (event.d_status === null || event.url === null) {
			throw new ApiError("conflict", `Event ${id} has no callback_url to be sent to.`);
		}
		await resetForRedelivery(c.env.DB, id, new Date());
		await deliverSoon(c.env, id, event.url);
		const updated = await findOwnedEvent(c.env.DB, c.var.principal, id);
		if (updated === null) throw new ApiError("not_found", `No event ${id}.`, "id");
		return c.json(toEvent(updated), 200);
	})
	.openapi(rotateSecret, async (c) => {
		const { accountId, mode } = c.var.principal;
		const secret = generateWebhookSecret();
		const { previousExpiresAt } = await rotateWebhookSecret(c.env.DB, accountId, mode, secret, new Date());
		return c.json({ webhook_secret: secret, mode, previous_secrets_expire_at: previousExpiresAt }, 201);
	});
