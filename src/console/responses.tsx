/** How the console answers an error: as a page, under its status, with the request id to quote. */
import type { Context } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { refusalStatus } from "../http/errors.ts";
import { page } from "../http/html-pages.ts";
import type { Refusal } from "../problem.ts";
import { ErrorPage } from "./error-page.tsx";

const ERROR_TITLES: Readonly<Record<number, string>> = {
	400: "Bad request",
	401: "Not signed in",
	403: "Not allowed",
	404: "Not found",
	409: "Not possible now",
	422: "Check the request",
	429: "Too many requests",
	500: "Something went wrong",
	503: "Console not configured",
};

/** An error as a page; `csrfToken` is the signed-in operator's (for the header's sign-out), or null. */
export function errorPage(
	c: Context,
	status: ContentfulStatusCode,
	message: string,
	csrfToken: string | null,
): Promise<Response> {
	const requestId: unknown = c.get("requestId");
	const props = {
		title: ERROR_TITLES[status] ?? "Error",
		message,
		requestId: typeof requestId === "string" ? requestId : "unknown",
		csrfToken,
	};
	return page(c, <ErrorPage {...props} />, status);
}

/**
 * A domain refusal as the console's error page, under its code's status: the pages' side of
 * `refusalError` (a refusal shown in place, on a form, uses `refusalStatus` for its status).
 */
export function refusalPage(c: Context, refused: Refusal, csrfToken: string | null): Promise<Response> {
	return errorPage(c, refusalStatus(refused), refused.message, csrfToken);
}
