import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { AccountIdParams } from "../accounts/schema.ts";
import { directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { requestMove } from "./request-move.ts";
import { latestMove, MOVE_STATES, type MoveRow, type VerifiedTable } from "./store.ts";

const MoveBody = z.strictObject({
	to: z.string().min(1).openapi({ example: "DB_2", description: "The D1 binding to move the account to." }),
});

const HASH_EXAMPLE = "9f2c4be1d07a5c3e8b61f0a2d4c6e8f1a3b5c7d9e0f1a2b3c4d5e6f7a8b9c0d1";
const AT_EXAMPLE = "2026-11-28T09:00:00.000Z";

const VerifiedTableSchema = z.object({
	table: z.string().openapi({ example: "orders" }),
	rows: z.number().int().openapi({ example: 243 }),
	hash: z.string().openapi({ example: HASH_EXAMPLE, description: "SHA-256 of the rows in the old database." }),
	target_rows: z.number().int().openapi({ example: 243 }),
	target_hash: z.string().openapi({ example: HASH_EXAMPLE, description: "The same in the new database." }),
});

const AccountMoveSchema = z
	.object({
		id: z.string().openapi({ example: "mov_7bQ2xT" }),
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		from: z.string().openapi({ example: "DB", description: "The binding the account's rows leave." }),
		to: z.string().openapi({ example: "DB_2", description: "The binding they move to." }),
		state: z.enum(MOVE_STATES).openapi({ example: "done" }),
		copied_rows: z.number().int().openapi({ example: 1054 }),
		removed_rows: z.number().int().openapi({ example: 1054 }),
		tables: z
			.array(VerifiedTableSchema)
			.openapi({ description: "Each table as verified, once the move has verified it." }),
		error: z
			.string()
			.nullable()
			.openapi({ example: null, description: "Why the move failed (the table that differed)." }),
		created_at: z.string().openapi({ example: AT_EXAMPLE }),
		updated_at: z.string().openapi({ example: AT_EXAMPLE }),
		switched_at: z.string().nullable().openapi({ example: AT_EXAMPLE }),
		finished_at: z.string().nullable().openapi({ example: AT_EXAMPLE }),
	})
	.openapi("AccountMove");

function toAccountMove(move: MoveRow): z.infer<typeof AccountMoveSchema> {
	return {
		id: move.id,
		account_id: move.account_id,
		from: move.from_binding,
		to: move.to_binding,
		state: move.state,
		copied_rows: move.copied_rows,
		removed_rows: move.removed_rows,
		tables: JSON.parse(move.tables) as VerifiedTable[],
		error: move.error,
		created_at: move.created_at,
		updated_at: move.updated_at,
		switched_at: move.switched_at,
		finished_at: move.finished_at,
	};
}

const postMove = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts/{id}/move",
	tags: ["Admin"],
	summary: "Move an account's rows to another database, a few steps per call",
	description:
		"Starts the move (or continues the one under way to the same database) and runs its next steps for a few seconds: fence, copy, verify (rows and a content hash per table), switch, drain, remove. Call again until `state` is `done` (or `failed`, with `error`). While the rows are copied the account's writes are refused with a 503 `account_moving` and `Retry-After`; reads go on.",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: MoveBody } } },
	},
	responses: {
		200: jsonResponse(AccountMoveSchema, "The move, after this call's steps."),
		...errorResponses(400, 404, 409, 422),
	},
});

const getMove = protectedRoute("admin", {
	method: "get",
	path: "/admin/accounts/{id}/move",
	tags: ["Admin"],
	summary: "An account's latest move between databases",
	request: { params: AccountIdParams },
	responses: { 200: jsonResponse(AccountMoveSchema, "The latest move."), ...errorResponses(404) },
});

/** The admin's `POST` and `GET /v1/admin/accounts/{id}/move`. */
export const accountMoveRoutes = createApp<AuthedEnv>()
	.openapi(postMove, async (c) => {
		const { id } = c.req.valid("param");
		const { move } = okOrThrow(await requestMove(c.env, id, c.req.valid("json").to));
		return c.json(toAccountMove(move), 200);
	})
	.openapi(getMove, async (c) => {
		const { id } = c.req.valid("param");
		const move = await latestMove(directoryDatabase(c.env), id);
		if (move === null) throw new ApiError("account_move_not_found", `No move of ${id}.`, "id");
		return c.json(toAccountMove(move), 200);
	});
