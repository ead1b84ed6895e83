import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { Scope } from "../accounts/scopes.ts";
import { errorResponses } from "../http/errors.ts";
import { isJsonContentType, requireUtf8JsonBody } from "../http/utf8-body.ts";
import { honourIdempotencyKey, IDEMPOTENCY_KEY_PARAMETER } from "../idempotency/middleware.ts";
import { authenticate, requireScope } from "./auth.ts";

/** Name of the bearer security scheme in the OpenAPI document. */
export const BEARER_SCHEME = "bearerAuth";

/** Whether the route declares a JSON request body. */
function takesJsonBody(config: Pick<RouteConfig, "request">): boolean {
	return Object.keys(config.request?.body?.content ?? {}).some((mediaType) => isJsonContentType(mediaType));
}

/** The methods of requests that change something: the ones the Idempotency-Key header is honoured on. */
const CHANGING_METHODS: ReadonlySet<string> = new Set(["post", "put", "patch", "delete"]);

/** How a route behind the key is guarded besides its scope. */
export type RouteGuards = {
	/** The order-creation bucket is counted too (the order create). */
	orderCreate?: boolean;
	/**
	 * `ignored` for a POST that changes nothing (a check, a preview, a dry run) or that has an idempotency
	 * key of its own (the order create's `external_id`); every other route that changes something honours it.
	 */
	idempotencyKey?: "honoured" | "ignored";
};

/**
 * A route behind the bearer key: authentication with the per-key limits in one round trip (with
 * `orderCreate`, the order-creation bucket too), then the scope check (null: every valid key), then,
 * on a route that takes JSON, the UTF-8 check of the body, then, on a POST, PUT, PATCH or DELETE, the
 * Idempotency-Key header (src/idempotency/), unless the route says it is ignored. The 401/403/429
 * responses, the 503 with its Retry-After (the account moving between databases, an archived order's
 * record not readable now), and the header with its 400 and 409, are documented on it.
 */
export function protectedRoute<const R extends Omit<RouteConfig, "middleware" | "security" | "parameters">>(
	scope: Scope | null,
	config: R,
	guards: RouteGuards = {},
) {
	const honoursKey = CHANGING_METHODS.has(config.method) && guards.idempotencyKey !== "ignored";
	const middleware = [
		authenticate({ orderCreate: guards.orderCreate ?? false }),
		...(scope === null ? [] : [requireScope(scope)]),
		// After authentication, so a caller without a key learns nothing from its body.
		...(takesJsonBody(config) ? [requireUtf8JsonBody] : []),
		// Last, so only what the route itself answers is kept for a retry.
		...(honoursKey ? [honourIdempotencyKey] : []),
	];
	return createRoute({
		...config,
		// Path and query parameters come from `request`; this header is the only one declared by hand.
		...(honoursKey ? { parameters: [IDEMPOTENCY_KEY_PARAMETER] } : {}),
		security: [{ [BEARER_SCHEME]: [] }],
		middleware,
		responses: {
			...(honoursKey ? errorResponses(400, 409) : {}),
			...config.responses,
			...errorResponses(401, 403, 429, 503),
		},
	});
}

/** An OpenAPI JSON response entry: one schema serves the document and the handler's types. */
export function jsonResponse<S>(schema: S, description: string) {
	return { description, content: { "application/json": { schema } } };
}
