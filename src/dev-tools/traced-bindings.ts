/**
 * The bindings as the cost tracer sees them: copies of D1, R2, the queue and Durable Object
 * namespaces that count each call into the current unit of work's trace (cost-trace.ts), and record
 * each distinct SQL statement for the query-plan test.
 */
import { bill, queueOperationsOf, r2OperationClass } from "./billing.ts";
import { CALL_MARK, type CostKind, type CostTrace, unwrap } from "./cost-trace.ts";

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
export type TraceOf = () => CostTrace | undefined;

function run<T>(traceOf: TraceOf, kind: CostKind, call: () => Promise<T>): Promise<T> {
	const trace = traceOf();
	return trace === undefined ? call() : trace.around(kind, call);
}

type D1Meta = { rows_read?: number; rows_written?: number };

/** Adds a D1 result's rows to the unit of work's trace, if any, and to the billed totals. */
function countRows(traceOf: TraceOf, meta: D1Meta | undefined): void {
	traceOf()?.addRows(meta);
	bill("d1RowsRead", meta?.rows_read ?? 0);
	bill("d1RowsWritten", meta?.rows_written ?? 0);
}

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
		countRows(this.traceOf, result.meta as D1Meta);
		return result;
	}

	async run<T>(): Promise<D1Result<T>> {
		record(this.sql, this.params);
		const result = await run(this.traceOf, "d1", () => this.inner.run<T>());
		countRows(this.traceOf, result.meta as D1Meta);
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
			for (const result of results) countRows(traceOf, result.meta as D1Meta);
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

const R2_UNIT = { A: "r2ClassA", B: "r2ClassB", free: "r2Free" } as const;

function tracedR2(bucket: R2Bucket, traceOf: TraceOf): R2Bucket {
	return new Proxy(bucket, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			const operationClass = typeof name === "string" ? r2OperationClass(name) : null;
			if (operationClass === null) return value.bind(target);
			return (...args: unknown[]) => {
				bill(R2_UNIT[operationClass]);
				return run(traceOf, "r2", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
			};
		},
	});
}

/** The queue operations a `send(body)` or a `sendBatch([{ body }, ...])` writes: each message's own. */
function queueWritesOf(method: "send" | "sendBatch", first: unknown): number {
	if (method === "send") return queueOperationsOf(first);
	if (!Array.isArray(first)) return 0;
	return first.reduce<number>((sum, message: { body?: unknown }) => sum + queueOperationsOf(message.body), 0);
}

function tracedQueue(queue: Queue, traceOf: TraceOf): Queue {
	return new Proxy(queue, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (name !== "send" && name !== "sendBatch") return value.bind(target);
			return (...args: unknown[]) => {
				bill("queueWrites", queueWritesOf(name, args[0]));
				return run(traceOf, "queue", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
			};
		},
	});
}

/**
 * A Durable Object stub whose RPC calls carry the tracer's mark, so a traced object answers with its
 * own cost beside the result, which the caller's trace folds in (`fetch` is counted as a plain call).
 */
function tracedStub(stub: object, traceOf: TraceOf): object {
	return new Proxy(stub, {
		get(target, name) {
			const value = Reflect.get(target, name);
			if (typeof value !== "function") return value;
			if (typeof name !== "string" || name === "then") return value.bind(target);
			if (name === "fetch") {
				return (...args: unknown[]) => {
					bill("doRequests");
					return run(traceOf, "do", () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, args));
				};
			}
			return (...args: unknown[]) => {
				// Each RPC call on a stub is its own session: one billed request.
				bill("doRequests");
				const trace = traceOf();
				const call = () => Reflect.apply(value as (...a: unknown[]) => Promise<unknown>, target, [...args, CALL_MARK]);
				return trace === undefined ? call().then(unwrap) : trace.aroundObjectCall(call);
			};
		},
	});
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
