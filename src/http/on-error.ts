import type { Context } from "hono";
import { HTTPException } from "hono/http-exception";
import { forgetPlacements, isAccountMoving } from "../databases.ts";
import { log } from "../log.ts";
import { ApiError, errorEnvelope } from "./errors.ts";

/** Seconds a refused write is told to wait: a few placement reads, far less than a move's copy. */
const ACCOUNT_MOVING_RETRY_SECONDS = 2;

/** What Hono's JSON validator throws (as a 400) for a body that does not parse. */
const HONO_MALFORMED_JSON = "Malformed JSON in request body";

/** Maps anything thrown to an ApiError; only errors that are not ours or Hono's become a 500. */
export function toApiError(error: unknown): ApiError {
	if (error instanceof ApiError) return error;
	if (isAccountMoving(error)) {
		// This isolate's placement of the account may be the one it is leaving: read them again next time.
		forgetPlacements();
		return new ApiError(
			"account_moving",
			"The account is moving between databases: retry in a few seconds.",
			undefined,
			{
				"Retry-After": String(ACCOUNT_MOVING_RETRY_SECONDS),
			},
		);
	}
	if (error instanceof HTTPException) {
		switch (error.status) {
			case 401:
				return new ApiError("unauthorized", error.message || "Authentication is required.");
			case 403:
				return new ApiError("forbidden", error.message || "This operation is not allowed.");
			case 404:
				return new ApiError("route_not_found", "No resource matches this path.");
			case 413:
				return new ApiError("body_too_large", "The request body is larger than 1 MiB.");
			case 415:
				return new ApiError(
					"unsupported_media_type",
					"The request body must be JSON, sent with Content-Type: application/json.",
				);
			default:
				if (error.status === 400 && error.message === HONO_MALFORMED_JSON) {
					return new ApiError("malformed_json", error.message);
				}
				if (error.status >= 400 && error.status < 500) {
					return new ApiError("bad_request", error.message || "The request is malformed.");
				}
		}
	}
	return new ApiError(
		"server_error",
		"Something failed on our side. Retry the request; if it keeps failing, contact support with the request id.",
	);
}

/** The app's `onError`: renders the envelope, and logs unexpected errors (never to the client) with the request id. */
export function renderError(error: Error, c: Context): Response {
	const apiError = toApiError(error);
	const requestId = typeof c.get("requestId") === "string" ? c.get("requestId") : "unknown";
	if (apiError.type === "server_error") {
		log.error("request.failed", {
			request_id: requestId,
			error: error.name,
			message: error.message,
			stack: error.stack,
		});
	}
	for (const [name, value] of Object.entries(apiError.headers)) c.header(name, value);
	return c.json(errorEnvelope(apiError, requestId), apiError.status);
}

/** The app's `notFound`: unknown paths and wrong methods are both 404 `not_found`. */
export function renderNotFound(c: Context): Response {
	return renderError(new ApiError("route_not_found", `No route matches ${c.req.method} ${c.req.path}.`), c);
}
