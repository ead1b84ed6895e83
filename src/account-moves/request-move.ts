/**
 * An admin's request to move an account to another database: starts the move (or finds the one under
 * way to the same database) and runs its next bounded steps, answering where it is.
 */
import { accountExists } from "../accounts/store.ts";
import { accountBindings, bindingOf, directoryDatabase, forgetPlacements, refreshPlacements } from "../databases.ts";
import { newId } from "../ids.ts";
import type { Refusal } from "../problem.ts";
import { isFinished, stepMove } from "./mover.ts";
import { insertMove, latestMove, type MoveRow } from "./store.ts";

/** How much one request does at most: steps, and milliseconds (the command calls again until done). */
export const STEP_BUDGET = { steps: 40, ms: 5000 };

/** Starts or continues `accountId`'s move to `to`, running steps within the budget. */
export async function requestMove(
	env: Env,
	accountId: string,
	to: string,
	budget = STEP_BUDGET,
): Promise<{ ok: true; move: MoveRow } | Refusal> {
	const directory = directoryDatabase(env);
	if (!accountBindings(env).includes(to)) {
		return refused(
			"move_target_unknown",
			`${to} is not one of the databases ACCOUNT_DATABASES names (${accountBindings(env).join(", ")}).`,
			"to",
		);
	}
	if (!(await accountExists(directory, accountId)))
		return refused("account_not_found", `No account ${accountId}.`, "id");
	let move = await latestMove(directory, accountId);
	if (move !== null && !isFinished(move) && move.to_binding !== to) {
		return refused(
			"account_move_under_way",
			`${accountId} is moving to ${move.to_binding} (move ${move.id}): let it finish first.`,
			"to",
		);
	}
	if (move === null || isFinished(move)) {
		forgetPlacements();
		await refreshPlacements(env);
		const from = bindingOf(env, accountId);
		if (from === to) return refused("account_already_there", `${accountId} is in ${to} already.`, "to");
		const now = new Date().toISOString();
		const started: MoveRow = {
			id: newId("mov"),
			account_id: accountId,
			from_binding: from,
			to_binding: to,
			state: "fencing",
			step: 0,
			cursor: null,
			copied_rows: 0,
			removed_rows: 0,
			tables: "[]",
			error: null,
			created_at: now,
			updated_at: now,
			switched_at: null,
			finished_at: null,
		};
		if (!(await insertMove(directory, started))) {
			return refused("account_move_under_way", `${accountId} has a move under way: ask again.`, "to");
		}
		move = started;
	}
	return { ok: true, move: await runSteps(env, move, budget) };
}

/** Runs `move`'s steps until it is finished, waits (the drain), or the budget is spent. */
export async function runSteps(env: Env, move: MoveRow, budget = STEP_BUDGET): Promise<MoveRow> {
	const started = Date.now();
	let current = move;
	for (let step = 0; step < budget.steps && Date.now() - started < budget.ms && !isFinished(current); step++) {
		const next = await stepMove(env, current);
		if (next === current) break;
		current = next;
	}
	return current;
}

function refused(
	code: "move_target_unknown" | "account_not_found" | "account_move_under_way" | "account_already_there",
	message: string,
	field: string,
): Refusal {
	return { ok: false, code, message, field };
}
