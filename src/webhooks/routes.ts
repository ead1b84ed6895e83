import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { generateWebhookSecret } from "../accounts/keys.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { CURSOR_EXAMPLE, decodeCursor, encodeCursor } from "../http/cursor.ts";
import { dateTime } from "../http/date-time.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { resetForRedelivery } from "./delivery-store.ts";
import { type EventRow, findOwnedEvent, listEventPage } from "./event-store.ts";
import { DELIVERY_STATUSES, EVENT_TYPES } from "./events.ts";
import { rotateWebhookSecret } from "./secret-store.ts";
import { deliverSoon } from "./webhook-sender.do.ts";

const deliveryFields = {
	id: z.string().openapi({ description: "The delivery's id (`dlv_…`).", example: "dlv_7Hq2" }),
	status: z.enum(DELIVERY_STATUSES),
	attempts: z.number().int().openapi({ example: 1 }),
	last_attempt_at: dateTime().nullable(),
	last_status_code: z.number().int().nullable().openapi({ example: 200 }),
	last_error: z
		.string()
		.nullable()
		.openapi({ description: "A short excerpt; receivers' bodies are not stored.", example: "HTTP 503: upstream busy" }),
	next_attempt_at: dateTime().nullable(),
	delivered_at: dateTime().nullable(),
};

const EndpointDeliverySchema = z
	.object({
		...deliveryFields,
		endpoint_id: z.string().openapi({ description: "The webhook endpoint it goes to.", example: "whe_3Lk9" }),
		url: z
			.string()
			.openapi({ description: "The endpoint's URL when the event happened.", example: "https://example.com/hooks" }),
	})
	.openapi("EndpointDelivery");

const DeliverySchema = z
	.object({ ...deliveryFields, url: z.string().nullable().openapi({ example: "https://example.com/hooks" }) })
	.openapi("Delivery");

const EventSchema = z
	.object({
		id: z.string().openapi({ example: "evt_9Lq3" }),
		type: z.enum(EVENT_TYPES).openapi({ example: "order.shipped" }),
		order_id: z.string().openapi({ example: "ord_3kq9" }),
		created_at: dateTime(),
		// `additionalProperties: true`, not zod's `{}`: an empty schema has no type, and Scalar's reader refuses it.
		body: z.record(z.string(), z.unknown()).openapi({
			description: "The webhook body, as signed and sent (each event's body is under Webhooks).",
			additionalProperties: true,
			example: {
				id: "evt_9Lq3",
				event: "order.shipped",
				created_at: "2026-11-22T10:00:00.000Z",
				order_id: "ord_3kq9",
				external_id: "PO-1001",
				status: "shipped",
				version: 4,
				tracking: {
					carrier: "UPS",
					number: "1Z999AA10123456784",
					url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
				},
				shipped_at: "2026-11-22T10:00:00.000Z",
			},
		}),
		delivery: DeliverySchema.nullable().openapi({
			description: "The delivery to the order's callback_url; null for events that are not sent (order.received).",
		}),
		endpoint_deliveries: z.array(EndpointDeliverySchema).openapi({
			description:
				"One delivery per webhook endpoint of the account's mode that subscribed to the event's type when it happened, each with its own attempts and retries.",
		}),
	})
	.openapi("Event");

const EventPageSchema = z
	.object({ data: z.array(EventSchema), next_cursor: z.string().nullable().openapi({ example: CURSOR_EXAMPLE }) })
	.openapi("EventPage");

const EventQuery = z.object({
	order_id: z.string().optional(),
	type: z.enum(EVENT_TYPES).optional(),
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
		body: row.body,
		delivery:
			row.d_status === null || row.d_id === null
				? null
				: {
						id: row.d_id,
						status: row.d_status,
						url: row.url,
						attempts: row.attempts ?? 0,
						last_attempt_at: row.last_attempt_at,
						last_status_code: row.last_status_code,
						last_error: row.last_error,
						next_attempt_at: row.next_attempt_at,
						delivered_at: row.delivered_at,
					},
		endpoint_deliveries: [...row.endpoint_deliveries].sort((a, b) => (a.endpoint_id < b.endpoint_id ? -1 : 1)),
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
	summary:
		"Send an event again (also after it failed), to its callback_url and to each endpoint it went to that still exists",
	request: { params: EventIdParams },
	responses: {
		200: jsonResponse(EventSchema, "The event, its deliveries pending again."),
		...errorResponses(404, 409),
	},
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
					webhook_secret: z.string().openapi({ example: "whsec_Xr5KpW9mT2vN7cQ4yL8bH1sF6dJ3gA0e" }),
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
		const results = await listEventPage(databaseOf(c.env, c.var.principal.accountId), c.var.principal, {
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
		const event = await findOwnedEvent(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (event === null) throw new ApiError("event_not_found", `No event ${id}.`, "id");
		if (event.d_status === null) throw new ApiError("event_never_sent", `Event ${id} is recorded, never sent.`);
		const deliveries = await resetForRedelivery(databaseOf(c.env, c.var.principal.accountId), id, new Date());
		if (deliveries.length === 0) {
			throw new ApiError(
				"event_has_no_destination",
				`Event ${id} has no callback_url or webhook endpoint to be sent to.`,
			);
		}
		await deliverSoon(c.env, deliveries);
		const updated = await findOwnedEvent(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
		if (updated === null) throw new ApiError("event_not_found", `No event ${id}.`, "id");
		return c.json(toEvent(updated), 200);
	})
	.openapi(rotateSecret, async (c) => {
		const { accountId, mode } = c.var.principal;
		const secret = generateWebhookSecret();
		const { previousExpiresAt } = await rotateWebhookSecret(
			directoryDatabase(c.env),
			accountId,
			mode,
			secret,
			new Date(),
		);
		return c.json({ webhook_secret: secret, mode, previous_secrets_expire_at: previousExpiresAt }, 201);
	});
