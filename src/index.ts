import { app } from "./app.ts";

export { RateLimiter } from "./rate-limit/rate-limiter.do.ts";

/** The Worker entry: HTTP through the Hono app. */
export default {
	fetch: app.fetch,
} satisfies ExportedHandler<Env>;
