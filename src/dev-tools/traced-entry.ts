/**
 * What the entry hands to the cost tracer (cost-trace.ts): its handlers and its Durable Object
 * classes, each returned with every binding it is given counted. The entry passes them through here
 * only when `costTracingOn` says so; otherwise the Worker runs exactly as written.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { z } from "zod";
import { log } from "../log.ts";
import { BILLED_PATH, bill, billedSoFar, queueOperationsOf } from "./billing.ts";
import { CostTrace, costHeader, envelope, isMark } from "./cost-trace.ts";
import { tracedEnv } from "./traced-bindings.ts";

/** Whether the variables turn the tracer on: `COST_TRACE` is "1". */
export function costTracingOn(env: object): boolean {
	return (env as { COST_TRACE?: unknown }).COST_TRACE === "1";
}

/** The handlers the Worker exports, as the tracer wraps them. */
export type TraceableWorker<Message> = {
	fetch(request: Request, env: Env, ctx?: ExecutionContext): Response | Promise<Response>;
	queue(batch: MessageBatch<Message>, env: Env, ctx?: ExecutionContext): void | Promise<void>;
	scheduled(controller: ScheduledController, env: Env, ctx: ExecutionContext): void | Promise<void>;
};

/** The cron's jobs by name, each run at an instant: what the tracer's cron entry runs one at a time. */
export type CronJobs = Readonly<Record<string, (env: Env, now: Date) => Promise<unknown>>>;

/** `POST /__cost-trace/cron/{job}`: one cron job run once, answered with its cost (only with COST_TRACE on). */
export const CRON_JOB_PATH = "/__cost-trace/cron/";

/** `at`, when given: the instant the job runs at (a fixed one, so that what is due does not move between runs). */
const JobInstant = z.iso.datetime({ offset: true }).optional();

/**
 * `worker` with each unit of work traced: each response carries `X-Cost`; each queue batch and each
 * cron run logs a `cost_trace` line with its cost (the cost bench reads them from the log). Every
 * invocation is also added to the billed totals (billing.ts), which `GET /__cost-trace/billed` answers.
 * `POST /__cost-trace/cron/{job}` runs one of `cronJobs` alone, so each job's cost is its own.
 */
export function costTracedWorker<Message>(
	worker: TraceableWorker<Message>,
	cronJobs: CronJobs = {},
): TraceableWorker<Message> {
	return {
		async fetch(request, env, ctx) {
			const url = new URL(request.url);
			if (url.pathname === BILLED_PATH) return Response.json(billedSoFar());
			const job = request.method === "POST" ? jobNamed(cronJobs, url.pathname) : undefined;
			if (job !== undefined) return runCronJob(job, url, env);
			bill("workerRequests");
			const trace = new CostTrace();
			const response = await worker.fetch(
				request,
				tracedEnv(env, () => trace),
				ctx,
			);
			const answer = new Response(response.body, response);
			answer.headers.set("X-Cost", costHeader(trace.summary()));
			return answer;
		},
		async queue(batch, env, ctx) {
			const trace = new CostTrace();
			bill("queueInvocations");
			const delivered = billedDelivery(batch);
			try {
				await worker.queue(
					delivered.batch,
					tracedEnv(env, () => trace),
					ctx,
				);
			} catch (error) {
				// A batch that throws is retried whole: nothing of it is deleted.
				delivered.retryAll();
				throw error;
			} finally {
				bill("queueDeletes", delivered.deleted());
			}
			logCost(`queue:${batch.queue}`, trace, { messages: batch.messages.length });
		},
		scheduled(controller, env, ctx) {
			bill("cronInvocations");
			const trace = new CostTrace();
			// The cron's work runs in waitUntil: its cost is known when that work (and the handler) settles.
			const work: Promise<unknown>[] = [];
			const handled = worker.scheduled(
				controller,
				tracedEnv(env, () => trace),
				collectingWaitUntil(ctx, work),
			);
			ctx.waitUntil(
				Promise.resolve(handled)
					.then(() => Promise.all(work))
					.finally(() => logCost("scheduled", trace, {})),
			);
		},
	};
}

/** The job a cron entry's path names, if it is one of `jobs` (anything else goes on to the app, a 404). */
function jobNamed(jobs: CronJobs, pathname: string): { name: string; run: CronJobs[string] } | undefined {
	if (!pathname.startsWith(CRON_JOB_PATH)) return undefined;
	const name = pathname.slice(CRON_JOB_PATH.length);
	const run = Object.hasOwn(jobs, name) ? jobs[name] : undefined;
	return run === undefined ? undefined : { name, run };
}

/** Runs one cron job at `?at=` (now by default) with its own trace: `{job, at, result}` and `X-Cost`. */
async function runCronJob(job: { name: string; run: CronJobs[string] }, url: URL, env: Env): Promise<Response> {
	const at = JobInstant.safeParse(url.searchParams.get("at") ?? undefined);
	if (!at.success) {
		const requestId = crypto.randomUUID();
		return Response.json(
			{
				error: {
					type: "validation_error",
					code: "invalid_field",
					message: "`at` must be an ISO 8601 instant with its offset, such as 2026-11-24T09:30:00Z.",
					field: "at",
					request_id: requestId,
				},
			},
			{ status: 422, headers: { "X-Request-Id": requestId } },
		);
	}
	const now = at.data === undefined ? new Date() : new Date(at.data);
	const trace = new CostTrace();
	const result = await job.run(
		tracedEnv(env, () => trace),
		now,
	);
	return Response.json(
		{ job: job.name, at: now.toISOString(), result },
		{ headers: { "X-Cost": costHeader(trace.summary()) } },
	);
}

/**
 * The batch as the consumer sees it, billing the queue's side: each message read now, and deleted
 * once the batch is done unless it was retried (`message.retry()`, `batch.retryAll()`, or a throw).
 */
function billedDelivery<Message>(batch: MessageBatch<Message>): {
	batch: MessageBatch<Message>;
	retryAll(): void;
	deleted(): number;
} {
	const retried = new Set<string>();
	let all = false;
	for (const message of batch.messages) bill("queueReads", queueOperationsOf(message.body));
	const messages = batch.messages.map((message) =>
		withMethod(message, "retry", () => {
			retried.add(message.id);
		}),
	);
	const wrapped = new Proxy(batch, {
		get(target, name) {
			if (name === "messages") return messages;
			if (name === "retryAll") {
				return (...args: unknown[]) => {
					all = true;
					return target.retryAll(...(args as Parameters<MessageBatch<Message>["retryAll"]>));
				};
			}
			const value = Reflect.get(target, name);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
	return {
		batch: wrapped,
		retryAll: () => {
			all = true;
		},
		deleted: () =>
			all
				? 0
				: batch.messages
						.filter((message) => !retried.has(message.id))
						.reduce((sum, message) => sum + queueOperationsOf(message.body), 0),
	};
}

/** `target` with its method `name` calling `before` first. */
function withMethod<T extends object>(target: T, name: string, before: () => void): T {
	return new Proxy(target, {
		get(object, property) {
			const value = Reflect.get(object, property);
			if (typeof value !== "function") return value;
			if (property !== name) return value.bind(object);
			return (...args: unknown[]) => {
				before();
				return Reflect.apply(value as (...a: unknown[]) => unknown, object, args);
			};
		},
	});
}

/** `ctx`, but the promises handed to its `waitUntil` are added to `work` instead. */
function collectingWaitUntil(ctx: ExecutionContext, work: Promise<unknown>[]): ExecutionContext {
	return new Proxy(ctx, {
		get(target, name) {
			if (name === "waitUntil") {
				return (promise: Promise<unknown>) => {
					work.push(promise);
				};
			}
			const value = Reflect.get(target, name);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

function logCost(job: string, trace: CostTrace, extra: Record<string, unknown>): void {
	log.info("cost_trace", { cost_trace: job, cost: costHeader(trace.summary()), ...extra });
}

/** Runs an object's alarm, billing it as a request and its wall-clock time as the object's. */
async function timedAlarm(alarm: () => unknown): Promise<unknown> {
	bill("doAlarms");
	const started = Date.now();
	try {
		return await alarm();
	} finally {
		bill("doActiveMs", Date.now() - started);
	}
}

/** A Durable Object class: constructed with its state and environment. */
type ObjectClass = abstract new (ctx: DurableObjectState, env: Env) => object;

/**
 * `Base` with its environment traced and each of its methods answering a traced caller with its
 * result and its own cost; `Base` itself when `on` is false (the class is left alone).
 */
export function costTracedObject<C extends ObjectClass>(Base: C, on: boolean): C {
	if (!on) return Base;
	const methods = Object.getOwnPropertyNames(Base.prototype).filter(
		(name) =>
			name !== "constructor" && typeof Object.getOwnPropertyDescriptor(Base.prototype, name)?.value === "function",
	);
	const current = new AsyncLocalStorage<CostTrace>();
	// Extended as the plain ObjectClass (not the type parameter), so the subclass is no TypeScript mixin
	// and its constructor can say what it takes.
	const Plain: ObjectClass = Base;
	abstract class Traced extends Plain {
		constructor(ctx: DurableObjectState, env: Env) {
			super(ctx, env);
			(this as unknown as { env: Env }).env = tracedEnv(env, () => current.getStore());
		}
	}
	for (const name of methods) {
		const original = (Base.prototype as Record<string, (...args: unknown[]) => unknown>)[name];
		if (original === undefined) continue;
		Object.defineProperty(Traced.prototype, name, {
			configurable: true,
			writable: true,
			// Synchronous for every call but a traced caller's: the object's own methods call one another.
			value: function (this: object, ...args: unknown[]) {
				if (name === "alarm") return timedAlarm(() => original.apply(this, args));
				if (!isMark(args.at(-1))) return original.apply(this, args);
				const started = Date.now();
				const trace = new CostTrace();
				return current
					.run(trace, async () => original.apply(this, args.slice(0, -1)))
					.then((result) => envelope(result, trace.summary()))
					.finally(() => bill("doActiveMs", Date.now() - started));
			},
		});
	}
	return Traced as unknown as C;
}
