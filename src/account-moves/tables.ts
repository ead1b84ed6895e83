/**
 * What an account move copies, checks and removes: every table of an account's rows, in the order a
 * copy must write them (a parent before its children), each with the key that orders its rows (its
 * primary key, or a unique key a parent's reference needs in order) and how its rows are told to be the
 * account's. The SQL is built from this plan, the one place a mover names another capability's tables,
 * as a migration does: it moves rows as they are, whatever they mean. Pure data and string building.
 */

/** A table of an account's rows, as the mover sees it. */
export type AccountTable = {
	table: string;
	/** The columns ordering the rows (unique together): batches are read after the last one done. */
	key: readonly string[];
	/** Rows with no account_id are the account's through their parent's (an order's items, a claim's photos). */
	parent?: { table: string; column: string };
	/** Only the partners' rows (idempotency claims: the ops console's and admins' stay in the directory). */
	partnerOnly?: true;
	/**
	 * How a batch is written to the target: `upsert` (a row again overwrites itself), `insert` (a row
	 * again is left as it is: ledger entries, whose trigger would count it twice), `rebuilt` (not copied:
	 * the months are the target's trigger's sums of the entries, then checked equal), `hold-expiry`
	 * (print files first without their expiry, which would refuse their items and photos; the full row after).
	 */
	write: "upsert" | "insert" | "rebuilt" | "hold-expiry";
};

const direct = (table: string, key: readonly string[] = ["id"]) => ({ table, key, write: "upsert" as const });
const ofOrder = (table: string, key: readonly string[]) => ({
	table,
	key,
	parent: { table: "orders", column: "order_id" },
	write: "upsert" as const,
});
const ofClaim = (table: string, key: readonly string[]) => ({
	table,
	key,
	parent: { table: "claims", column: "claim_id" },
	write: "upsert" as const,
});

/** The copy's order: parents first. The removal runs it backwards (children first). */
export const ACCOUNT_TABLES: readonly AccountTable[] = [
	direct("account_billing", ["account_id"]),
	direct("account_discounts", ["account_id"]),
	{ table: "print_files", key: ["id"], write: "hold-expiry" },
	direct("brand_profiles", ["account_id", "mode"]),
	direct("webhook_endpoints"),
	direct("quotes"),
	// A reprint refers to its original, made before it.
	direct("orders", ["created_at", "id"]),
	ofOrder("order_items", ["id"]),
	ofOrder("order_moves", ["order_id", "version"]),
	ofOrder("shipments", ["id"]),
	direct("events"),
	direct("deliveries"),
	direct("claims"),
	ofClaim("claim_items", ["claim_id", "item_id"]),
	ofClaim("claim_photos", ["print_file_id", "claim_id"]),
	{ table: "ledger_entries", key: ["id"], write: "insert" },
	{ table: "ledger_months", key: ["account_id", "mode", "currency", "month"], write: "rebuilt" },
	{
		table: "idempotency_keys",
		key: ["account_id", "mode", "credential_kind", "idempotency_key"],
		write: "upsert",
		partnerOnly: true,
	},
];

/** The copy's passes: each table once, and the print files again at the end with their expiry. */
export const COPY_PASSES: readonly { table: AccountTable; expiry: boolean }[] = [
	...ACCOUNT_TABLES.filter(({ write }) => write !== "rebuilt").map((table) => ({
		table,
		expiry: table.write !== "hold-expiry",
	})),
	...ACCOUNT_TABLES.filter(({ write }) => write === "hold-expiry").map((table) => ({ table, expiry: true })),
];

/** Rows read, written or deleted in one statement. */
export const BATCH_ROWS = 200;

/** `WHERE` for the account's rows of `table` (as `t`), the account id bound as ?1. */
export function ownedBy(table: AccountTable): string {
	const own = table.parent
		? `EXISTS (SELECT 1 FROM ${table.parent.table} p WHERE p.id = t.${table.parent.column} AND p.account_id = ?1)`
		: "t.account_id = ?1";
	return table.partnerOnly ? `${own} AND t.credential_kind = 'partner'` : own;
}

/** The next batch of the account's rows after `after` (the last key done, or null), in key order. */
export function selectBatch(table: AccountTable, after: readonly unknown[] | null): { sql: string; params: unknown[] } {
	const key = table.key.map((column) => `t.${column}`).join(", ");
	const marks = table.key.map((_, index) => `?${index + 2}`).join(", ");
	const past = after === null ? "" : ` AND (${key}) > (${marks})`;
	return {
		sql: `SELECT t.* FROM ${table.table} t WHERE ${ownedBy(table)}${past} ORDER BY ${key} LIMIT ${BATCH_ROWS}`,
		params: after === null ? [] : [...after],
	};
}

/** The statement writing `row` to the target, as the table's `write` says (`expiry: false` holds it back). */
export function writeRow(
	table: AccountTable,
	row: Record<string, unknown>,
	expiry: boolean,
): { sql: string; params: unknown[] } {
	const columns = Object.keys(row);
	const params = columns.map((column) => (!expiry && column === "expired_at" ? null : (row[column] ?? null)));
	const marks = columns.map((_, index) => `?${index + 1}`).join(", ");
	const insert = `INSERT INTO ${table.table} (${columns.join(", ")}) VALUES (${marks})`;
	if (table.write === "insert") return { sql: `${insert} ON CONFLICT DO NOTHING`, params };
	const keyColumns = table.key.includes("id") ? ["id"] : table.key;
	const set = columns
		.filter((column) => !keyColumns.includes(column))
		.map((column) => `${column} = excluded.${column}`);
	return { sql: `${insert} ON CONFLICT (${keyColumns.join(", ")}) DO UPDATE SET ${set.join(", ")}`, params };
}

/** One batch of the account's rows of `table` deleted, last key first (a reprint before its original), the account id bound as ?1. */
export function deleteBatch(table: AccountTable): string {
	const key = table.key.join(", ");
	return `DELETE FROM ${table.table} WHERE (${key}) IN (SELECT ${table.key.map((c) => `t.${c}`).join(", ")} FROM ${table.table} t WHERE ${ownedBy(table)} ORDER BY ${table.key.map((c) => `t.${c} DESC`).join(", ")} LIMIT ${BATCH_ROWS})`;
}

/** The account's rows of `table` counted, the account id bound as ?1. */
export function countRows(table: AccountTable): string {
	return `SELECT COUNT(*) AS rows FROM ${table.table} t WHERE ${ownedBy(table)}`;
}

/** A row as canonical JSON: its columns in name order, so two databases' copies of it read the same. */
export function canonicalRow(row: Record<string, unknown>): string {
	return JSON.stringify(
		Object.keys(row)
			.sort()
			.map((column) => [column, row[column] ?? null]),
	);
}
