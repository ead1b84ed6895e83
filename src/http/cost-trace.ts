/**
 * The cost tracer (issue 16): what a request, a cron run or a queue batch costs on Cloudflare, in the
 * two units that matter there. Latency is mostly sequential round trips (each D1 query or batch, each
 * Durable Object call, each R2 operation, each queue send may cross a region); D1 bills rows read and
 * written (each result's `meta.rows_read` / `meta.rows_written`).
 *
 * Only on when the `COST_TRACE` variable is "1" (the cost bench's `wrangler dev --var COST_TRACE:1`
 * and one test project; never in wrangler.toml). The entry decides once, at module load: when it is
 * off nothing is wrapped and none of this code runs.
 *
 * - A call is a new *sequential* hop when it starts while no other traced call is in flight: calls
 *   started together (Promise.all) count once, under the kind of the first.
 * - Work inside a Durable Object (its own D1 queries, its calls to other objects) is traced there, in
 *   the object's own environment, and returned to the caller with the call's result, which folds it
 *   in: its rows add up; its sequential hops add to the caller's, taking the deepest of calls made
 *   side by side. So `d1` counts the D1 round trips on the request's path wherever they are made, and
 *   `inner_d1` says how many of them a Durable Object made.
 * - Work left running after the answer (waitUntil, a sender's background attempt) is not counted.
 */
import { AsyncLocalStorage } from "node:async_hooks";

/** The kinds of round trip counted. */
export const COST_KINDS = ["d1", "do", "r2", "queue"] as const;
export type CostKind = (typeof COST_KINDS)[number];

type ByKind = Record<CostKind, number>;

/** What a traced unit of work cost. */
export type CostSummary = {
	/** Sequential round trips by kind (the request's path, Durable Objects' own work included). */
	hops: ByKind;
	/** Every call by kind, side-by-side ones included. */
	calls: ByKind;
	/** Of the sequential D1 round trips, those made inside Durable Objects. */
	innerD1: number;
	rowsRead: number;
	rowsWritten: number;
};

function zero(): ByKind {
	return { d1: 0, do: 0, r2: 0, queue: 0 };
}

/** Whether the variables turn the tracer on. */
export function costTracingOn(env: object): boolean {
	return (env as { COST_TRACE?: unknown }).COST_TRACE === "1";
}

/** Counts the round trips and D1 rows of one unit of work. */
export class CostTrace {
	readonly #hops = zero();
	readonly #calls = zero();
	#rowsRead = 0;
	#rowsWritten = 0;
	#inFlight = 0;
	#hop = 0;
	/** Per hop (by number), the deepest Durable Object work started in it. */
	readonly #inner = new Map<number, CostSummary>();
	#innerRowsRead = 0;
	#innerRowsWritten = 0;
	#innerCalls = zero();

	/** Runs one round trip of `kind`, counting it. */
	async around<T>(kind: CostKind, call: () => Promise<T>): Promise<T> {
		this.#start(kind);
		try {
			return await call();
		} finally {
			this.#inFlight -= 1;
		}
	}

	/** Counts the start of a call; returns the hop it belongs to. */
	#start(kind: CostKind): number {
		if (this.#inFlight === 0) {
			this.#hop += 1;
			this.#hops[kind] += 1;
		}
		this.#calls[kind] += 1;
		this.#inFlight += 1;
		return this.#hop;
	}

	/** A Durable Object call: counted as a round trip, with the object's own work folded in from its answer. */
	async aroundObjectCall(call: () => Promise<unknown>): Promise<unknown> {
		const hop = this.#start("do");
		try {
			const answer = await call();
			if (!isEnvelope(answer)) return answer;
			this.#foldInner(hop, answer[ENVELOPE_COST]);
			return answer[ENVELOPE_RESULT];
		} finally {
			this.#inFlight -= 1;
		}
	}

	#foldInner(hop: number, inner: CostSummary): void {
		this.#innerRowsRead += inner.rowsRead;
		this.#innerRowsWritten += inner.rowsWritten;
		for (const kind of COST_KINDS) this.#innerCalls[kind] += inner.calls[kind];
		const deepest = this.#inner.get(hop);
		if (deepest === undefined || depth(inner) > depth(deepest)) this.#inner.set(hop, inner);
	}

	/** Adds a D1 result's rows. */
	addRows(meta: { rows_read?: number; rows_written?: number } | undefined): void {
		this.#rowsRead += meta?.rows_read ?? 0;
		this.#rowsWritten += meta?.rows_written ?? 0;
	}

	summary(): CostSummary {
		const hops = { ...this.#hops };
		let innerD1 = 0;
		for (const inner of this.#inner.values()) {
			for (const kind of COST_KINDS) hops[kind] += inner.hops[kind];
			innerD1 += inner.hops.d1;
		}
		const calls = { ...this.#calls };
		for (const kind of COST_KINDS) calls[kind] += this.#innerCalls[kind];
		return {
			hops,
			calls,
			innerD1,
			rowsRead: this.#rowsRead + this.#innerRowsRead,
			rowsWritten: this.#rowsWritten + this.#innerRowsWritten,
		};
	}
}

function depth(summary: CostSummary): number {
	return COST_KINDS.reduce((sum, kind) => sum + summary.hops[kind], 0);
}

/** The `X-Cost` header: `d1=2;do=1;r2=0;queue=0;inner_d1=0;rows_read=5;rows_written=0;calls=d1:2,do:1,r2:0,queue:0`. */
export function costHeader(summary: CostSummary): string {
	const hops = COST_KINDS.map((kind) => `${kind}=${summary.hops[kind]}`).join(";");
	const calls = COST_KINDS.map((kind) => `${kind}:${summary.calls[kind]}`).join(",");
	return `${hops};inner_d1=${summary.innerD1};rows_read=${summary.rowsRead};rows_written=${summary.rowsWritten};calls=${calls}`;
}

// ─── The statements the traced D1 bindings run, for the query-plan test ───────────────────────────────

/** A statement as run: its SQL and the values bound to it. */
export type RecordedStatement = { sql: string; params: unknown[] };

const SINK = Symbol.for("framed-print-api.cost-trace.statements");

/**
 * Starts recording every distinct SQL text the traced D1 bindings run (the worker's and the Durable
 * Objects' alike, in this isolate), with the first values bound to it. Returns the record.
 */
export function recordStatements(): Map<string, RecordedStatement> {
	const sink = new Map<string, RecordedStatement>();
	(globalThis as { [SINK]?: Map<string, RecordedStatement> })[SINK] = sink;
	return sink;
}

function record(sql: string, params: unknown[]): void {
	const sink = (globalThis as { [SINK]?: Map<string, RecordedStatement> })[SINK];
	if (sink !== undefined && !sink.has(sql)) sink.set(sql, { sql, params });
}

// ─── Wrapping the bindings ──────────────────────────────────────────────────────────────────────────────

/** Where a traced binding counts: the current unit of work's trace, or none (then it only records SQL). */
type TraceOf = () => CostTrace | undefined;

function run<T>(traceOf: TraceOf, kind: CostKind, call: () => Promise<T>): Promise<T> {
	const trace = traceOf();
	return trace === undefined ? call() : trace.around(kind, call);
}

type D1Meta = { rows_read?: number; rows_written?: number };

/** A prepared statement that counts its run; keeps the real one for batches. */
class TracedStatement {
	constructor(
		readonly inner: D1PreparedStatement,
		readonly sql: string,
		readonly params: unknown[],
		private readonly traceOf: TraceOf,
	) {}

	bind(...values: unknown[]): TracedStatement {
		return new TracedStatement(this.inner.bind(...values), this.sql, values, this.traceOf);
	}

	async all<T>(): Promise<D1Result<T>> {
		record(this.sql, this.params);
		const result = await run(this.traceOf, "d1", () => this.inner.all<T>());
		this.traceOf()?.addRows(result.meta as D1Meta);
		return result;
	}

	async run<T>(): Promise<D1Result<T>> {
		record(this.sql, this.params);
		const result = await run(this.traceOf, "d1", () => this.inner.run<T>());
		this.traceOf()?.addRows(result.meta as D1Meta);
		return result;
	}

	/** As D1's `first`, through `all` (which reads the same rows) to see the result's meta. */
	async first<T>(column?: string): Promise<T | null> {
		const { results } = await this.all<Record<string, unknown>>();
		const row = results[0];
		if (row === undefined) return null;
		if (column === undefined) return row as T;
		if (!(column in row)) throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${column})`);
		return row[column] as T;
	}

	/** D1's `raw` gives no meta: counted as a round trip, without its rows. */
	raw(options?: { columnNames?: boolean }): Promise<unknown> {
		record(this.sql, this.params);
		return run(this.traceOf, "d1", () => this.inner.raw(options as { columnNames?: false }));
	}
}

/** What a database and a session both do: prepare statements and run them in batches. */
type D1Runner = Pick<D1Database, "prepare" | "batch">;

/** `prepare` and `batch` of `db` (a database or a session), counted into the trace. */
function tracedRunner(db: D1Runner, traceOf: TraceOf) {
	return {
		prepare: (sql: string) => new TracedStatement(db.prepare(sql), sql, [], traceOf),
		async batch<T>(statements: D1PreparedStatement[]): Promise<D1Result<T>[]> {
			const inner = statements.map((statement) => {
				if (statement instanceof TracedStatement) {
					record(statement.sql, statement.params);
					return statement.inner;
				}
				return statement;
			});
			const results = await run(traceOf, "d1", () => db.batch<T>(inner));
			for (const result of results) traceOf()?.addRows(result.meta as D1Meta);
			return results;
		},
	};
}

function tracedD1(db: D1Database, traceOf: TraceOf): D1Database {
	const traced = {
		...tracedRunner(db, traceOf),
		exec: (query: string) => run(traceOf, "d1", () => db.exec(query)),
		// A session's queries are counted like the database's own.
		withSession: (constraint?: D1SessionBookmark | D1SessionConstraint) => {
			const session = db.withSession(constraint);
			return { ...tracedRunner(session, traceOf), getBookmark: () => session.getBookmark() };
		},
		dump: () => db.dump(),
	};
	return traced as unknown as D1Database;
}

const R2_CALLS = new Set(["get", "put", "head", "list", "delete", "createMultipartUpload"]);

function tracedR2(bucket: R2Bucket, traceOf: TraceOf): R2Bucket {
	return new Proxy(bucket, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (typeof name !== "string" || !R2_CALLS.has(name)) return value.bind(target);
			return (...args: unknown[]) =>
				run(traceOf, "r2", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
		},
	});
}

function tracedQueue(queue: Queue, traceOf: TraceOf): Queue {
	return new Proxy(queue, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (name !== "send" && name !== "sendBatch") return value.bind(target);
			return (...args: unknown[]) =>
				run(traceOf, "queue", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
		},
	});
}

// A Durable Object call made by a traced caller carries this last argument; the traced object then
// answers with its result and its own cost.
const MARK = "__cost_trace_call__";
const ENVELOPE_RESULT = "__cost_trace_result__";
const ENVELOPE_COST = "__cost_trace_cost__";
type Envelope = { [ENVELOPE_RESULT]: unknown; [ENVELOPE_COST]: CostSummary };

function isMark(value: unknown): boolean {
	return typeof value === "object" && value !== null && (value as Record<string, unknown>)[MARK] === true;
}

function isEnvelope(value: unknown): value is Envelope {
	return typeof value === "object" && value !== null && ENVELOPE_COST in value;
}

function tracedStub(stub: object, traceOf: TraceOf): object {
	return new Proxy(stub, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (typeof name !== "string" || name === "then") return value.bind(target);
			if (name === "fetch") {
				return (...args: unknown[]) =>
					run(traceOf, "do", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
			}
			return (...args: unknown[]) => {
				const trace = traceOf();
				const call = () =>
					Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, [...args, { [MARK]: true }]);
				return trace === undefined ? call().then(unwrap) : trace.aroundObjectCall(call);
			};
		},
	});
}

function unwrap(answer: unknown): unknown {
	return isEnvelope(answer) ? answer[ENVELOPE_RESULT] : answer;
}

function tracedNamespace(namespace: DurableObjectNamespace, traceOf: TraceOf): DurableObjectNamespace {
	return new Proxy(namespace, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (name !== "get" && name !== "getByName") return value.bind(target);
			return (...args: unknown[]) =>
				tracedStub(Reflect.apply(value as (...a: unknown[]) => object, target, args), traceOf);
		},
	});
}

function has(value: unknown, ...names: string[]): boolean {
	return typeof value === "object" && value !== null && names.every((name) => name in value);
}

/** A copy of `env` whose D1, Durable Object, R2 and queue bindings count into `traceOf()`'s trace. */
export function tracedEnv<E extends object>(env: E, traceOf: TraceOf): E {
	const copy: Record<string, unknown> = { ...(env as Record<string, unknown>) };
	for (const [name, value] of Object.entries(copy)) {
		if (has(value, "prepare", "batch", "exec")) copy[name] = tracedD1(value as D1Database, traceOf);
		else if (has(value, "idFromName", "get")) copy[name] = tracedNamespace(value as DurableObjectNamespace, traceOf);
		else if (has(value, "head", "put", "get", "list")) copy[name] = tracedR2(value as R2Bucket, traceOf);
		else if (has(value, "send", "sendBatch")) copy[name] = tracedQueue(value as Queue, traceOf);
	}
	return copy as E;
}

// ─── Durable Objects ───────────────────────────────────────────────────────────────────────────────────

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
					.then((result) => ({ [ENVELOPE_RESULT]: result, [ENVELOPE_COST]: trace.summary() }) satisfies Envelope);
			},
		});
	}
	return Traced as unknown as C;
}
