/** What every console request goes through before its route: the page headers, and a refusal of forms from other sites. */
import { createMiddleware } from "hono/factory";
import { isCrossSitePost } from "../http/cross-site.ts";
import { PAGE_SECURITY_HEADERS } from "../production/slip-page.ts";
import type { ConsoleEnv } from "./console-env.ts";
import { errorPage } from "./responses.tsx";

/** Every answer, pages and errors alike, carries the headers of the floor's pages (nothing runs, framed or cached). */
export const securePages = createMiddleware<ConsoleEnv>(async (c, next) => {
	for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) c.header(name, value);
	await next();
});

/**
 * Same-origin forms send our own origin; a browser posting from another site names that site, so the
 * form token is not the only defence (and sign-in, which has no token yet, is covered too).
 */
export const refuseCrossSitePosts = createMiddleware<ConsoleEnv>(async (c, next) => {
	const postedFrom = { origin: c.req.header("Origin"), secFetchSite: c.req.header("Sec-Fetch-Site") };
	if (c.req.method === "POST" && isCrossSitePost(postedFrom, new URL(c.req.url).origin)) {
		return errorPage(c, 403, "This form was sent from another site; it was refused and nothing changed.", null);
	}
	await next();
});
