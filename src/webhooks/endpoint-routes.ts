import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { dateTime } from "../http/date-time.ts";
import { ApiError, errorResponses, refusalError } from "../http/errors.ts";
import { absoluteUrl, singleLineText } from "../text-rules.ts";
import { sendPing } from "./deliver.ts";
import {
	deleteEndpoint,
	type EndpointRow,
	findEndpoint,
	listEndpoints,
	MAX_ENDPOINTS_PER_MODE,
	setEndpointPaused,
	subscribedTypes,
} from "./endpoints.ts";
import type { EventTypes } from "./event-types.ts";
import { registerEndpoint } from "./register-endpoint.ts";

const EndpointIdParams = z.object({
	// No length rule: an id of any length that is not the account's is simply not found (404).
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "whe_3Lk9" }),
});

/** An endpoint as the API shows it, its event types in the order `sent` lists them. */
function endpointView(row: EndpointRow, sent: readonly string[]) {
	return {
		id: row.id,
		url: row.url,
		events: subscribedTypes(row, sent),
		description: row.description,
		mode: row.mode,
		created_at: row.created_at,
		paused_at: row.paused_at,
	};
}

function notFound(id: string): ApiError {
	return new ApiError("webhook_endpoint_not_found", `No webhook endpoint ${id}.`, "id");
}

/** The endpoint's schemas: an endpoint subscribes to some of the `sent` event types. */
function endpointSchemas(sent: readonly string[]) {
	const EndpointSchema = z
		.object({
			id: z.string().openapi({ example: "whe_3Lk9" }),
			url: z.string().openapi({
				description: "The URL as registered, normalised (see WebhookEndpointInput's url).",
				example: "https://example.com/hooks",
			}),
			events: z.array(z.enum(sent)).openapi({ example: ["order.shipped", "order.delivered"] }),
			description: z.string().nullable().openapi({ example: "Shop fulfilment service" }),
			mode: z.enum(["live", "test"]).openapi({ description: "The mode whose events it receives: the key's." }),
			created_at: dateTime(),
			paused_at: dateTime().nullable().openapi({
				description:
					"When the endpoint was paused; null while it receives events. Events recorded while it is paused are never sent to it, and a redelivery leaves it out.",
			}),
		})
		.openapi("WebhookEndpoint");

	const EndpointInput = z
		.object({
			url: absoluteUrl().openapi({
				description:
					"Where the events are POSTed: the rules of an order's callback_url (https, a public host). It is kept normalised, as the URL parser writes it: scheme and host in lower case, dot segments resolved, a numeric IPv4 host as a dotted quad, the default port left out, and without an empty query (`?`) or a fragment (`#…`, which never reaches the receiver). Two spellings of one URL are one endpoint: the second is a 409.",
				example: "https://example.com/hooks",
			}),
			events: z
				.array(z.enum(sent))
				.min(1, "must name at least 1 event type")
				.max(sent.length * 2, `must hold at most ${sent.length * 2} entries`)
				.optional()
				.openapi({
					description: "The event types it receives (repeats count once). Default: every event type that is sent.",
					example: ["order.shipped", "order.delivered"],
				}),
			description: singleLineText(200)
				.optional()
				.openapi({ description: "A note for the partner's own people.", example: "Shop fulfilment service" }),
		})
		.strict()
		.openapi("WebhookEndpointInput");
	return { EndpointSchema, EndpointInput };
}

/** The routes whose bodies name event types: register, list and read. */
function subscriptionRoutes(types: EventTypes) {
	const { EndpointSchema, EndpointInput } = endpointSchemas(types.sent);
	const createEndpoint = protectedRoute("orders:write", {
		method: "post",
		path: "/webhook-endpoints",
		tags: ["Webhook endpoints"],
		summary: `Register an endpoint for the key's mode that receives the chosen events of every order (at most ${MAX_ENDPOINTS_PER_MODE} per mode)`,
		request: { body: { required: true, content: { "application/json": { schema: EndpointInput } } } },
		responses: {
			201: jsonResponse(EndpointSchema, "The endpoint; it receives events that happen from now on."),
			...errorResponses(400, 409, 422),
		},
	});

	const listEndpointsRoute = protectedRoute("events:read", {
		method: "get",
		path: "/webhook-endpoints",
		tags: ["Webhook endpoints"],
		summary: "List the endpoints of the key's mode, oldest first",
		responses: {
			200: jsonResponse(
				z.object({ data: z.array(EndpointSchema) }).openapi("WebhookEndpointList"),
				`Every endpoint (at most ${MAX_ENDPOINTS_PER_MODE}).`,
			),
		},
	});

	const getEndpoint = protectedRoute("events:read", {
		method: "get",
		path: "/webhook-endpoints/{id}",
		tags: ["Webhook endpoints"],
		summary: "Read one endpoint",
		request: { params: EndpointIdParams },
		responses: { 200: jsonResponse(EndpointSchema, "The endpoint."), ...errorResponses(404) },
	});
	/** Pausing and resuming: the same answer, the endpoint as it is now. */
	const pauseRoute = (action: "pause" | "resume") =>
		protectedRoute("orders:write", {
			method: "post",
			path: `/webhook-endpoints/{id}/${action}`,
			tags: ["Webhook endpoints"],
			summary:
				action === "pause"
					? "Pause an endpoint: events recorded from now on are not sent to it, until it is resumed"
					: "Resume a paused endpoint: events recorded from now on are sent to it again",
			request: { params: EndpointIdParams },
			responses: { 200: jsonResponse(EndpointSchema, "The endpoint."), ...errorResponses(404) },
		});
	return {
		createEndpoint,
		listEndpointsRoute,
		getEndpoint,
		pauseEndpoint: pauseRoute("pause"),
		resumeEndpoint: pauseRoute("resume"),
	};
}

const removeEndpoint = protectedRoute("orders:write", {
	method: "delete",
	path: "/webhook-endpoints/{id}",
	tags: ["Webhook endpoints"],
	summary: "Delete an endpoint: nothing more is sent to it, and its pending deliveries end as failed",
	request: { params: EndpointIdParams },
	responses: { 204: { description: "Deleted." }, ...errorResponses(404) },
});

const pingEndpoint = protectedRoute("orders:write", {
	method: "post",
	path: "/webhook-endpoints/{id}/test",
	tags: ["Webhook endpoints"],
	summary:
		"Send the endpoint a signed `ping` now and answer what it replied: one attempt, no retries, nothing in the event log",
	request: { params: EndpointIdParams },
	responses: {
		200: jsonResponse(
			z
				.object({
					id: z.string().openapi({ description: "The ping's id, also its `webhook-id`.", example: "ping_8Rt2" }),
					delivered: z.boolean().openapi({ description: "Whether the endpoint answered with a 2xx.", example: true }),
					status_code: z
						.number()
						.int()
						.nullable()
						.openapi({ description: "Its answer's status; null without one.", example: 200 }),
					error: z
						.string()
						.nullable()
						.openapi({ description: "Why it is not delivered; null when it is.", example: null }),
				})
				.openapi("WebhookPingResult"),
			"What the endpoint answered (a refusal is still a 200: the test ran).",
		),
		...errorResponses(404),
	},
});

/**
 * The account's webhook endpoints: register, list, read, pause, resume, delete and ping. `types` are the names of the
 * events the service records, from the capabilities that own them (the app gathers them).
 */
export function webhookEndpointRoutes(types: EventTypes) {
	const { createEndpoint, listEndpointsRoute, getEndpoint, pauseEndpoint, resumeEndpoint } = subscriptionRoutes(types);
	const toEndpoint = (row: EndpointRow) => endpointView(row, types.sent);
	return createApp<AuthedEnv>()
		.openapi(createEndpoint, async (c) => {
			const input = c.req.valid("json");
			const added = await registerEndpoint(
				c.env,
				c.var.principal,
				{ url: input.url, events: input.events ?? types.sent, description: input.description ?? null },
				types.sent,
				new Date(),
			);
			if (!added.ok) throw refusalError(added);
			return c.json(toEndpoint(added.endpoint), 201);
		})
		.openapi(listEndpointsRoute, async (c) => {
			const rows = await listEndpoints(databaseOf(c.env, c.var.principal.accountId), c.var.principal);
			return c.json({ data: rows.map(toEndpoint) }, 200);
		})
		.openapi(getEndpoint, async (c) => {
			const { id } = c.req.valid("param");
			const row = await findEndpoint(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
			if (row === null) throw notFound(id);
			return c.json(toEndpoint(row), 200);
		})
		.openapi(pauseEndpoint, async (c) => {
			const { id } = c.req.valid("param");
			const db = databaseOf(c.env, c.var.principal.accountId);
			const row = await setEndpointPaused(db, c.var.principal, id, true, new Date());
			if (row === null) throw notFound(id);
			return c.json(toEndpoint(row), 200);
		})
		.openapi(resumeEndpoint, async (c) => {
			const { id } = c.req.valid("param");
			const db = databaseOf(c.env, c.var.principal.accountId);
			const row = await setEndpointPaused(db, c.var.principal, id, false, new Date());
			if (row === null) throw notFound(id);
			return c.json(toEndpoint(row), 200);
		})
		.openapi(removeEndpoint, async (c) => {
			const { id } = c.req.valid("param");
			if (!(await deleteEndpoint(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id)))
				throw notFound(id);
			return c.body(null, 204);
		})
		.openapi(pingEndpoint, async (c) => {
			const { id } = c.req.valid("param");
			const row = await findEndpoint(databaseOf(c.env, c.var.principal.accountId), c.var.principal, id);
			if (row === null) throw notFound(id);
			const outcome = await sendPing(c.env, { id: row.id, url: row.url, accountId: row.account_id, mode: row.mode });
			return c.json(outcome, 200);
		});
}
