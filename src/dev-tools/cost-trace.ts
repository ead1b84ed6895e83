/**
 * The cost tracer, a measuring tool for development: what a request, a cron run or a queue batch
 * costs on Cloudflare, in the two units that matter there. Latency is mostly sequential round trips
 * (each D1 query or batch, each Durable Object call, each R2 operation, each queue send may cross a
 * region); D1 bills rows read and written (each result's `meta.rows_read` / `meta.rows_written`).
 *
 * Only on when the `COST_TRACE` variable is "1" (the cost bench's `wrangler dev --var COST_TRACE:1`
 * and the workers-traced test project; never in wrangler.toml). The entry decides once, at module
 * load: when it is off nothing is wrapped and none of this code runs. This file counts;
 * traced-bindings.ts wraps the bindings that do the counting; traced-entry.ts wraps the Worker's
 * handlers and Durable Object classes.
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

// ─── A Durable Object call's answer, with the object's own cost ─────────────────────────────────────────

// A Durable Object call made by a traced caller carries this last argument; the traced object then
// answers with its result and its own cost, in this envelope.
const MARK = "__cost_trace_call__";
const ENVELOPE_RESULT = "__cost_trace_result__";
const ENVELOPE_COST = "__cost_trace_cost__";
type Envelope = { [ENVELOPE_RESULT]: unknown; [ENVELOPE_COST]: CostSummary };

/** The last argument a traced caller adds to a Durable Object call. */
export const CALL_MARK = { [MARK]: true } as const;

export function isMark(value: unknown): boolean {
	return typeof value === "object" && value !== null && (value as Record<string, unknown>)[MARK] === true;
}

/** What a traced Durable Object answers a traced caller: its result and what producing it cost. */
export function envelope(result: unknown, cost: CostSummary): Envelope {
	return { [ENVELOPE_RESULT]: result, [ENVELOPE_COST]: cost };
}

function isEnvelope(value: unknown): value is Envelope {
	return typeof value === "object" && value !== null && ENVELOPE_COST in value;
}

/** A Durable Object's answer without its envelope (a call by an untraced caller has none). */
export function unwrap(answer: unknown): unknown {
	return isEnvelope(answer) ? answer[ENVELOPE_RESULT] : answer;
}
