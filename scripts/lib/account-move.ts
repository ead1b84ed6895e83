/**
 * Runs an account's move between databases to its end through the running Worker's admin route
 * (`POST /v1/admin/accounts/{id}/move`), a few steps per call, reporting each answer: what
 * `npm run admin -- move-account` and the fault run call. The route resumes a move under way.
 */

/** A move as the route answers it (the fields this loop reads). */
export type AccountMoveAnswer = {
	id: string;
	state: string;
	from: string;
	to: string;
	copied_rows: number;
	removed_rows: number;
	error: string | null;
	tables: { table: string; rows: number; hash: string; target_rows: number; target_hash: string }[];
};

/** Calls the move route until the move is done or failed; throws on an error answer. */
export async function moveAccount(options: {
	baseUrl: string;
	adminKey: string;
	accountId: string;
	to: string;
	onProgress?: (move: AccountMoveAnswer) => void;
	/** Milliseconds between calls that made no progress (the drain waits for placements to expire). */
	pauseMs?: number;
}): Promise<AccountMoveAnswer> {
	const { baseUrl, adminKey, accountId, to, onProgress, pauseMs = 1000 } = options;
	let last = "";
	for (;;) {
		const response = await fetch(`${baseUrl}/v1/admin/accounts/${encodeURIComponent(accountId)}/move`, {
			method: "POST",
			headers: { Authorization: `Bearer ${adminKey}`, "Content-Type": "application/json" },
			body: JSON.stringify({ to }),
		});
		const text = await response.text();
		if (!response.ok) throw new Error(`the move route answered ${response.status}: ${text}`);
		const move = JSON.parse(text) as AccountMoveAnswer;
		onProgress?.(move);
		if (move.state === "done" || move.state === "failed") return move;
		const now = `${move.state}/${move.copied_rows}/${move.removed_rows}/${move.tables.length}`;
		if (now === last) await new Promise((resolve) => setTimeout(resolve, pauseMs));
		last = now;
	}
}
