/**
 * One row's INSERT or UPDATE built from its named column values, so a table's column list is written
 * once (by its mapper) and the SQL text and the bound values cannot fall out of step.
 */

/** A value D1 binds to a column. */
export type ColumnValue = string | number | null;

/** A row's columns by name, each with the value it is written with, in the order the statement lists them. */
export type ColumnValues<Name extends string = string> = Readonly<Record<Name, ColumnValue>>;

/** A condition a row's statement applies under: SQL numbered from ?1, and its values. */
export type RowCondition = { sql: string; params: ReadonlyArray<ColumnValue> };

/**
 * `INSERT INTO table (columns) SELECT ?1, …, ?n`, written only where `condition` holds when one is
 * given (its parameters are numbered after the row's).
 */
export function insertRow(
	db: D1Database,
	table: string,
	values: ColumnValues,
	condition: RowCondition | null = null,
): D1PreparedStatement {
	const names = Object.keys(values);
	const placeholders = names.map((_, index) => `?${index + 1}`).join(", ");
	const where = condition === null ? "" : ` WHERE ${renumbered(condition.sql, names.length)}`;
	return db
		.prepare(`INSERT INTO ${table} (${names.join(", ")}) SELECT ${placeholders}${where}`)
		.bind(...Object.values(values), ...(condition?.params ?? []));
}

/** `UPDATE table SET column = ?1, … WHERE condition`, the condition's parameters numbered after the row's. */
export function updateRow(
	db: D1Database,
	table: string,
	values: ColumnValues,
	condition: RowCondition,
): D1PreparedStatement {
	const names = Object.keys(values);
	const assignments = names.map((name, index) => `${name} = ?${index + 1}`).join(", ");
	return db
		.prepare(`UPDATE ${table} SET ${assignments} WHERE ${renumbered(condition.sql, names.length)}`)
		.bind(...Object.values(values), ...condition.params);
}

/** The columns of `values` named in `names`, in that order. */
export function pickColumns<Name extends string, Picked extends Name>(
	values: ColumnValues<Name>,
	names: ReadonlyArray<Picked>,
): ColumnValues<Picked> {
	return Object.fromEntries(names.map((name) => [name, values[name]])) as Record<Picked, ColumnValue>;
}

/** `sql` with its parameters numbered after `offset` others (`?1` becomes `?<offset + 1>`). */
function renumbered(sql: string, offset: number): string {
	return sql.replace(/\?(\d+)/g, (_match, n: string) => `?${Number(n) + offset}`);
}
