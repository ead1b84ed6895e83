/**
 * What Cloudflare bills, counted as the tracer's bindings and handlers see it: the dollar bench
 * (`npm run bench:dollars`) reads the totals and prices them. Unlike a trace (cost-trace.ts), which
 * follows one unit of work up to its answer, these totals add up everything this isolate does:
 * background work after an answer, queue consumers, Durable Objects' alarms, the cron.
 *
 * The units are the bill's: a Worker invocation (an incoming fetch, a queue batch handed to the
 * consumer, a cron run), a Durable Object request (each RPC call on a stub, each fetch, each alarm),
 * D1 rows read and written (each result's meta), R2 operations by class (put, list and multipart
 * creation are class A; get and head class B; delete is free), and queue operations (each message
 * written, read and deleted costs one per 64 KB, with about 100 bytes of metadata).
 */

/** The billed units counted so far. */
export type Billed = {
	/** Incoming fetches to the Worker (the tracer's own totals route left out). */
	workerRequests: number;
	/** Queue batches handed to the consumer: one invocation each. */
	queueInvocations: number;
	/** Cron runs. */
	cronInvocations: number;
	/** Durable Object requests: RPC calls and fetches on stubs. */
	doRequests: number;
	/** Durable Object alarms run (each billed as a request). */
	doAlarms: number;
	/** Wall-clock milliseconds Durable Objects spent answering calls and alarms (calls side by side each counted). */
	doActiveMs: number;
	d1RowsRead: number;
	d1RowsWritten: number;
	r2ClassA: number;
	r2ClassB: number;
	/** R2 operations that are free (delete). */
	r2Free: number;
	/** Queue operations: 64 KB units written, read and deleted. */
	queueWrites: number;
	queueReads: number;
	queueDeletes: number;
};

/** The path the traced Worker answers with its totals (never routed to the app, never counted). */
export const BILLED_PATH = "/__cost-trace/billed";

function zero(): Billed {
	return {
		workerRequests: 0,
		queueInvocations: 0,
		cronInvocations: 0,
		doRequests: 0,
		doAlarms: 0,
		doActiveMs: 0,
		d1RowsRead: 0,
		d1RowsWritten: 0,
		r2ClassA: 0,
		r2ClassB: 0,
		r2Free: 0,
		queueWrites: 0,
		queueReads: 0,
		queueDeletes: 0,
	};
}

// On globalThis, so every copy of this module in the isolate (the Worker's, its Durable Objects', a
// test's) adds to the same totals.
const TOTALS = Symbol.for("framed-print-api.cost-trace.billed");

function totals(): Billed {
	const holder = globalThis as { [TOTALS]?: Billed };
	holder[TOTALS] ??= zero();
	return holder[TOTALS];
}

/** Adds `count` to one billed unit. */
export function bill(unit: keyof Billed, count = 1): void {
	totals()[unit] += count;
}

/** A copy of the totals so far: read before and after a stretch of work, the difference is its bill. */
export function billedSoFar(): Billed {
	return { ...totals() };
}

/** Each unit of `after` less `before`. */
export function billedBetween(before: Billed, after: Billed): Billed {
	const difference = zero();
	for (const unit of Object.keys(difference) as (keyof Billed)[]) difference[unit] = after[unit] - before[unit];
	return difference;
}

/** The R2 class an R2 binding's method is billed in; null for methods that are not operations. */
export function r2OperationClass(method: string): "A" | "B" | "free" | null {
	switch (method) {
		case "put":
		case "list":
		case "createMultipartUpload":
			return "A";
		case "get":
		case "head":
			return "B";
		case "delete":
			return "free";
		default:
			return null;
	}
}

/** Bytes a queue bills per operation unit (a KB is 1,000 bytes) and the metadata each message carries. */
const QUEUE_UNIT_BYTES = 64_000;
const QUEUE_MESSAGE_METADATA_BYTES = 100;

/** The queue operations one write (or read, or delete) of a message with `body` costs: one per 64 KB. */
export function queueOperationsOf(body: unknown): number {
	const bytes = messageBytes(body) + QUEUE_MESSAGE_METADATA_BYTES;
	return Math.max(1, Math.ceil(bytes / QUEUE_UNIT_BYTES));
}

/** A message body's size as sent: raw bytes as they are, anything else as its JSON. */
function messageBytes(body: unknown): number {
	if (body instanceof ArrayBuffer) return body.byteLength;
	if (ArrayBuffer.isView(body)) return body.byteLength;
	const text = typeof body === "string" ? body : (JSON.stringify(body) ?? "");
	return new TextEncoder().encode(text).byteLength;
}
