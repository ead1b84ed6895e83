import type { OpenAPIHono } from "@hono/zod-openapi";
import { Scalar } from "@scalar/hono-api-reference";
import type { Env as HonoEnv } from "hono";
import { BEARER_SCHEME } from "../http/protected-route.ts";

export const OPENAPI_PATH = "/v1/openapi.json";

/** Serves the OpenAPI 3.1 document generated from the routes, and an interactive reference page. Both public. */
export function serveApiDocs<E extends HonoEnv>(app: OpenAPIHono<E>): void {
	app.openAPIRegistry.registerComponent("securitySchemes", BEARER_SCHEME, {
		type: "http",
		scheme: "bearer",
		description: "An API key: `fps_live_...` or `fps_test_...`, issued by the service's team.",
	});
	app.doc31(OPENAPI_PATH, (c) => ({
		openapi: "3.1.0",
		info: {
			title: "Framed-Print Fulfillment API",
			version: "1.0.0",
			description:
				"White-label fulfillment of custom-framed prints. Errors share one envelope: `{error: {type, message, field?, request_id}}`.",
		},
		servers: [{ url: new URL(c.req.url).origin }],
	}));
	app.get("/v1/docs", Scalar({ url: OPENAPI_PATH, pageTitle: "Framed-Print Fulfillment API" }));
}
