import { createRoute, type RouteConfig } from "@hono/zod-openapi";
import type { MiddlewareHandler } from "hono";
import type { Scope } from "../accounts/scopes.ts";
import { limitRequests } from "../rate-limit/middleware.ts";
import { authenticate, requireScope } from "./auth.ts";
import { errorResponses } from "./errors.ts";

/** Name of the bearer security scheme in the OpenAPI document. */
export const BEARER_SCHEME = "bearerAuth";

/**
 * A route behind the bearer key: authentication, the per-key request limit, then the scope check
 * (null: any valid key), then `after` (e.g. the order-creation bucket). The 401/403/429 responses
 * are documented on it.
 */
export function protectedRoute<const R extends Omit<RouteConfig, "middleware" | "security">>(
	scope: Scope | null,
	config: R,
	after: MiddlewareHandler[] = [],
) {
	const middleware = [authenticate, limitRequests, ...(scope === null ? [] : [requireScope(scope)]), ...after];
	return createRoute({
		...config,
		security: [{ [BEARER_SCHEME]: [] }],
		middleware,
		responses: { ...config.responses, ...errorResponses(401, 403, 429) },
	});
}
