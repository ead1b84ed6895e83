/**
 * The operator console: server-rendered pages under /ops, signed in with an ops key.
 *
 * Every request first gets the page headers, has a form posted from another site refused, and is
 * told who is signed in (`session`). Then the session's routes (sign-in, sign-out; session-routes.tsx)
 * and the floor's pages (floor-routes.tsx), claims (claim-routes.tsx) and items' images (item-image-routes.ts). Errors, and any other path, are answered as pages.
 */
import { Hono } from "hono";
import { toApiError } from "../http/on-error.ts";
import { log } from "../log.ts";
import { claimRoutes } from "./claim-routes.tsx";
import type { ConsoleEnv } from "./console-env.ts";
import { floorRoutes } from "./floor-routes.tsx";
import { itemImageRoutes } from "./item-image-routes.ts";
import { refuseCrossSitePosts, securePages } from "./page-guards.ts";
import { errorPage } from "./responses.tsx";
import { findSession } from "./session-gate.ts";
import { sessionRoutes } from "./session-routes.tsx";
import { statementRoutes } from "./statement-routes.tsx";

export const consoleRoutes = new Hono<ConsoleEnv>();

consoleRoutes.onError((error, c) => {
	const apiError = toApiError(error);
	if (apiError.type === "server_error") {
		log.error("console.unexpected_error", {
			request_id: c.get("requestId") ?? "unknown",
			error: error.name,
			message: error.message,
			stack: error.stack,
		});
	}
	return errorPage(c, apiError.status, apiError.message, c.get("session")?.csrfToken ?? null);
});

consoleRoutes.use("*", securePages, refuseCrossSitePosts, findSession);
consoleRoutes.route("/", sessionRoutes);
consoleRoutes.route("/", floorRoutes);
consoleRoutes.route("/", claimRoutes);
consoleRoutes.route("/", itemImageRoutes);
consoleRoutes.route("/", statementRoutes);

// Last: every other path under /ops is a console 404 page, not the API's JSON one.
consoleRoutes.all("*", (c) =>
	errorPage(c, 404, `There is no page at ${c.req.path}.`, c.get("session")?.csrfToken ?? null),
);
