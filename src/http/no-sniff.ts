import { createMiddleware } from "hono/factory";

/**
 * `X-Content-Type-Options: nosniff` on every response, errors and 404s included: a browser must take
 * JSON as JSON, never guess it is HTML or script. Set after the handler, so whatever answered is covered.
 */
export const noSniff = createMiddleware(async (c, next) => {
	await next();
	c.res.headers.set("X-Content-Type-Options", "nosniff");
});
