/**
 * The service team's decision on a claim: approved with a remedy, or rejected with a message; once.
 * The decision is written only over a claim still `submitted`, so of two operators deciding at the same
 * moment one wins and the other gets the 409.
 */

import { databaseOf, findInEveryDatabase } from "../databases.ts";
import { newId, randomBase62 } from "../ids.ts";
import { type OrderCreated, type PreparedOrder, startOrder } from "../orders/create-order.ts";
import { entryOrderOf } from "../orders/ledger-moves.ts";
import { prepareReprint } from "../orders/reprint.ts";
import { eventSubject, type StoredOrder } from "../orders/rows.ts";
import { findOrder, insertOrder } from "../orders/store.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { type Refusal, refusal, refusalOf } from "../problem.ts";
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
 * machine, which validates it like every new order. Neither need hold up the answer.
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

/** The refusal of a decision on a claim decided already: a claim is resolved once. */
function alreadyResolved(claim: Claim): Refusal {
	const when = claim.resolution === null ? "" : ` (${claim.resolution.resolved_at})`;
	return refusalOf(
		"claim_already_resolved",
		`Claim ${claim.id} is ${claim.status} already${when}: a claim is resolved once.`,
	);
}

/** A decision made: the claim as resolved, the deliveries of its event, and its reprint, if any. */
export type ClaimResolved = { ok: true; claim: Claim; deliveries: PendingDelivery[]; reprint: OrderCreated | null };

/**
 * Resolves claim `id` as `decision` at `now`; or why not: `claim_not_found`, `claim_already_resolved`
 * (also when another decision won meanwhile), or the refusal of a reprint that cannot be made.
 */
export async function resolveClaim(
	env: Env,
	id: string,
	decision: Decision,
	now: Date,
): Promise<ClaimResolved | Refusal> {
	const found = await findInEveryDatabase(env, (database) => findClaim(database, id));
	if (found === null) return refusal("claim_not_found", "id", `No claim ${id}.`);
	const order = await findOrder(databaseOf(env, found.accountId), found.claim.order_id, env.PRINT_FILES);
	if (order === null) throw new Error(`claim ${id} names order ${found.claim.order_id}, which is gone`);
	if (found.claim.status !== "submitted") {
		const unmade = await unmadeReprint(env, found, decision);
		if (unmade === null) return alreadyResolved(found.claim);
		// Approved with a reprint whose order was never made (before a decision and its reprint were one
		// write): this approval again makes it, under the id the claim names, and sends nothing else.
		const reprint = await prepareClaimReprint(env, order, found.claim, unmade);
		if (!reprint.ok) return reprint;
		await insertOrder(databaseOf(env, found.accountId), reprint.order.order, reprint.order.items, now);
		return { ok: true, claim: found.claim, deliveries: [], reprint: { ...reprint, replayed: false } };
	}
	const reprintOrderId = decision.kind === "approve" && decision.remedy === "reprint" ? newId("ord") : null;
	const claim = decided(found, decision, order, reprintOrderId, now);
	// The reprint is checked before anything is written: a reprint that cannot be made refuses the decision.
	const reprint = reprintOrderId === null ? null : await prepareClaimReprint(env, order, claim, reprintOrderId);
	if (reprint !== null && !reprint.ok) return reprint;
	let deliveries: PendingDelivery[] | null;
	try {
		deliveries = await writeDecision(databaseOf(env, found.accountId), {
			claim,
			accountId: found.accountId,
			resolutionId: randomBase62(24),
			order: entryOrderOf(order.order),
			event: {
				type: decision.kind === "approve" ? "claim.approved" : "claim.rejected",
				accountId: found.accountId,
				mode: order.order.mode,
				order: eventSubject(order.order),
				delivery: { url: order.order.callback_url },
				createdAt: now,
			},
			reprint: reprint === null ? null : { order: reprint.order.order, items: reprint.order.items },
		});
	} catch (error) {
		// A reprint's file may have expired between its check and the write: the database then refused it.
		const uses = (reprint?.order.items ?? []).flatMap((item) =>
			item.print_file_id === null ? [] : [{ fileId: item.print_file_id, field: "items" }],
		);
		if ((await expiredSinceChecked(databaseOf(env, found.accountId), found.accountId, uses)) === null) throw error;
		return refusalOf(
			"print_file_expired",
			`A print file of order ${order.order.id} expired while its reprint was being written: nothing was decided.`,
		);
	}
	if (deliveries === null) {
		// Another decision won between the read and the write: say what it was.
		const winner = await findInEveryDatabase(env, (database) => findClaim(database, id));
		return alreadyResolved(winner?.claim ?? found.claim);
	}
	return { ok: true, claim, deliveries, reprint: reprint === null ? null : { ...reprint, replayed: false } };
}

/** The reprint order id of a claim approved with a reprint that has no order yet, when `decision` asks for it again. */
async function unmadeReprint(env: Env, { claim, accountId }: StoredClaim, decision: Decision): Promise<string | null> {
	const orderId = claim.resolution?.reprint_order_id ?? null;
	if (decision.kind !== "approve" || decision.remedy !== "reprint" || orderId === null) return null;
	return (await findOrder(databaseOf(env, accountId), orderId, env.PRINT_FILES)) === null ? orderId : null;
}

/** The claim's reprint as `orderId`, numbered by the claim's place on the order (the same number on a retry), not written. */
async function prepareClaimReprint(
	env: Env,
	order: StoredOrder,
	claim: Claim,
	orderId: string,
): Promise<({ ok: true } & PreparedOrder) | Refusal> {
	const claimNumber =
		(await claimsOfOrder(databaseOf(env, order.order.account_id), order.order.id)).findIndex(
			(each) => each.claim.id === claim.id,
		) + 1;
	return prepareReprint(env, order, { units: claim.items, claimId: claim.id, claimNumber, orderId });
}

/** The claim as `decision` resolves it. */
function decided(
	found: StoredClaim,
	decision: Decision,
	order: StoredOrder,
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
