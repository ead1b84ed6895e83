import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { Scope } from "../accounts/scopes.ts";
import { errorResponses } from "../http/errors.ts";
import { isJsonContentType, requireUtf8JsonBody } from "../http/utf8-body.ts";
import { authenticate, requireScope } from "./auth.ts";

/** Name of the bearer security scheme in the OpenAPI document. */
export const BEARER_SCHEME = "bearerAuth";

/** Whether the route declares a JSON request body. */
function takesJsonBody(config: Pick<RouteConfig, "request">): boolean {
	return Object.keys(config.request?.body?.content ?? {}).some((mediaType) => isJsonContentType(mediaType));
}

/**
 * A route behind the bearer key: authentication with the per-key limits in one round trip (with
 * `orderCreate`, the order-creation bucket too), then the scope check (null: every valid key), then,
 * on a route that takes JSON, the UTF-8 check of the body. The 401/403/429 responses are documented on it.
 */
export function protectedRoute<const R extends Omit<RouteConfig, "middleware" | "security">>(
	scope: Scope | null,
	config: R,
	options: { orderCreate: boolean } = { orderCreate: false },
) {
	const middleware = [
		authenticate(options),
		...(scope === null ? [] : [requireScope(scope)]),
		// After authentication, so a caller without a key learns nothing from its body.
		...(takesJsonBody(config) ? [requireUtf8JsonBody] : []),
	];
	return createRoute({
		...config,
		security: [{ [BEARER_SCHEME]: [] }],
		middleware,
		responses: { ...config.responses, ...errorResponses(401, 403, 429) },
	});
}

/** An OpenAPI JSON response entry: one schema serves the document and the handler's types. */
export function jsonResponse<S>(schema: S, description: string) {
	return { description, content: { "application/json": { schema } } };
}
