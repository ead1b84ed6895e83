/**
 * The service team's decision on a claim: approved with a remedy, or rejected with a message; once.
 * The decision is written only over a claim still `submitted`, so of two operators deciding at the same
 * moment one wins and the other gets the 409.
 */
import { ApiError } from "../http/errors.ts";
import { newId, randomBase62 } from "../ids.ts";
import { type OrderCreated, startOrder } from "../orders/create-order.ts";
import { createReprint } from "../orders/reprint.ts";
import { eventSubject } from "../orders/rows.ts";
import { findOrder } from "../orders/store.ts";
import type { PendingDelivery } from "../webhooks/store.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import { refundCredit } from "./credit.ts";
import type { Claim } from "./schema.ts";
import { claimsOfOrder, findClaim, type StoredClaim, writeDecision } from "./store.ts";

/** What the service team decides. */
export type Decision =
	| { kind: "approve"; remedy: "refund" | "reprint"; message: string | null }
	| { kind: "reject"; message: string };

/**
 * Hands a decision's work on in the background: its event to the senders, and a new reprint to its
 * machine, which validates it as any new order's does. Neither need hold up the answer.
 */
export function handOverDecision(
	env: Env,
	executionCtx: { waitUntil(promise: Promise<unknown>): void },
	requestId: string,
	decided: { deliveries: PendingDelivery[]; reprint: OrderCreated | null },
): void {
	executionCtx.waitUntil(deliverSoon(env, decided.deliveries));
	if (decided.reprint !== null && !decided.reprint.replayed) {
		executionCtx.waitUntil(startOrder(env, decided.reprint, requestId));
	}
}

/** The 404 of an unknown claim. */
export function claimNotFound(id: string): ApiError {
	return new ApiError("claim_not_found", `No claim ${id}.`, "id");
}

function alreadyResolved(claim: Claim): ApiError {
	return new ApiError(
		"claim_already_resolved",
		`Claim ${claim.id} is ${claim.status} already${claim.resolution === null ? "" : ` (${claim.resolution.resolved_at})`}: a claim is resolved once.`,
	);
}

/** Resolves claim `id` as `decision` at `now`; the claim as resolved and the deliveries of its event. */
export async function resolveClaim(
	env: Env,
	id: string,
	decision: Decision,
	now: Date,
): Promise<{ claim: Claim; deliveries: PendingDelivery[]; reprint: OrderCreated | null }> {
	const found = await findClaim(env.DB, id);
	if (found === null) throw claimNotFound(id);
	if (found.claim.status !== "submitted") throw alreadyResolved(found.claim);
	const order = await findOrder(env.DB, found.claim.order_id);
	if (order === null) throw new Error(`claim ${id} names order ${found.claim.order_id}, which is gone`);
	const reprintOrderId = decision.kind === "approve" && decision.remedy === "reprint" ? newId("ord") : null;
	const claim = decided(found, decision, order, reprintOrderId, now);
	const deliveries = await writeDecision(env.DB, {
		claim,
		accountId: found.accountId,
		resolutionId: randomBase62(24),
		event: {
			type: decision.kind === "approve" ? "claim.approved" : "claim.rejected",
			accountId: found.accountId,
			mode: order.order.mode,
			order: eventSubject(order.order),
			delivery: { url: order.order.callback_url },
			createdAt: now,
		},
	});
	if (deliveries === null) {
		// Another decision won between the read and the write: say what it was.
		const winner = await findClaim(env.DB, id);
		throw alreadyResolved(winner?.claim ?? found.claim);
	}
	if (reprintOrderId === null) return { claim, deliveries, reprint: null };
	// The claim is this decision's: its reprint is made now, numbered by the claim's place on the order.
	const claimNumber = (await claimsOfOrder(env.DB, order.order.id)).findIndex((each) => each.claim.id === id) + 1;
	const reprint = await createReprint(env, order, {
		units: claim.items,
		claimId: id,
		claimNumber,
		orderId: reprintOrderId,
	});
	return { claim, deliveries, reprint };
}

/** The claim as `decision` resolves it. */
function decided(
	found: StoredClaim,
	decision: Decision,
	order: NonNullable<Awaited<ReturnType<typeof findOrder>>>,
	reprintOrderId: string | null,
	now: Date,
): Claim {
	const resolvedAt = now.toISOString();
	if (decision.kind === "reject") {
		return {
			...found.claim,
			status: "rejected",
			resolution: {
				remedy: null,
				reprint_order_id: null,
				credit_cents: null,
				message: decision.message,
				resolved_at: resolvedAt,
			},
		};
	}
	if (decision.remedy === "reprint") {
		return {
			...found.claim,
			status: "approved",
			resolution: {
				remedy: "reprint",
				reprint_order_id: reprintOrderId,
				credit_cents: null,
				message: decision.message,
				resolved_at: resolvedAt,
			},
		};
	}
	const credit = refundCredit(
		{
			shipping: order.order.costs?.shipping ?? null,
			items: order.items.map((item) => ({
				id: item.id,
				quantity: item.quantity,
				unitPrice: item.priced?.unit_price.total ?? null,
			})),
		},
		found.claim.reason,
		found.claim.items,
	);
	return {
		...found.claim,
		status: "approved",
		resolution: {
			remedy: decision.remedy,
			reprint_order_id: null,
			credit_cents: credit,
			message: decision.message,
			resolved_at: resolvedAt,
		},
	};
}
