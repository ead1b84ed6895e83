import { app } from "./app.ts";
import { resumeStalledOrders } from "./orders/resume.ts";
import { consumeDeliveries } from "./webhooks/consumer.ts";
import type { DeliveryMessage } from "./webhooks/enqueue.ts";
import { sweepDueDeliveries } from "./webhooks/sweep.ts";

export { OrderMachine } from "./orders/order-machine.do.ts";
export { RateLimiter } from "./rate-limit/rate-limiter.do.ts";
export { WebhookSender } from "./webhooks/webhook-sender.do.ts";

/** The Worker entry: HTTP through the Hono app; webhook deliveries from the queue; the cron's safety nets. */
export default {
	fetch: app.fetch,
	queue: consumeDeliveries,
	async scheduled(_controller, env, ctx) {
		ctx.waitUntil(
			Promise.all([resumeStalledOrders(env), sweepDueDeliveries(env)]).then(([restarted, swept]) => {
				if (restarted > 0 || swept > 0) {
					console.log(
						JSON.stringify({ level: "info", job: "cron", restarted_orders: restarted, swept_deliveries: swept }),
					);
				}
			}),
		);
	},
} satisfies ExportedHandler<Env, DeliveryMessage>;
