/**
 * Moving one account's rows from its database to another, in bounded steps each safe to run again after
 * a crash (the move's state in the directory says where it is): fence the source (every write refused),
 * clear the target of the rows a failed try left, copy table by table in key order, verify each
 * table's row count and content hash in both, switch the placement in one directory write, wait until
 * every isolate's copy of the placements has expired, remove the old rows (children first), and leave
 * the source fenced for good. Reads go to the source until the switch and to the target after it.
 */
import { copyAccountRow } from "../accounts/store.ts";
import { configOf } from "../config.ts";
import { primaryBookmarks } from "../database-sessions.ts";
import { databaseNamed, directoryDatabase, forgetPlacements, placementStatement } from "../databases.ts";
import {
	liftFence,
	type MoveProgress,
	type MoveRow,
	progressStatement,
	setFence,
	type VerifiedTable,
} from "./store.ts";
import {
	ACCOUNT_TABLES,
	type AccountTable,
	BATCH_ROWS,
	COPY_PASSES,
	canonicalRow,
	deleteBatch,
	selectBatch,
	writeRow,
} from "./tables.ts";

/** Extra wait past PLACEMENT_TTL_SECONDS before the old rows go: a request that read its placement just then ends. */
const DRAIN_MARGIN_MS = 2000;

/** The move after one more bounded step (a batch copied, a table verified, ...), its progress saved. */
export async function stepMove(env: Env, move: MoveRow, now = new Date()): Promise<MoveRow> {
	const progress = await nextProgress(env, move, now);
	if (progress === null) return move;
	await progressStatement(directoryDatabase(env), move, progress, now).run();
	return { ...move, ...progress, updated_at: now.toISOString() };
}

/** Whether the move has nothing left to do (done, or failed). */
export function isFinished(move: MoveRow): boolean {
	return move.state === "done" || move.state === "failed";
}

/** What one step does, and the progress it makes (null: nothing to do yet, the drain still running). */
async function nextProgress(env: Env, move: MoveRow, now: Date): Promise<MoveProgress | null> {
	const source = databaseNamed(env, move.from_binding);
	const target = databaseNamed(env, move.to_binding);
	const account = move.account_id;
	switch (move.state) {
		case "fencing":
			await setFence(source, account, "frozen", now);
			await liftFence(target, account);
			await copyAccountRow(directoryDatabase(env), target, account);
			return { state: "clearing", step: 0, cursor: null };
		case "clearing": {
			const removing = [...ACCOUNT_TABLES].reverse();
			const table = removing[move.step];
			if (table === undefined) return { state: "copying", step: 0, cursor: null };
			const removed = await removeBatch(target, table, account);
			return removed < BATCH_ROWS ? { step: move.step + 1 } : {};
		}
		case "copying":
			return copyBatch(source, target, move);
		case "verifying":
			return verifyTable(source, target, move);
		case "switching": {
			const directory = directoryDatabase(env);
			// Where the copy left the target's primary: the account's reads start there, never on a replica behind it.
			const { [move.to_binding]: copied = null } = await primaryBookmarks(env, [move.to_binding]);
			await directory.batch([
				placementStatement(env, account, move.to_binding, copied, now),
				progressStatement(directory, move, { state: "draining", switched_at: now.toISOString() }, now),
			]);
			forgetPlacements();
			return { state: "draining", switched_at: now.toISOString() };
		}
		case "draining": {
			const switchedAt = Date.parse(move.switched_at ?? move.updated_at);
			if (now.getTime() < switchedAt + configOf(env).PLACEMENT_TTL_SECONDS * 1000 + DRAIN_MARGIN_MS) return null;
			await setFence(source, account, "removing", now);
			return { state: "removing", step: 0, cursor: null };
		}
		case "removing": {
			const removing = [...ACCOUNT_TABLES].reverse();
			const table = removing[move.step];
			if (table === undefined) {
				await setFence(source, account, "moved", now);
				return { state: "done", finished_at: now.toISOString() };
			}
			const removed = await removeBatch(source, table, account);
			return { removed_rows: move.removed_rows + removed, ...(removed < BATCH_ROWS ? { step: move.step + 1 } : {}) };
		}
		case "done":
		case "failed":
			return null;
	}
}

/** One batch of the current pass copied to the target; the pass's end moves on to the next, the last to verifying. */
async function copyBatch(source: D1Database, target: D1Database, move: MoveRow): Promise<MoveProgress> {
	const pass = COPY_PASSES[move.step];
	if (pass === undefined) return { state: "verifying", step: 0, cursor: null, tables: "[]" };
	const after = move.cursor === null ? null : (JSON.parse(move.cursor) as unknown[]);
	const rows = await readBatch(source, pass.table, move.account_id, after);
	if (rows.length > 0) {
		await target.batch(
			rows.map((row) => {
				const { sql, params } = writeRow(pass.table, row, pass.expiry);
				return target.prepare(sql).bind(...params);
			}),
		);
	}
	const last = rows.at(-1);
	const copied = move.copied_rows + rows.length;
	if (last === undefined || rows.length < BATCH_ROWS) return { step: move.step + 1, cursor: null, copied_rows: copied };
	return { cursor: JSON.stringify(pass.table.key.map((column) => last[column] ?? null)), copied_rows: copied };
}

/** The current table's count and hash read in both databases: equal moves on (the last to switching), else the move fails. */
async function verifyTable(source: D1Database, target: D1Database, move: MoveRow): Promise<MoveProgress> {
	const table = ACCOUNT_TABLES[move.step];
	if (table === undefined) return { state: "switching", step: 0 };
	const [before, after] = await Promise.all([
		summarize(source, table, move.account_id),
		summarize(target, table, move.account_id),
	]);
	const verified: VerifiedTable = {
		table: table.table,
		rows: before.rows,
		hash: before.hash,
		target_rows: after.rows,
		target_hash: after.hash,
	};
	const tables = JSON.stringify([...(JSON.parse(move.tables) as VerifiedTable[]), verified]);
	if (before.rows === after.rows && before.hash === after.hash) return { step: move.step + 1, tables };
	// The source takes writes again; the rows copied stay in the target until a new move clears them.
	await liftFence(source, move.account_id);
	const error = `${table.table}: ${before.rows} rows (${before.hash.slice(0, 12)}) in ${move.from_binding}, ${after.rows} (${after.hash.slice(0, 12)}) in ${move.to_binding}`;
	return { state: "failed", tables, error, finished_at: new Date().toISOString() };
}

/** The account's rows of `table` in `database`: how many, and SHA-256 chained over each batch's canonical rows. */
export async function summarize(
	database: D1Database,
	table: AccountTable,
	accountId: string,
): Promise<{ rows: number; hash: string }> {
	let hash = "";
	let rows = 0;
	let after: unknown[] | null = null;
	for (;;) {
		const batch = await readBatch(database, table, accountId, after);
		if (batch.length === 0) break;
		rows += batch.length;
		hash = await sha256Hex(`${hash}\n${batch.map(canonicalRow).join("\n")}`);
		const last = batch.at(-1);
		if (last === undefined || batch.length < BATCH_ROWS) break;
		after = table.key.map((column) => last[column] ?? null);
	}
	return { rows, hash };
}

async function readBatch(
	database: D1Database,
	table: AccountTable,
	accountId: string,
	after: readonly unknown[] | null,
): Promise<Record<string, unknown>[]> {
	const { sql, params } = selectBatch(table, after);
	const { results } = await database
		.prepare(sql)
		.bind(accountId, ...params)
		.all<Record<string, unknown>>();
	return results;
}

async function removeBatch(database: D1Database, table: AccountTable, accountId: string): Promise<number> {
	const result = await database.prepare(deleteBatch(table)).bind(accountId).run();
	return result.meta.changes;
}

async function sha256Hex(text: string): Promise<string> {
	const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
	return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
}
