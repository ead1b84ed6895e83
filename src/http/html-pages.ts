/** How the worker's signed-in pages answer: a complete HTML page, and the posted form read or refused. */
import type { Context } from "hono";
import type { BodyData } from "hono/utils/body";
import type { HtmlEscapedString } from "hono/utils/html";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { ApiError } from "./errors.ts";

/** A complete HTML page. */
export async function page(
	c: Context,
	element: HtmlEscapedString | Promise<HtmlEscapedString>,
	status: ContentfulStatusCode = 200,
): Promise<Response> {
	return c.html(`<!doctype html>${await element}`, status);
}

/** The posted form's fields; a body that is not the form it claims to be (say, multipart without a boundary) is a 400 page. */
export async function readForm(c: Context): Promise<BodyData> {
	try {
		return await c.req.parseBody();
	} catch {
		throw unreadableForm();
	}
}

/** As readForm, with every value of a field posted more than once (several files from one input) as an array. */
export async function readFormWithRepeats(c: Context): Promise<BodyData<{ all: true }>> {
	try {
		return await c.req.parseBody({ all: true });
	} catch {
		throw unreadableForm();
	}
}

function unreadableForm(): ApiError {
	return new ApiError(
		"bad_request",
		"The form could not be read: send it as application/x-www-form-urlencoded or multipart/form-data.",
	);
}
