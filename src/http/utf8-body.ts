import { createMiddleware } from "hono/factory";
import { ApiError } from "./errors.ts";

// The media types Hono's JSON validator parses (hono/validator): application/json and application/*+json.
const JSON_MEDIA_TYPE = /^application\/([\w.-]+\+)?json$/i;

// Fatal: a malformed sequence throws instead of becoming U+FFFD. `ignoreBOM: false` drops a leading
// byte order mark, as RFC 8259 section 8.1 allows and as Hono's own reading did.
const strictUtf8 = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });

/** Whether a Content-Type header announces a body that the route's JSON validator will parse. */
export function isJsonContentType(contentType: string | undefined): boolean {
	return JSON_MEDIA_TYPE.test(contentType?.split(";")[0]?.trim() ?? "");
}

/**
 * 400 `bad_request` for a JSON body that is not valid UTF-8. Hono reads bodies with a lenient decoder
 * that turns every bad byte into U+FFFD, so two different byte strings would become one text (and
 * one `external_id`). The text decoded here is left in Hono's body cache, where `c.req.json()` reads
 * it: the body is still read once and decoded once, with no extra copy.
 */
export const requireUtf8JsonBody = createMiddleware(async (c, next) => {
	if (c.req.raw.body === null || !isJsonContentType(c.req.header("Content-Type"))) return next();
	const bytes = await c.req.arrayBuffer();
	let text: string;
	try {
		text = strictUtf8.decode(bytes);
	} catch {
		// A fatal TextDecoder throws only for malformed input.
		throw new ApiError("body_not_utf8", "The request body is not valid UTF-8: send JSON as UTF-8 text.");
	}
	// Hono keeps promises in this cache (its type says values): `c.req.json()` awaits the entry.
	Reflect.set(c.req.bodyCache, "text", Promise.resolve(text));
	await next();
});
