/**
 * What the entry hands to the cost tracer (cost-trace.ts): its handlers and its Durable Object
 * classes, each returned with every binding it is given counted. The entry passes them through here
 * only when `costTracingOn` says so; otherwise the Worker runs exactly as written.
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { log } from "../log.ts";
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

/**
 * `worker` with each unit of work traced: each response carries `X-Cost`; each queue batch and each
 * cron run logs a `cost_trace` line with its cost (the cost bench reads them from the log).
 */
export function costTracedWorker<Message>(worker: TraceableWorker<Message>): TraceableWorker<Message> {
	return {
		async fetch(request, env, ctx) {
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
			await worker.queue(
				batch,
				tracedEnv(env, () => trace),
				ctx,
			);
			logCost(`queue:${batch.queue}`, trace, { messages: batch.messages.length });
		},
		scheduled(controller, env, ctx) {
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
				if (!isMark(args.at(-1))) return original.apply(this, args);
				const trace = new CostTrace();
				return current
					.run(trace, async () => original.apply(this, args.slice(0, -1)))
					.then((result) => envelope(result, trace.summary()));
			},
		});
	}
	return Traced as unknown as C;
}
