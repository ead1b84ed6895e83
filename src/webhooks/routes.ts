import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { CURSOR_EXAMPLE, decodeCursor, encodeCursor } from "../http/cursor.ts";
import { dateTime } from "../http/date-time.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { DELIVERY_STATUSES } from "./delivery-store.ts";
import { eventPosition, listEventPage, listEventsAfter } from "./event-store.ts";
import type { EventTypes } from "./event-types.ts";
import { eventSchema, toEvent } from "./event-view.ts";
import { eventNotFoundMessage, redeliverEvent } from "./redeliver-event.ts";
import { rotateToNewSecret } from "./secret-store.ts";

const EventIdParams = z.object({ id: z.string().openapi({ param: { name: "id", in: "path" }, example: "evt_4Zq" }) });

/** The event log's routes: an event's `type` (and the list's filter on it) is one of the `listed` names. */
function eventLogRoutes(types: EventTypes) {
	const EventSchema = eventSchema(types);
	const EventPageSchema = z
		.object({ data: z.array(EventSchema), next_cursor: z.string().nullable().openapi({ example: CURSOR_EXAMPLE }) })
		.openapi("EventPage");

	const EventQuery = z.object({
		order_id: z.string().optional(),
		type: z.enum(types.listed).optional(),
		delivery_status: z.enum(DELIVERY_STATUSES).optional(),
		limit: z.coerce.number().int().min(1).max(100).default(20),
		cursor: z.string().max(512).optional(),
		after: z.string().min(1).max(64).optional().openapi({
			description:
				"Read the log forward: the events strictly after this event id, OLDEST first (`start`: from the oldest event kept). To read on, pass the last event's `id` of the page as `after`; a page shorter than `limit` is the end of the log for now (`next_cursor` is null). Events of the last 2 seconds are not read yet, so an event committed a moment after a newer one is never skipped. Takes `type`, `order_id` and `limit`, not `cursor` or `delivery_status`.",
			example: "evt_9Lq3",
		}),
	});

	const listEvents = protectedRoute("events:read", {
		method: "get",
		path: "/events",
		tags: ["Events"],
		summary: "List events, newest first, with their delivery state (or oldest first after an event, to follow the log)",
		description:
			"With `after`, the page is the events after that one, oldest first: how `framed-print listen` follows the log. Events are kept for the retention window, 90 days: a UTC day's events leave the log together, with their deliveries, once the whole day is older than that (so an event is kept 90 to 91 days; the service archives them). An event that has left is not listed, a page ends before it, and `POST /v1/events/{id}/redeliver` answers 404 `event_not_found` for it. An event whose delivery is still pending or retrying stays until it is finished.",
		request: { query: EventQuery },
		responses: { 200: jsonResponse(EventPageSchema, "A page of events."), ...errorResponses(404, 422) },
	});

	const redeliver = protectedRoute("events:read", {
		method: "post",
		path: "/events/{id}/redeliver",
		tags: ["Events"],
		summary:
			"Send an event again (also after it failed), to its callback_url and to each endpoint it went to that still exists",
		description:
			"An event older than the retention window (90 days) has been archived and answers 404 `event_not_found`, with a message that says so.",
		request: { params: EventIdParams },
		responses: {
			200: jsonResponse(EventSchema, "The event, its deliveries pending again."),
			...errorResponses(404, 409),
		},
	});
	return { listEvents, redeliver };
}

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

/** How long an event is left to settle before a forward read (`after`) returns it: see `listEventsAfter`. */
const FORWARD_READ_SETTLE_MS = 2000;

/**
 * The event log, redelivery and secret rotation. `types` are the names of the events the service
 * records, from the capabilities that own them (the app gathers them).
 */
export function webhookRoutes(types: EventTypes) {
	const { listEvents, redeliver } = eventLogRoutes(types);
	return createApp<AuthedEnv>()
		.openapi(listEvents, async (c) => {
			const query = c.req.valid("query");
			if (query.after !== undefined) {
				const refused =
					query.cursor !== undefined ? "cursor" : query.delivery_status !== undefined ? "delivery_status" : null;
				if (refused !== null) {
					throw new ApiError(
						"after_not_combinable",
						`after reads the log forward and cannot be combined with ${refused}: drop ${refused}, or drop after to page back with cursor.`,
						refused,
					);
				}
				const db = databaseOf(c.env, c.var.principal.accountId);
				const after = query.after === "start" ? null : await eventPosition(db, c.var.principal, query.after);
				if (after === null && query.after !== "start") {
					throw new ApiError(
						"event_not_found",
						`${eventNotFoundMessage(c.env, query.after)} Read again from after=start.`,
						"after",
					);
				}
				const events = await listEventsAfter(db, c.var.principal, {
					after,
					settledBefore: new Date(Date.now() - FORWARD_READ_SETTLE_MS),
					orderId: query.order_id,
					type: query.type,
					limit: query.limit,
				});
				return c.json({ data: events.map(toEvent), next_cursor: null }, 200);
			}
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
			const redelivered = okOrThrow(await redeliverEvent(c.env, c.var.principal, id, new Date()));
			return c.json(toEvent(redelivered.event), 200);
		})
		.openapi(rotateSecret, async (c) => {
			const { mode } = c.var.principal;
			const { secret, previousExpiresAt } = await rotateToNewSecret(
				directoryDatabase(c.env),
				c.var.principal,
				new Date(),
			);
			return c.json({ webhook_secret: secret, mode, previous_secrets_expire_at: previousExpiresAt }, 201);
		});
}
