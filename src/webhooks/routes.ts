import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { generateWebhookSecret } from "../accounts/keys.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor, encodeCursor } from "../http/cursor.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { ORDER_EVENT_TYPES } from "../orders/state-machine.ts";
import { enqueueDelivery } from "./enqueue.ts";
import { rotateWebhookSecret } from "./secrets.ts";
import { startDelivery } from "./webhook-sender.do.ts";

const DELIVERY_STATUSES = ["pending", "delivered", "failed", "no_endpoint"] as const;

const DeliverySchema = z
	.object({
		status: z.enum(DELIVERY_STATUSES),
		url: z.string().nullable(),
		attempts: z.number().int(),
		last_attempt_at: z.string().nullable(),
		last_status_code: z.number().int().nullable(),
		last_error: z.string().nullable().openapi({ description: "A short excerpt; receivers' bodies are not stored." }),
		next_attempt_at: z.string().nullable(),
		delivered_at: z.string().nullable(),
	})
	.openapi("Delivery");

const EventSchema = z
	.object({
		id: z.string(),
		type: z.enum(ORDER_EVENT_TYPES),
		order_id: z.string(),
		created_at: z.string(),
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

type EventRow = {
	id: string;
	type: (typeof ORDER_EVENT_TYPES)[number];
	order_id: string;
	created_at: string;
	body: string;
	d_status: (typeof DELIVERY_STATUSES)[number] | null;
	url: string | null;
	attempts: number | null;
	last_attempt_at: string | null;
	last_status_code: number | null;
	last_error: string | null;
	next_attempt_at: string | null;
	delivered_at: string | null;
};

const EVENT_COLUMNS = `e.id, e.type, e.order_id, e.created_at, e.body, d.status AS d_status, d.url, d.attempts,
	d.last_attempt_at, d.last_status_code, d.last_error, d.next_attempt_at, d.delivered_at`;

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
					previous_secrets_expire_at: z.string(),
				})
				.openapi("RotatedSecret"),
			"The new secret, shown this once.",
		),
	},
});

async function ownedEvent(env: Env, owner: { accountId: string; mode: string }, id: string): Promise<EventRow | null> {
	return env.DB.prepare(
		`SELECT ${EVENT_COLUMNS} FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
		  WHERE e.id = ?1 AND e.account_id = ?2 AND e.mode = ?3`,
	)
		.bind(id, owner.accountId, owner.mode)
		.first<EventRow>();
}

/** The event log, redelivery and secret rotation. */
export const webhookRoutes = createApp<AuthedEnv>()
	.openapi(listEvents, async (c) => {
		const query = c.req.valid("query");
		const { accountId, mode } = c.var.principal;
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const { results } = await c.env.DB.prepare(
			`SELECT ${EVENT_COLUMNS} FROM events e LEFT JOIN deliveries d ON d.event_id = e.id
			  WHERE e.account_id = ?1 AND e.mode = ?2
			    AND (?3 IS NULL OR e.order_id = ?3)
			    AND (?4 IS NULL OR e.type = ?4)
			    AND (?5 IS NULL OR d.status = ?5)
			    AND (?6 IS NULL OR e.created_at < ?6 OR (e.created_at = ?6 AND e.id < ?7))
			  ORDER BY e.created_at DESC, e.id DESC
			  LIMIT ?8`,
		)
			.bind(
				accountId,
				mode,
				query.order_id ?? null,
				query.type ?? null,
				query.delivery_status ?? null,
				cursor?.createdAt ?? null,
				cursor?.id ?? null,
				query.limit + 1,
			)
			.all<EventRow>();
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
		const event = await ownedEvent(c.env, c.var.principal, id);
		if (event === null) throw new ApiError("not_found", `No event ${id}.`, "id");
		if (event.d_status === null || event.url === null) {
			throw new ApiError("conflict", `Event ${id} has no callback_url to be sent to.`);
		}
		const now = new Date().toISOString();
		await c.env.DB.prepare(
			"UPDATE deliveries SET status = 'pending', next_attempt_at = ?2, enqueued_at = ?2 WHERE event_id = ?1",
		)
			.bind(id, now)
			.run();
		try {
			await startDelivery(c.env, id, event.url);
		} catch {
			await enqueueDelivery(c.env, id, event.url);
		}
		const updated = await ownedEvent(c.env, c.var.principal, id);
		if (updated === null) throw new ApiError("not_found", `No event ${id}.`, "id");
		return c.json(toEvent(updated), 200);
	})
	.openapi(rotateSecret, async (c) => {
		const { accountId, mode } = c.var.principal;
		const secret = generateWebhookSecret();
		const { previousExpiresAt } = await rotateWebhookSecret(c.env.DB, accountId, mode, secret, new Date());
		return c.json({ webhook_secret: secret, mode, previous_secrets_expire_at: previousExpiresAt }, 201);
	});
