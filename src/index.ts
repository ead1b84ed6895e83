import { env as moduleEnv } from "cloudflare:workers";
import { app } from "./app.ts";
import { configOf } from "./config.ts";
import { everyDatabase, refreshPlacements } from "./databases.ts";
import { costTracedObject, costTracedWorker, costTracingOn } from "./dev-tools/traced-entry.ts";
import { sweepExpiredPrintFiles } from "./file-retention/sweep.ts";
import { sweepExpiredIdempotencyKeys } from "./idempotency/sweep.ts";
import { log } from "./log.ts";
import { archiveFinishedOrders } from "./order-archive/run.ts";
import { chargeReleasedOrders } from "./orders/ledger-moves.ts";
import { OrderMachine as OrderMachineObject } from "./orders/order-machine.do.ts";
import { resumeStalledOrders } from "./orders/resume.ts";
import { RateLimiter as RateLimiterObject } from "./rate-limit/rate-limiter.do.ts";
import { consumeThumbnails, sweepPendingThumbnails } from "./thumbnails/consumer.ts";
import { archiveOldEvents } from "./webhooks/archive.ts";
import { consumeDeliveries } from "./webhooks/consumer.ts";
import type { DeliveryMessage } from "./webhooks/enqueue.ts";
import { sweepDueDeliveries } from "./webhooks/sweep.ts";
import { WebhookSender as WebhookSenderObject } from "./webhooks/webhook-sender.do.ts";

/**
 * The cost tracer (src/dev-tools/) is a measuring tool: on only when the COST_TRACE variable is "1"
 * (the cost bench and one test project). Decided once per isolate: when it is off, nothing is wrapped.
 */
const tracing = costTracingOn(moduleEnv);

export class OrderMachine extends costTracedObject(OrderMachineObject, tracing) {}
export class RateLimiter extends costTracedObject(RateLimiterObject, tracing) {}
export class WebhookSender extends costTracedObject(WebhookSenderObject, tracing) {}

/** One of the cron's jobs: what it does at `now`, and what it answers (how much it did). */
type CronJob = (env: Env, now: Date) => Promise<unknown>;

/**
 * The cron's jobs by name, each a bounded batch a run. The cost bench measures each on its own through
 * the tracer's entry (COST_TRACE only), by these names.
 */
const cronJobs = {
	"restart-stalled-orders": (env: Env, now: Date) => resumeStalledOrders(env, now),
	"sweep-deliveries": (env: Env, now: Date) => sweepDueDeliveries(env, now),
	"sweep-thumbnails": (env: Env, now: Date) => sweepPendingThumbnails(env, now),
	"charge-released-orders": async (env: Env, now: Date) => {
		const counts = await Promise.all(everyDatabase(env).map((database) => chargeReleasedOrders(database, now)));
		return counts.reduce((sum, count) => sum + count, 0);
	},
	"archive-events": (env: Env, now: Date) => archiveOldEvents(env, now),
	"archive-orders": async (env: Env, now: Date) => (await archiveFinishedOrders(env, now)).archived,
	"expire-print-files": (env: Env, now: Date) => sweepExpiredPrintFiles(env, now),
	"expire-idempotency-keys": (env: Env, now: Date) => sweepExpiredIdempotencyKeys(env, now),
} satisfies Record<string, CronJob>;

/** The cron's job names. */
type CronJobName = keyof typeof cronJobs;

/** What a job answered, or null when it failed: its failure is logged here, and the other jobs go on. */
function answerOf<T>(job: CronJobName, settled: PromiseSettledResult<T>): T | null {
	if (settled.status === "fulfilled") return settled.value;
	const error: unknown = settled.reason;
	log.error("cron.job_failed", {
		job,
		error: error instanceof Error ? error.name : typeof error,
		message: error instanceof Error ? error.message : String(error),
		stack: error instanceof Error ? error.stack : undefined,
	});
	return null;
}

/**
 * The cron's safety nets: stalled orders restarted, overdue deliveries and thumbnails enqueued again,
 * orders whose edit window ended charged (should their Durable Object's alarm have been lost), a
 * batch of events past the retention window archived to R2, a batch of finished orders past ORDER_ARCHIVE_DAYS
 * archived to R2, print files past their retention
 * expired and their bytes deleted, and idempotency keys past their 24 hours deleted. The jobs run side by side and settle each on its own: one that
 * fails is logged (`cron.job_failed`) and keeps neither the others from running nor their counts from
 * the run's log line.
 */
async function cron(env: Env): Promise<void> {
	const now = new Date();
	const [restarted, swept, thumbnails, charged, archived, orders, retention, idempotencyKeys] =
		await Promise.allSettled([
			cronJobs["restart-stalled-orders"](env, now),
			cronJobs["sweep-deliveries"](env, now),
			cronJobs["sweep-thumbnails"](env, now),
			cronJobs["charge-released-orders"](env, now),
			cronJobs["archive-events"](env, now),
			cronJobs["archive-orders"](env, now),
			cronJobs["expire-print-files"](env, now),
			cronJobs["expire-idempotency-keys"](env, now),
		]);
	const expiry = answerOf("expire-print-files", retention);
	const counts = {
		restarted_orders: answerOf("restart-stalled-orders", restarted) ?? 0,
		swept_deliveries: answerOf("sweep-deliveries", swept) ?? 0,
		requeued_thumbnails: answerOf("sweep-thumbnails", thumbnails) ?? 0,
		charged_orders: answerOf("charge-released-orders", charged) ?? 0,
		archived_events: answerOf("archive-events", archived) ?? 0,
		archived_orders: answerOf("archive-orders", orders) ?? 0,
		expired_print_files: expiry?.expired ?? 0,
		purged_print_files: expiry?.purged ?? 0,
		expired_idempotency_keys: answerOf("expire-idempotency-keys", idempotencyKeys) ?? 0,
	};
	if (Object.values(counts).some((count) => count > 0)) log.info("cron.ran", { job: "cron", ...counts });
}

/** Each queue's batches to its consumer: thumbnails by THUMBNAIL_QUEUE's name, the rest are webhooks'. */
async function consumeQueue(batch: MessageBatch<DeliveryMessage>, env: Env): Promise<void> {
	await refreshPlacements(env);
	if (batch.queue === configOf(env).THUMBNAIL_QUEUE) return consumeThumbnails(batch, env);
	return consumeDeliveries(batch, env);
}

/** The Worker entry: HTTP through the Hono app; webhook deliveries and thumbnails from the queues; the cron's safety nets. */
const worker = {
	fetch: app.fetch,
	queue: consumeQueue,
	scheduled(_controller, env, ctx) {
		ctx.waitUntil(refreshPlacements(env).then(() => cron(env)));
	},
} satisfies ExportedHandler<Env, DeliveryMessage>;

export default tracing ? costTracedWorker(worker, cronJobs) : worker;
