/**
 * A partner's claim, from request to stored claim and its `claim.created` event: the order must be the
 * partner's, the photos theirs and fit, the units shipped and within the time rules, and no more than
 * shipped less what standing claims hold, checked again at commit. Each refusal carries its rule's code.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { newId } from "../ids.ts";
import { restoreArchivedOrder } from "../orders/archive-store.ts";
import { eventSubject } from "../orders/rows.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { findAccountPrintFiles } from "../print-files/store.ts";
import { type Refusal, refusal } from "../problem.ts";
import type { PendingDelivery } from "../webhooks/store.ts";
import { photoCount, photoFiles } from "./photos.ts";
import { judgeClaim } from "./rules.ts";
import type { Claim, CreateClaimInput } from "./schema.ts";
import { claimsOfOrder, insertClaim, unitsInStandingClaims } from "./store.ts";

/**
 * Creates a claim on `orderId` for `owner`: the claim and the deliveries of its event, to hand over; or
 * the refusal, under the rule's code.
 */
export async function createClaim(
	env: Env,
	owner: Owner,
	orderId: string,
	input: CreateClaimInput,
	now: Date,
): Promise<{ ok: true; claim: Claim; deliveries: PendingDelivery[] } | Refusal> {
	const found = await findOwnedOrder(databaseOf(env, owner.accountId), owner, orderId, env.PRINT_FILES);
	if (found === null) return refusal("order_not_found", "id", `No order ${orderId}.`);
	const photos = input.photo_file_ids ?? [];
	const counted = photoCount(input.reason, photos);
	if (!counted.ok) return counted;
	const stored = await findAccountPrintFiles(databaseOf(env, owner.accountId), owner.accountId, photos);
	// A photo still being read is read now, as a print file named by an order is.
	const files = new Map(
		await Promise.all([...stored].map(async ([id, file]) => [id, await printFileNow(env, file)] as const)),
	);
	const fit = photoFiles(owner, photos, files);
	if (!fit.ok) return fit;

	const claims = await claimsOfOrder(databaseOf(env, owner.accountId), orderId);
	const judged = judgeClaim(found, unitsInStandingClaims(claims), input.reason, input.items, now);
	if (!judged.ok) return judged;
	// A claim's items name the order's item rows: an archived order comes back into D1 first.
	if (found.archivedAt !== undefined)
		await restoreArchivedOrder(databaseOf(env, owner.accountId), env.PRINT_FILES, orderId);

	const claim: Claim = {
		id: newId("clm"),
		order_id: orderId,
		status: "submitted",
		reason: input.reason,
		items: [...input.items].sort((a, b) => a.item_id.localeCompare(b.item_id)),
		description: input.description,
		photos,
		created_at: now.toISOString(),
		resolution: null,
	};
	let deliveries: PendingDelivery[] | null;
	try {
		deliveries = await insertClaim(databaseOf(env, owner.accountId), {
			claim,
			owner,
			caps: judged.caps,
			event: {
				type: "claim.created",
				accountId: owner.accountId,
				mode: owner.mode,
				order: eventSubject(found.order),
				delivery: { url: found.order.callback_url },
				createdAt: now,
			},
		});
	} catch (error) {
		// A photo may have expired between its check and the write: the database then refused the photo's row.
		const uses = photos.map((fileId, index) => ({ fileId, field: `photo_file_ids[${index}]` }));
		const expired = await expiredSinceChecked(databaseOf(env, owner.accountId), owner.accountId, uses);
		if (expired === null) throw error;
		return expired;
	}
	if (deliveries === null) {
		// Another claim took the units meanwhile: the rules again, over the claims as they are now.
		const standing = unitsInStandingClaims(await claimsOfOrder(databaseOf(env, owner.accountId), orderId));
		return unitsTakenMeanwhile(judgeClaim(found, standing, input.reason, input.items, now));
	}
	return { ok: true, claim, deliveries };
}

/** The refusal of a claim whose units other claims took between the check and the commit: the rules' refusal now. */
function unitsTakenMeanwhile(judged: ReturnType<typeof judgeClaim>): Refusal {
	if (!judged.ok) return judged;
	// The guard refused, yet the units fit now: a claim that held them was rejected in between.
	return refusal(
		"claim_units_exceeded",
		"items",
		"The claims on these units changed while this one was written: send it again.",
	);
}
