import type { OpenAPIHono, z } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { Env as HonoEnv } from "hono";
import { createMiddleware } from "hono/factory";
import packageManifest from "../../package.json";
import { BOOKMARK_HEADER } from "../access/auth.ts";
import { BEARER_SCHEME } from "../access/protected-route.ts";
import { DEFAULT_LIMITS } from "../accounts/store.ts";
import { base64Of } from "../base64.ts";
import { IDEMPOTENCY_KEY_HEADER, REPLAYED_HEADER } from "../idempotency/rules.ts";
import { PingEventSchema, WebhookHeaders } from "../webhooks/webhook-request.ts";
import { AUDIENCE_DOCUMENTS, type Audience, documentFor } from "./audiences.ts";
import { SENT_EVENT_SCHEMAS, SENT_EVENT_TYPES } from "./event-catalog.ts";
import postmanAdminCollectionFile from "./postman-admin-collection.json";
import postmanCollectionFile from "./postman-collection.json";
import postmanOpsCollectionFile from "./postman-ops-collection.json";
import { requestSchemasAsInputs } from "./request-defaults.ts";
import scalarVersion from "./vendor/scalar-version.txt";

/** The partner's document: what a partner key can call, and the webhooks. */
export const OPENAPI_PATH = AUDIENCE_DOCUMENTS.partner.path;
/** Where the partner's Postman collection, a rehearsal run generated from the partner's document, is served. */
export const POSTMAN_PATH = "/v1/postman.json";

/**
 * Each audience's Postman collection (`npm run postman:generate` makes them from the documents) and
 * where it is served: the partner's beside its document, the floor's and the service team's under
 * their documents' prefixes.
 */
export const POSTMAN_COLLECTIONS: Readonly<
	Record<Audience, { path: string; collection: { variable: Array<{ key: string; value: string }> } }>
> = {
	partner: { path: POSTMAN_PATH, collection: postmanCollectionFile },
	ops: { path: "/v1/ops/postman.json", collection: postmanOpsCollectionFile },
	admin: { path: "/v1/admin/postman.json", collection: postmanAdminCollectionFile },
};

/** The sent events whose names start with `prefix`, as the introduction lists them. */
function eventList(prefix: string): string {
	return SENT_EVENT_TYPES.filter((type) => type.startsWith(prefix))
		.map((type) => `\`${type}\``)
		.join(", ");
}

/**
 * The reference's opening (`info.description`): what a partner needs before the first call, a short
 * paragraph each. Every one says what the code does (the limits are its defaults); docs/api.md has the detail.
 */
const INTRODUCTION = `White-label fulfillment of custom-framed prints: send an order the buyer has already paid for, and the service checks each print file, frames, ships and reports back.

**Authentication.** Every route but health, the signed upload URL and this reference (with its document and collection) needs an API key in the header \`Authorization: Bearer <API key>\`. Keys are issued by the service's team; each belongs to one account and sees only that account's data. Keep them on your server, never in a browser or an app. In this reference, paste a key under Authentication and "Test request" sends it.

**Modes.** A live key starts \`fps_live_\`, a test key \`fps_test_\`. The two modes see separate data: print files, quotes, orders, events and webhook endpoints made with a test key are invisible to the live key, and the other way round. Test orders are validated like live ones, then are started, ship and deliver by themselves (or at once with \`POST /v1/sandbox/orders/{id}/advance\`), sending the same webhooks signed with the test secret. The sandbox's controls make anything else happen to a test order or claim as the floor, a carrier or the service team would (\`POST /v1/sandbox/orders/{id}/simulate\`, \`POST /v1/sandbox/claims/{id}/simulate\`), leave new test orders for those controls alone (\`PUT /v1/sandbox/settings\`), and send a signed sample of any event (\`POST /v1/sandbox/events\`).

**Errors.** 2xx is success, 4xx a request you can fix, 5xx the service's failure. Every error has one JSON shape, \`{"error": {"type", "message", "field"?, "request_id"}}\`, with one of nine types, each always with the same status: \`bad_request\` 400, \`unauthorized\` 401, \`forbidden\` 403, \`not_found\` 404, \`conflict\` 409, \`validation_error\` 422, \`rate_limited\` 429, \`server_error\` 500, \`unavailable\` 503 (retry after \`Retry-After\` seconds). \`field\` names the field at fault (\`items[0].width_in\`), and \`request_id\` equals the response's \`X-Request-Id\`: quote it when you ask for help. An error may also carry a stable \`code\` to branch on: the error catalog (\`docs/errors.md\` in the service's documentation) lists each code with its cause and fix.

**Idempotency.** \`POST /v1/orders\` is idempotent on your \`external_id\`, per account and mode: the first request is a 201 with the order; a repeat with the same content is a 200 with the same order and \`Idempotent-Replayed: true\`; different content under the same \`external_id\` is a 409 \`conflict\`. Every other request that changes something (a POST, PUT, PATCH or DELETE) takes an \`Idempotency-Key\` header (1 to 255 printable ASCII characters; a UUID is a good key): a retry with the same key and the same request (method, path and body bytes) within 24 hours gets the first answer again, with \`Idempotent-Replayed: true\`, and changes nothing; the same key with another request is a 409 \`idempotency_key_reused\`, and while the first is still running a 409 \`idempotency_key_in_use\` with \`Retry-After\`. A 5xx or 429 is not kept, so its retry runs again. After a timeout or a network error, send the same request again, with the same key.

**Pagination.** The lists of orders and of events answer \`{"data": [...], "next_cursor": ...}\`, newest first. Pass \`limit\` (1 to 100, 20 by default) and, for the next page, \`cursor\` set to the last \`next_cursor\`; it is \`null\` on the last page. Paging by cursor never skips or repeats an entry, even while new ones arrive.

**Rate limits.** ${DEFAULT_LIMITS.requestsPerMinute} requests in any rolling minute per key, and order creation ${DEFAULT_LIMITS.ordersPerSecond} a second with bursts of ${DEFAULT_LIMITS.orderBurst}, unless your account has other limits. Every counted answer carries \`X-RateLimit-Limit\`, \`X-RateLimit-Remaining\` and \`X-RateLimit-Reset\`; past a limit the answer is a 429 \`rate_limited\` with \`Retry-After\` in seconds.

**Reading your writes.** Reads may be answered by a copy of the database near you, which can be a moment behind. A key always reads what it wrote: after a create, an update or a cancel, that key's next read shows it, never the order as it was. Another key (or the console) may see the older state for a moment; to read a write made with one key through another, send back the \`${BOOKMARK_HEADER}\` header of the write's answer, as it came, on the other key's request (every answer to a key carries the latest one; a value this service did not send is set aside).

**Webhooks.** ${SENT_EVENT_TYPES.length} events are sent, each POSTed to the order's \`callback_url\` and to the webhook endpoints subscribed to it: an order's moves and changes (${eventList("order.")}), its shipments' (${eventList("shipment.")}) and its claims' (${eventList("claim.")}); \`order.received\` is listed in the event log, never sent. Every webhook is signed: \`SVC-Signature: t=<unix seconds>,v1=<hex>\` is the HMAC-SHA256 of the raw body keyed with your mode's webhook secret, and the Standard Webhooks headers (\`webhook-id\`, \`webhook-timestamp\`, \`webhook-signature\`) carry the same proof for its libraries. Verify before trusting a body, answer any 2xx within 10 seconds, and deduplicate on the event \`id\`: anything else is retried for 24 hours. The Webhooks section below has each body.

**Tools.** This document as OpenAPI 3.1: [${OPENAPI_PATH}](${OPENAPI_PATH}). A Postman collection that rehearses an order from upload to claim with a test key, checking every answer against this document: [${POSTMAN_PATH}](${POSTMAN_PATH}) (set its \`api_key\` and \`base_url\` variables).`;

/** The opening of the floor's and the service team's documents, which partners never need. */
const INTERNAL_INTRODUCTION: Readonly<Record<Exclude<Audience, "partner">, string>> = {
	ops: `The production floor's operations: the queue, an order's moves, work tickets, print files, packing slips, shipments and claims to decide. Every one needs a live key with the \`ops\` scope. A Postman collection of them, each request with a test of its answer: [${POSTMAN_COLLECTIONS.ops.path}](${POSTMAN_COLLECTIONS.ops.path}). Partners' operations are in [${OPENAPI_PATH}](${OPENAPI_PATH}).`,
	admin: `The service team's operations: accounts, keys, limits, settings, price books, discounts, ledger adjustments and the events archive. Every one needs a live key with the \`admin\` scope. A Postman collection of them, each request with a test of its answer: [${POSTMAN_COLLECTIONS.admin.path}](${POSTMAN_COLLECTIONS.admin.path}). Partners' operations are in [${OPENAPI_PATH}](${OPENAPI_PATH}).`,
};

/**
 * The reference page's script: @scalar/api-reference's browser bundle as installed (pinned by the
 * lockfile; `postinstall` copies it and its version beside this file), served by the worker itself
 * under a path named by that version, so the page works offline and a new bundle is a new URL.
 */
const SCALAR_SCRIPT_PATH = `/v1/docs/scalar-${scalarVersion.trim()}.js`;

// The inline scripts of a page: <script> elements without a src.
const INLINE_SCRIPT = /<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/**
 * The reference page's Content-Security-Policy: scripts from this origin (the only one it serves is
 * Scalar's bundle) and the page's own inline scripts (by
 * their SHA-256, base64), inline styles (Scalar injects its stylesheet as <style> elements), calls to
 * this origin only (the document and "Test request"), and no framing.
 */
function docsContentSecurityPolicy(inlineScriptHashes: readonly string[]): string {
	return [
		"default-src 'none'",
		`script-src ${["'self'", ...inlineScriptHashes.map((hash) => `'sha256-${hash}'`)].join(" ")}`,
		"style-src 'unsafe-inline'",
		"img-src 'self' data:",
		"connect-src 'self'",
		"base-uri 'none'",
		"form-action 'self'",
		"frame-ancestors 'none'",
	].join("; ");
}

async function sha256Base64(text: string): Promise<string> {
	return base64Of(new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text))));
}

/**
 * Puts the CSP on the page Scalar rendered, hashing the inline scripts it actually holds: the hashes
 * follow Scalar's output (its configuration script) instead of being copied into code by hand.
 */
const guardDocsPage = createMiddleware(async (c, next) => {
	await next();
	if (!c.res.ok) return;
	const html = await c.res.text();
	const scripts = [...html.matchAll(INLINE_SCRIPT)].map((match) => match[1] ?? "");
	const policy = docsContentSecurityPolicy(await Promise.all(scripts.map(sha256Base64)));
	c.res = new Response(html, c.res);
	c.res.headers.set("Content-Security-Policy", policy);
	c.res.headers.set("X-Frame-Options", "DENY");
	c.res.headers.set("Referrer-Policy", "no-referrer");
});

/** What each tag groups, for tools that show tags (and lint for them). */
const TAG_DESCRIPTIONS: Readonly<Record<string, string>> = {
	Service: "Whether the service is up.",
	Catalog: "What can be ordered: sizes, frames, mats, glazings and papers.",
	Pricing:
		"The price book every price comes from, the exchange-rate sheets that convert it, and the landed-cost tables of taxes and duties at each border.",
	Quotes: "What a cart costs and how it ships, before ordering.",
	"Print files":
		"Uploading print files and reading their inspection, and the account's choice of what a CMYK file does to its order.",
	Orders: "Creating, reading, listing, fixing and canceling orders.",
	Claims: "Claiming shipped units that arrived damaged, defective or wrong, or were lost, and reading the claims.",
	Billing: "The account's billing: its currency, default duty terms abroad, and tax registration.",
	Statements: "What the account owes per mode: each month's charges, credits and adjustments, as JSON or CSV.",
	Previews: "Framed previews: a PNG of the finished piece, drawn to scale with the print file's image.",
	Events: "The event log of webhooks, redelivery and the signing secret.",
	"Webhook endpoints": "Receivers an account registers per mode for the events of all its orders.",
	Branding: "The partner's brand on packing slips and shipping labels.",
	Sandbox: "Rehearsing with test keys: every move of the floor, a carrier and the service team, and sample events.",
	Operations: "The production floor (ops keys): the queue, moves, work tickets, files and shipping in bulk.",
	Admin:
		"Accounts, keys, limits, billing, prices, exchange rates, landed-cost tables and ledger adjustments (admin keys).",
};

type Operation = {
	operationId?: string;
	security?: unknown[];
	parameters?: Array<{ name?: string; in?: string }>;
	tags?: string[];
	responses?: Record<string, { headers?: Record<string, unknown> }>;
};

/** The response headers the service sends, documented once and referred to from each response that has them. */
const RESPONSE_HEADERS = {
	"X-Request-Id": {
		required: true,
		description:
			"The request's id (an incoming X-Request-Id of 1 to 128 of [A-Za-z0-9_=-] is echoed); errors repeat it as request_id.",
		schema: { type: "string", example: "req_5aPhHloH8QFsSFRCNBX8C2E2" },
	},
	"X-RateLimit-Limit": {
		required: true,
		description: "Requests this key may make in a rolling minute.",
		schema: { type: "integer", example: 120 },
	},
	"X-RateLimit-Remaining": {
		required: true,
		description: "Requests left in the current minute.",
		schema: { type: "integer", example: 117 },
	},
	"X-RateLimit-Reset": {
		required: true,
		description: "Unix seconds when the window has room again.",
		schema: { type: "integer", example: 1795345260 },
	},
	"Retry-After": {
		required: true,
		description: "Seconds to wait before trying again.",
		schema: { type: "integer", example: 3 },
	},
	ETag: {
		required: true,
		description: "The representation's entity tag; send it as If-None-Match to get a 304 while it is unchanged.",
		schema: { type: "string", example: '"3f1c…"' },
	},
	[BOOKMARK_HEADER]: {
		required: true,
		description:
			"Where this key's writes (and this request's reads) have got to in the service's databases, as an opaque token: send it back in the request header of the same name to read those writes through another key.",
		schema: { type: "string", example: "DB:00000000-0000002b-00000000-00000000000000000000000000000000" },
	},
	[REPLAYED_HEADER]: {
		required: true,
		description:
			"`true` when the answer is the first request's, given again: a repeat of an order create with the same `external_id` and content, or a retry with the same `Idempotency-Key` and request.",
		schema: { type: "string", enum: ["true"] },
	},
} as const;

type HeaderName = keyof typeof RESPONSE_HEADERS;

/**
 * Which headers a response of an operation carries, by what the service does (docs/api.md,
 * "Errors" and "Rate limits"), and whether it always does: a 400 or 403 may come before the rate limiter
 * has counted the request (a body over its limit; a key refused outright), and then has no counts.
 */
function headersOf(
	method: string,
	path: string,
	status: string,
	operation: Operation,
): Array<{ name: HeaderName; always: boolean }> {
	const names: Array<{ name: HeaderName; always: boolean }> = [{ name: "X-Request-Id", always: true }];
	// Authentication comes before the limiter, the scope check after it: only a 401 goes without the counts.
	if ((operation.security ?? []).length > 0 && status !== "401") {
		const always = status !== "400" && status !== "403";
		for (const name of ["X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset"] as const) {
			names.push({ name, always });
		}
	}
	// Set once the request is past its key and its counts: absent while nothing has been read or written.
	if ((operation.security ?? []).length > 0 && status !== "401" && status !== "429") {
		names.push({ name: BOOKMARK_HEADER, always: false });
	}
	const also = (name: HeaderName) => names.push({ name, always: true });
	if (status === "429") also("Retry-After");
	if (method === "get" && path === "/v1/catalog" && (status === "200" || status === "304")) also("ETag");
	if (method === "get" && path === "/v1/ops/print-files/{id}/download" && status === "200") also("ETag");
	if (method === "post" && path === "/v1/orders" && status === "200") also(REPLAYED_HEADER);
	// A retry with the key gets the first answer again, whatever it was (but a 429 or a 5xx, never kept, and
	// a 401, which comes before the key is read), or a 409 with Retry-After while the first is running.
	const sometimes = (name: HeaderName) => names.push({ name, always: false });
	const honoursKey = (operation.parameters ?? []).some(
		(parameter) => parameter.in === "header" && parameter.name === IDEMPOTENCY_KEY_HEADER,
	);
	if (honoursKey && status !== "401" && status !== "429" && !status.startsWith("5")) sometimes(REPLAYED_HEADER);
	if (honoursKey && status === "409") sometimes("Retry-After");
	// A 503 (an account moving between databases, an archived order's record not readable now) says when to retry.
	if (status === "503") also("Retry-After");
	return names;
}

/** `getOrdersById` for GET /v1/orders/{id}: the method and the path's words, camel-cased. */
export function operationIdOf(method: string, path: string): string {
	const words = path
		.replace(/^\/v1\//, "")
		.split("/")
		.flatMap((segment) => {
			const parameter = /^\{(.+)\}$/.exec(segment);
			return (parameter === null ? segment : `by-${parameter[1]}`).split(/[^A-Za-z0-9]+/);
		})
		.filter((word) => word !== "");
	return [method.toLowerCase(), ...words.map((word) => word.charAt(0).toUpperCase() + word.slice(1))].join("");
}

/**
 * The generated document, finished: every operation gets an operationId (from its method and path,
 * unless it has one), a public one says so with `security: []`, every response names the headers it
 * carries, the tags in use are described, and the request-only schemas are described as inputs
 * (request-defaults.ts).
 */
function finishedDocument<T extends { paths?: object; webhooks?: object; tags?: unknown; components?: object }>(
	document: T,
): T {
	const used = new Set<string>();
	for (const [path, item] of Object.entries(document.paths ?? {}) as [string, Record<string, Operation>][]) {
		for (const [method, operation] of Object.entries(item)) {
			if (typeof operation !== "object" || operation === null) continue;
			operation.operationId ??= operationIdOf(method, path);
			operation.security ??= [];
			for (const tag of operation.tags ?? []) used.add(tag);
			for (const [status, response] of Object.entries(operation.responses ?? {})) {
				// Always there: the shared definition, which says `required`; sometimes: the same, inline, without it.
				const refs = Object.fromEntries(
					headersOf(method, path, status, operation).map(({ name, always }) => {
						const { required: _always, ...sometimes } = RESPONSE_HEADERS[name];
						return [name, always ? { $ref: `#/components/headers/${name}` } : sometimes];
					}),
				);
				response.headers = { ...refs, ...response.headers };
			}
		}
	}
	const tags = Object.entries(TAG_DESCRIPTIONS)
		.filter(([name]) => used.has(name))
		.map(([name, description]) => ({ name, description }));
	return requestSchemasAsInputs({
		...document,
		tags,
		components: { ...document.components, headers: RESPONSE_HEADERS },
	});
}

/**
 * The webhooks the service sends (OAS 3.1 `webhooks`): each event's body, from the schema of the
 * capability that owns the event, the headers webhooks signs it with, and what answers it.
 */
function registerWebhooks<E extends HonoEnv>(app: OpenAPIHono<E>): void {
	const sent: Array<[string, z.ZodType, string]> = [
		...Object.entries(SENT_EVENT_SCHEMAS).map(([event, schema]): [string, z.ZodType, string] => [
			event,
			schema,
			`${event}: sent to the order's callback_url and to each webhook endpoint subscribed to it`,
		]),
		["ping", PingEventSchema, "ping: sent to one webhook endpoint by POST /v1/webhook-endpoints/{id}/test"],
	];
	for (const [event, schema, summary] of sent) {
		app.openAPIRegistry.registerWebhook({
			method: "post",
			path: event,
			operationId: event
				.replace(/\.(.)/g, (_, letter: string) => letter.toUpperCase())
				.replace(/_(.)/g, (_, letter: string) => letter.toUpperCase()),
			tags: ["Events"],
			summary,
			security: [],
			request: { headers: WebhookHeaders, body: { required: true, content: { "application/json": { schema } } } },
			responses: {
				200: { description: "Any 2xx acknowledges the event (the body is not read)." },
				400: {
					description:
						"Any other status (or none within 10 s) is retried on the schedule for 24 hours; 429 and 503 may carry Retry-After. A ping is not retried.",
				},
			},
		});
	}
}

/**
 * Serves the OpenAPI 3.1 document generated from the routes, the Postman collection made from it, and
 * an interactive reference page. All public.
 */
export function serveApiDocs<E extends HonoEnv>(app: OpenAPIHono<E>): void {
	registerWebhooks(app);
	app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
		type: "http",
		scheme: "bearer",
		description: "An API key: `fps_live_...` or `fps_test_...`, issued by the service's team.",
	});
	for (const [audience, { path, title }] of Object.entries(AUDIENCE_DOCUMENTS) as [
		Audience,
		{ path: string; title: string },
	][]) {
		app.get(path, (c) =>
			c.json(
				documentFor(
					finishedDocument(
						app.getOpenAPI31Document({
							openapi: "3.1.0",
							info: {
								title,
								version: packageManifest.version,
								license: { name: "MIT", url: "https://opensource.org/license/mit" },
								description: audience === "partner" ? INTRODUCTION : INTERNAL_INTRODUCTION[audience],
							},
							servers: [{ url: new URL(c.req.url).origin }],
						}),
					),
					audience,
				),
			),
		);
	}
	// The collections `npm run postman:generate` made from the documents, their base_url set to this origin.
	for (const { path, collection } of Object.values(POSTMAN_COLLECTIONS)) {
		app.get(path, (c) =>
			c.json({
				...collection,
				variable: collection.variable.map((variable) =>
					variable.key === "base_url" ? { ...variable, value: new URL(c.req.url).origin } : variable,
				),
			}),
		);
	}
	app.get(
		"/v1/docs",
		guardDocsPage,
		Scalar({
			url: OPENAPI_PATH,
			pageTitle: "Framed-Print Fulfillment API",
			// No default fonts: they come from a third origin (fonts.scalar.com); the page uses system fonts.
			withDefaultFonts: false,
			cdn: SCALAR_SCRIPT_PATH,
			// Every operation but two needs the key: "Test request" starts on the bearer scheme, its token empty.
			authentication: { preferredSecurityScheme: BEARER_SCHEME, securitySchemes: { [BEARER_SCHEME]: { token: "" } } },
			// Scalar's own services (Ask AI, Deploy, Share, the hosted API client) need scalar.com, which the
			// page may not reach and a partner has no use for.
			agent: { disabled: true },
			showDeveloperTools: "never",
			hideClientButton: true,
			telemetry: false,
		}),
	);
	// The bundle (3.5 MB) is loaded on this route only, not with the Worker: every other request, and a
	// cold start, does without it.
	app.get(SCALAR_SCRIPT_PATH, async (c) => {
		const { default: scalarBundle } = await import("./vendor/scalar-standalone.txt");
		return c.body(scalarBundle, 200, {
			"Content-Type": "text/javascript; charset=utf-8",
			"Cache-Control": "public, max-age=31536000, immutable",
			"X-Content-Type-Options": "nosniff",
		});
	});
}
