import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { createApp } from "../http/create-app.ts";
import { decodeCursor } from "../http/cursor.ts";
import { errorResponses, okOrThrow } from "../http/errors.ts";
import { claimsInStatus } from "./claims-to-decide.ts";
import { ApproveClaimBody, RejectClaimBody } from "./decision-bodies.ts";
import { type Decision, handOverDecision, resolveClaim } from "./resolve-claim.ts";
import { CLAIM_STATUSES, ClaimIdParams, ClaimPageSchema, ClaimSchema, toClaimPage } from "./schema.ts";

const OpsClaimQuery = z.object({
	status: z.enum(CLAIM_STATUSES).default("submitted"),
	limit: z.coerce.number().int().min(1).max(100).default(20),
	cursor: z.string().max(512).optional(),
});

const listRoute = protectedRoute("ops", {
	method: "get",
	path: "/ops/claims",
	tags: ["Operations"],
	summary: "Claims of every account in a status (submitted unless told), oldest first: the service team's work list",
	request: { query: OpsClaimQuery },
	responses: {
		200: jsonResponse(ClaimPageSchema, "A page of claims and the cursor of the next."),
		...errorResponses(422),
	},
});

const decisionResponses = {
	200: jsonResponse(ClaimSchema, "The claim, resolved; `claim.approved` or `claim.rejected` is sent."),
	...errorResponses(400, 404, 409, 422),
};

const approveRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/claims/{id}/approve",
	tags: ["Operations"],
	summary: "Approve a submitted claim with a remedy (once: 409 when it is resolved already)",
	request: {
		params: ClaimIdParams,
		body: { required: true, content: { "application/json": { schema: ApproveClaimBody } } },
	},
	responses: decisionResponses,
});

const rejectRoute = protectedRoute("ops", {
	method: "post",
	path: "/ops/claims/{id}/reject",
	tags: ["Operations"],
	summary: "Reject a submitted claim with a message (once: 409 when it is resolved already)",
	request: {
		params: ClaimIdParams,
		body: { required: true, content: { "application/json": { schema: RejectClaimBody } } },
	},
	responses: decisionResponses,
});

/** Resolves the claim of the path as `decision`, hands its event over in the background, and answers the claim. */
async function decide(
	env: Env,
	executionCtx: { waitUntil(promise: Promise<unknown>): void },
	requestId: string,
	id: string,
	decision: Decision,
) {
	const decided = okOrThrow(await resolveClaim(env, id, decision, new Date()));
	handOverDecision(env, executionCtx, requestId, decided);
	return decided.claim;
}

/** The service team's claim routes: the work list, approve, reject. */
export const opsClaimRoutes = createApp<AuthedEnv>()
	.openapi(listRoute, async (c) => {
		const query = c.req.valid("query");
		const cursor = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
		const { page, more } = await claimsInStatus(c.env, query.status, query.limit, cursor);
		return c.json(toClaimPage({ page, more }), 200);
	})
	.openapi(approveRoute, async (c) => {
		const { remedy, message } = c.req.valid("json");
		const decision: Decision = { kind: "approve", remedy, message: message ?? null };
		return c.json(await decide(c.env, c.executionCtx, c.var.requestId, c.req.valid("param").id, decision), 200);
	})
	.openapi(rejectRoute, async (c) => {
		const { message } = c.req.valid("json");
		const decision: Decision = { kind: "reject", message };
		return c.json(await decide(c.env, c.executionCtx, c.var.requestId, c.req.valid("param").id, decision), 200);
	});
