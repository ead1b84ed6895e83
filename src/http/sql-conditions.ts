/** SQL conditions joined by AND, with their values in the order of their `?`s: a WHERE built from the filters asked for. */
export type Conditions = { sql: string[]; params: unknown[] };

/** No conditions yet. */
export function noConditions(): Conditions {
	return { sql: [], params: [] };
}

/** Adds `sql` (with `?` placeholders) and its values. */
export function condition(into: Conditions, sql: string, ...params: unknown[]): void {
	into.sql.push(sql);
	into.params.push(...params);
}

/** The conditions as one SQL expression. */
export function allConditions({ sql }: Conditions): string {
	return sql.join(" AND ");
}
