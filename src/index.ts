import { env as moduleEnv } from "cloudflare:workers";
import { app } from "./app.ts";
import { CostTrace, costHeader, costTracedObject, costTracingOn, tracedEnv } from "./http/cost-trace.ts";
import { OrderMachine as OrderMachineObject } from "./orders/order-machine.do.ts";
import { resumeStalledOrders } from "./orders/resume.ts";
import { RateLimiter as RateLimiterObject } from "./rate-limit/rate-limiter.do.ts";
import { consumeDeliveries } from "./webhooks/consumer.ts";
import type { DeliveryMessage } from "./webhooks/enqueue.ts";
import { sweepDueDeliveries } from "./webhooks/sweep.ts";
import { WebhookSender as WebhookSenderObject } from "./webhooks/webhook-sender.do.ts";

/**
 * The cost tracer (`src/http/cost-trace.ts`) is on only when the COST_TRACE variable is "1" (the cost
 * bench and one test project). Decided once per isolate: when it is off, nothing below is wrapped.
 */
const tracing = costTracingOn(moduleEnv);

export class OrderMachine extends costTracedObject(OrderMachineObject, tracing) {}
export class RateLimiter extends costTracedObject(RateLimiterObject, tracing) {}
export class WebhookSender extends costTracedObject(WebhookSenderObject, tracing) {}

/** The cron's safety nets: stalled orders restarted, overdue deliveries enqueued again. */
async function cron(env: Env): Promise<void> {
	const [restarted, swept] = await Promise.all([resumeStalledOrders(env), sweepDueDeliveries(env)]);
	if (restarted > 0 || swept > 0) {
		console.log(JSON.stringify({ level: "info", job: "cron", restarted_orders: restarted, swept_deliveries: swept }));
	}
}

/** The Worker entry: HTTP through the Hono app; webhook deliveries from the queue; the cron's safety nets. */
const worker = {
	fetch: app.fetch,
	queue: consumeDeliveries,
	scheduled(_controller, env, ctx) {
		ctx.waitUntil(cron(env));
	},
} satisfies ExportedHandler<Env, DeliveryMessage>;

/**
 * The same entry, traced: each response carries `X-Cost`; the cron and each queue batch log a
 * `{"cost_trace": ...}` line with theirs.
 */
const tracedWorker = {
	async fetch(request, env, ctx) {
		const trace = new CostTrace();
		const response = await app.fetch(
			request,
			tracedEnv(env, () => trace),
			ctx,
		);
		const answer = new Response(response.body, response);
		answer.headers.set("X-Cost", costHeader(trace.summary()));
		return answer;
	},
	async queue(batch, env) {
		const trace = new CostTrace();
		await consumeDeliveries(
			batch,
			tracedEnv(env, () => trace),
		);
		logCost(`queue:${batch.queue}`, trace, { messages: batch.messages.length });
	},
	scheduled(_controller, env, ctx) {
		const trace = new CostTrace();
		ctx.waitUntil(cron(tracedEnv(env, () => trace)).finally(() => logCost("scheduled", trace, {})));
	},
} satisfies ExportedHandler<Env, DeliveryMessage>;

function logCost(job: string, trace: CostTrace, extra: Record<string, unknown>): void {
	console.log(JSON.stringify({ cost_trace: job, cost: costHeader(trace.summary()), ...extra }));
}

export default tracing ? tracedWorker : worker;
