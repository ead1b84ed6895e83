/**
 * The service team's claim pages: the list, one claim with its photos (served from R2 through the
 * console, inline, as the inspected image type), and the approve and reject forms, which decide
 * through the same code as the ops routes.
 */
import { type Context, Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { claimsInStatus } from "../claims/claims-to-decide.ts";
import { ApproveClaimBody, RejectClaimBody } from "../claims/decision-bodies.ts";
import { claimPhoto } from "../claims/photo-bytes.ts";
import { type Decision, handOverDecision, resolveClaim } from "../claims/resolve-claim.ts";
import { CLAIM_STATUSES, type ClaimStatus, nextClaimCursor } from "../claims/schema.ts";
import { findClaim } from "../claims/store.ts";
import { findInEveryDatabase } from "../databases.ts";
import { decodeCursor } from "../http/cursor.ts";
import { ApiError, refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { loadOrderSheet } from "../production/order-sheet.ts";
import { OWN_IMAGES_POLICY } from "../production/slip-page.ts";
import { ClaimPage, ClaimsPage, type DecisionOutcome } from "./claim-pages.tsx";
import type { ConsoleEnv, OperatorEnv } from "./console-env.ts";
import { errorPage, refusalPage } from "./responses.tsx";
import { requireCsrf, requireSession } from "./session-gate.ts";

export const claimRoutes = new Hono<ConsoleEnv>();

function isClaimStatus(value: string | undefined): value is ClaimStatus {
	return (CLAIM_STATUSES as readonly string[]).includes(value ?? "");
}

claimRoutes.get("/claims", requireSession, async (c) => {
	const asked = c.req.query("status");
	const status: ClaimStatus = isClaimStatus(asked) ? asked : "submitted";
	const cursorText = c.req.query("cursor");
	const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText);
	const { page: found, more } = await claimsInStatus(c.env, status, 50, cursor);
	const next = nextClaimCursor(found, more);
	const nextPageHref = next === null ? null : `/ops/claims?status=${status}&cursor=${next}`;
	const claims = found.map(({ claim }) => claim);
	return page(
		c,
		<ClaimsPage status={status} claims={claims} nextPageHref={nextPageHref} csrfToken={c.var.operator.csrfToken} />,
	);
});

/** The claim's page with a decision's outcome, or a 404 page. */
async function claimPage(
	c: Context<OperatorEnv>,
	claimId: string,
	outcome: DecisionOutcome,
	status: ContentfulStatusCode,
): Promise<Response> {
	const found = await findInEveryDatabase(c.env, (database) => findClaim(database, claimId));
	const sheet = found === null ? null : await loadOrderSheet(c.env, found.claim.order_id);
	if (found === null || sheet === null) {
		return errorPage(c, 404, `There is no claim ${claimId}.`, c.var.operator.csrfToken);
	}
	const response = await page(
		c,
		<ClaimPage claim={found.claim} sheet={sheet} outcome={outcome} csrfToken={c.var.operator.csrfToken} />,
		status,
	);
	// The claim's own photos (this origin) are allowed as images.
	response.headers.set("Content-Security-Policy", OWN_IMAGES_POLICY);
	return response;
}

claimRoutes.get("/claims/:id", requireSession, (c) =>
	claimPage(c, c.req.param("id"), { done: null, refusal: null }, 200),
);

claimRoutes.get("/claims/:id/photos/:index{[0-9]{1,2}}", requireSession, async (c) => {
	const photo = await claimPhoto(c.env, c.req.param("id"), Number(c.req.param("index")));
	if (!photo.ok) return refusalPage(c, photo, c.var.operator.csrfToken);
	return c.body(photo.body, 200, photo.headers);
});

/**
 * The decision a posted form asks for, or the 422 saying what to fix: read by the ops routes' own
 * bodies, so a message follows the same rule whichever door it comes through (no control characters
 * but line breaks, 1 to 1,000 characters counted as a reader counts them, Windows line ends made \n).
 */
function decisionOf(action: "approve" | "reject", form: Record<string, unknown>): Decision {
	const typed = typeof form.message === "string" ? form.message : "";
	if (action === "reject") {
		if (typed.trim() === "") {
			throw new ApiError("invalid_field", "Say why the claim is rejected: the partner reads it.", "message");
		}
		const parsed = RejectClaimBody.safeParse({ message: typed });
		if (!parsed.success) throw fieldError(parsed.error);
		return { kind: "reject", message: parsed.data.message };
	}
	const remedy = form.remedy;
	if (remedy !== "reprint" && remedy !== "refund") {
		throw new ApiError("invalid_field", "Choose a remedy: reprint or refund.", "remedy");
	}
	// An empty optional message is no message, as a body without one.
	const parsed = ApproveClaimBody.safeParse(typed.trim() === "" ? { remedy } : { remedy, message: typed });
	if (!parsed.success) throw fieldError(parsed.error);
	return { kind: "approve", remedy: parsed.data.remedy, message: parsed.data.message ?? null };
}

/** The first problem of a decision's body as the page says it: `The message must not contain control characters…`. */
function fieldError(error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] }): ApiError {
	const issue = error.issues[0];
	const field = String(issue?.path[0] ?? "message");
	return new ApiError("invalid_field", `The ${field} ${issue?.message ?? "is not valid"}.`, field);
}

claimRoutes.post("/claims/:id/:action{approve|reject}", requireSession, requireCsrf, async (c) => {
	const claimId = c.req.param("id");
	const action = c.req.param("action") === "approve" ? "approve" : "reject";
	const form = await readForm(c);
	let decision: Decision;
	try {
		decision = decisionOf(action, form);
	} catch (error) {
		if (!(error instanceof ApiError)) throw error;
		return claimPage(c, claimId, { done: null, refusal: error.message }, 422);
	}
	const decided = await resolveClaim(c.env, claimId, decision, new Date());
	if (!decided.ok) {
		// No such claim is an error page; any other refusal is shown on the claim's page, under its status.
		const status = refusalStatus(decided);
		if (status === 404) return refusalPage(c, decided, c.var.operator.csrfToken);
		return claimPage(c, claimId, { done: null, refusal: decided.message }, status);
	}
	handOverDecision(c.env, c.executionCtx, c.var.requestId, decided);
	const done = action === "approve" ? "Claim approved; the partner is told." : "Claim rejected; the partner is told.";
	return claimPage(c, claimId, { done, refusal: null }, 200);
});
