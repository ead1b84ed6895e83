/**
 * The moves' D1 statements: each move's progress (`account_moves`, in the directory), the placements a
 * switch writes (`account_placements`, in the directory, read by src/databases.ts), and the fences every
 * database keeps (`account_fences`, whose triggers refuse the writes: migration 0044).
 */

/** A move's states, in the order it goes through them (`failed` from `verifying` only). */
export const MOVE_STATES = [
	"fencing",
	"clearing",
	"copying",
	"verifying",
	"switching",
	"draining",
	"removing",
	"done",
	"failed",
] as const;
export type MoveState = (typeof MOVE_STATES)[number];

/** A table's rows and content hash, as verified in the account's old and new database. */
export type VerifiedTable = { table: string; rows: number; hash: string; target_rows: number; target_hash: string };

/** A move, as stored. */
export type MoveRow = {
	id: string;
	account_id: string;
	from_binding: string;
	to_binding: string;
	state: MoveState;
	step: number;
	cursor: string | null;
	copied_rows: number;
	removed_rows: number;
	tables: string;
	error: string | null;
	created_at: string;
	updated_at: string;
	switched_at: string | null;
	finished_at: string | null;
};

/** The account's latest move (under way or not), or null. */
export async function latestMove(directory: D1Database, accountId: string): Promise<MoveRow | null> {
	return directory
		.prepare("SELECT * FROM account_moves WHERE account_id = ?1 ORDER BY created_at DESC, id DESC LIMIT 1")
		.bind(accountId)
		.first<MoveRow>();
}

/** Starts a move (the unique index refuses a second one under way: false then). */
export async function insertMove(directory: D1Database, move: MoveRow): Promise<boolean> {
	const result = await directory
		.prepare(
			`INSERT INTO account_moves (id, account_id, from_binding, to_binding, state, step, cursor, created_at, updated_at)
			 VALUES (?1, ?2, ?3, ?4, ?5, 0, NULL, ?6, ?6) ON CONFLICT DO NOTHING`,
		)
		.bind(move.id, move.account_id, move.from_binding, move.to_binding, move.state, move.created_at)
		.run();
	return result.meta.changes === 1;
}

/** The fields a step changes. */
export type MoveProgress = Partial<
	Pick<
		MoveRow,
		"state" | "step" | "cursor" | "copied_rows" | "removed_rows" | "tables" | "error" | "switched_at" | "finished_at"
	>
>;

/** The statement saving a step's progress of `move` (for a batch). */
export function progressStatement(
	directory: D1Database,
	move: MoveRow,
	progress: MoveProgress,
	now: Date,
): D1PreparedStatement {
	const next = { ...move, ...progress };
	return directory
		.prepare(
			`UPDATE account_moves SET state = ?2, step = ?3, cursor = ?4, copied_rows = ?5, removed_rows = ?6, tables = ?7,
			   error = ?8, switched_at = ?9, finished_at = ?10, updated_at = ?11 WHERE id = ?1`,
		)
		.bind(
			move.id,
			next.state,
			next.step,
			next.cursor,
			next.copied_rows,
			next.removed_rows,
			next.tables,
			next.error,
			next.switched_at,
			next.finished_at,
			now.toISOString(),
		);
}

/** A fence's states: every write refused, deletes let through, every write refused for good. */
export type FenceState = "frozen" | "removing" | "moved";

/** Fences `accountId` in `database`. */
export async function setFence(database: D1Database, accountId: string, state: FenceState, now: Date): Promise<void> {
	await database
		.prepare(
			`INSERT INTO account_fences (account_id, state, updated_at) VALUES (?1, ?2, ?3)
			 ON CONFLICT (account_id) DO UPDATE SET state = excluded.state, updated_at = excluded.updated_at`,
		)
		.bind(accountId, state, now.toISOString())
		.run();
}

/** Takes `accountId`'s fence down in `database` (the target, before the copy; the source, after a failed check). */
export async function liftFence(database: D1Database, accountId: string): Promise<void> {
	await database.prepare("DELETE FROM account_fences WHERE account_id = ?1").bind(accountId).run();
}

/** `accountId`'s fence in `database`, or null. */
export async function fenceOf(database: D1Database, accountId: string): Promise<FenceState | null> {
	const row = await database
		.prepare("SELECT state FROM account_fences WHERE account_id = ?1")
		.bind(accountId)
		.first<{ state: FenceState }>();
	return row?.state ?? null;
}
