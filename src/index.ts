import { app } from "./app.ts";
import { resumeStalledOrders } from "./orders/resume.ts";

export { OrderMachine } from "./orders/order-machine.do.ts";
export { RateLimiter } from "./rate-limit/rate-limiter.do.ts";

/** The Worker entry: HTTP through the Hono app; the cron restarts stalled orders. */
export default {
	fetch: app.fetch,
	async scheduled(_controller, env, ctx) {
		ctx.waitUntil(
			resumeStalledOrders(env).then((restarted) => {
				if (restarted > 0) console.log(JSON.stringify({ level: "info", job: "resume_stalled_orders", restarted }));
			}),
		);
	},
} satisfies ExportedHandler<Env>;
