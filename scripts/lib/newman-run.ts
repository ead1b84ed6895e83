/**
 * A Postman collection run with newman in this process, and what it came to: the requests sent,
 * each item's assertions and every failure. newman has no type declarations; its summary is read
 * through a schema of the fields used here.
 */
import { createRequire } from "node:module";
import { z } from "zod";

const AssertionSchema = z.looseObject({
	assertion: z.string(),
	error: z.looseObject({ message: z.string() }).optional(),
});
const ExecutionSchema = z.looseObject({
	item: z.looseObject({ name: z.string() }),
	assertions: z.array(AssertionSchema).optional(),
});
const CountSchema = z.looseObject({ total: z.number(), failed: z.number() });
const SummarySchema = z.looseObject({
	run: z.looseObject({
		stats: z.looseObject({ requests: CountSchema, assertions: CountSchema }),
		timings: z.looseObject({ started: z.number(), completed: z.number() }),
		executions: z.array(ExecutionSchema),
		failures: z.array(
			z.looseObject({
				error: z.looseObject({ message: z.string(), test: z.string().optional() }),
				source: z.looseObject({ name: z.string().optional() }).optional(),
			}),
		),
	}),
});

/** What a run came to. */
export type CollectionRun = {
	requests: number;
	assertions: number;
	/** "<request>: <test>: <message>", one per failed assertion, script error or request that got no answer. */
	failures: string[];
	durationMs: number;
	/** Each request sent, by name, in order (a request sent again, as a wait does, once per sending). */
	sent: string[];
	/** Names of the requests that were sent without any assertion. */
	withoutAssertions: string[];
};

type Run = (options: object, done: (error: Error | null, summary: unknown) => void) => unknown;

function newmanRun(): Run {
	const loaded: unknown = createRequire(import.meta.url)("newman");
	const run: unknown = typeof loaded === "object" && loaded !== null ? Reflect.get(loaded, "run") : undefined;
	if (typeof run !== "function") throw new Error("the newman package exports no run()");
	return (options, done) => Reflect.apply(run, loaded, [options, done]);
}

/**
 * Runs `collection` (a parsed collection or its URL) with `variables` as the run's environment and
 * `workingDir` as the folder its file bodies are read from; rejects after `timeoutMs`.
 */
export async function runCollection(options: {
	collection: object | string;
	variables: Readonly<Record<string, string>>;
	workingDir: string;
	timeoutMs: number;
}): Promise<CollectionRun> {
	const summary = await new Promise<unknown>((resolve, reject) => {
		const timer = setTimeout(
			() => reject(new Error(`newman did not finish within ${options.timeoutMs} ms`)),
			options.timeoutMs,
		);
		newmanRun()(
			{
				collection: options.collection,
				envVar: Object.entries(options.variables).map(([key, value]) => ({ key, value })),
				workingDir: options.workingDir,
				reporters: [],
			},
			(error, result) => {
				clearTimeout(timer);
				if (error === null) resolve(result);
				else reject(error);
			},
		);
	});
	const { run } = SummarySchema.parse(summary);
	// A failed assertion, a script's error and a request that got no answer are each a failure.
	const failures = run.failures.map(
		({ error, source }) => `${source?.name ?? "the run"}: ${error.test ?? "script"}: ${error.message}`,
	);
	return {
		requests: run.stats.requests.total,
		assertions: run.stats.assertions.total,
		failures,
		durationMs: run.timings.completed - run.timings.started,
		sent: run.executions.map((execution) => execution.item.name),
		withoutAssertions: run.executions
			.filter((execution) => (execution.assertions ?? []).length === 0)
			.map((execution) => execution.item.name),
	};
}
