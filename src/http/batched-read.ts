/**
 * Reads that share one D1 round trip. A module that owns a table offers its read as a statement and
 * a way to make sense of the statement's rows; a route that needs several of them runs them in one
 * batch instead of one query each.
 */

/** One read: its statements, and how their results become the value. */
export type BatchedRead<T> = {
	statements: D1PreparedStatement[];
	read: (results: D1Result[]) => T;
};

type ValuesOf<R extends Record<string, BatchedRead<unknown>>> = {
	[K in keyof R]: R[K] extends BatchedRead<infer T> ? T : never;
};

/** A read of one row by `statement`, or null. The row type is what the statement selects. */
export function rowRead<Row, T = Row | null>(
	statement: D1PreparedStatement,
	toValue: (row: Row | null) => T,
): BatchedRead<T> {
	return {
		statements: [statement],
		read: ([result]) => toValue((result?.results[0] as Row | undefined) ?? null),
	};
}

/** A value already known: no statement at all. */
export function known<T>(value: T): BatchedRead<T> {
	return { statements: [], read: () => value };
}

/** Reads side by side, as one read of them all (in their order). */
export function allOf<T>(reads: BatchedRead<T>[]): BatchedRead<T[]> {
	return {
		statements: reads.flatMap((read) => read.statements),
		read: (results) => {
			let at = 0;
			return reads.map((read) => {
				const value = read.read(results.slice(at, at + read.statements.length));
				at += read.statements.length;
				return value;
			});
		},
	};
}

/** Named reads as one read whose value has each read's value under its name. */
export function combine<R extends Record<string, BatchedRead<unknown>>>(reads: R): BatchedRead<ValuesOf<R>> {
	const entries = Object.entries(reads);
	return {
		statements: entries.flatMap(([, read]) => read.statements),
		read: (results) => {
			const values: Record<string, unknown> = {};
			let at = 0;
			for (const [name, read] of entries) {
				values[name] = read.read(results.slice(at, at + read.statements.length));
				at += read.statements.length;
			}
			// Each name was given the value of its own read above.
			return values as ValuesOf<R>;
		},
	};
}

/** Runs one read's statements in one D1 batch (no round trip when it has none). */
export async function readOne<T>(db: D1Database, read: BatchedRead<T>): Promise<T> {
	return read.read(read.statements.length === 0 ? [] : await db.batch(read.statements));
}

/** Runs the named reads in one D1 batch; their values by name. */
export function readTogether<R extends Record<string, BatchedRead<unknown>>>(
	db: D1Database,
	reads: R,
): Promise<ValuesOf<R>> {
	return readOne(db, combine(reads));
}
