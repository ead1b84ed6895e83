/**
 * The partner console's claims, under /partner/claims: the account's claims, one claim with its
 * photos and decision, and the claim form of a shipped order. Filing stores the photos as print files
 * (as an API upload would) and then makes the claim through createClaim, the function behind
 * POST /v1/orders/{id}/claims: the same rules, the same refusals, the same `claim.created` event.
 * Every lookup is by the signed-in account and the page's mode.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { Owner } from "../accounts/owner.ts";
import { claimAction } from "../claims/claim-action.ts";
import { createClaim } from "../claims/create-claim.ts";
import { ownedClaimPhoto } from "../claims/photo-bytes.ts";
import { MAX_PHOTOS, nextClaimCursor } from "../claims/schema.ts";
import { claimsOfOrder, findOwnedClaim, listClaims, unitsInStandingClaims } from "../claims/store.ts";
import { databaseOf } from "../databases.ts";
import { decodeCursor } from "../http/cursor.ts";
import { refusalStatus } from "../http/errors.ts";
import { page, readFormWithRepeats } from "../http/html-pages.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { storeFormUpload } from "../print-files/form-upload.ts";
import { deliverSoon } from "../webhooks/webhook-sender.do.ts";
import {
	ClaimFormPage,
	type ClaimFormValues,
	chosenFiles,
	claimRequestOf,
	EMPTY_CLAIM_FORM,
	formValuesOf,
	refusalInWords,
} from "./claim-form.tsx";
import { ClaimListPage } from "./claim-list.tsx";
import { CLAIM_DONE_WORDS, ClaimPage } from "./claim-page.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { roleCan } from "./permissions.ts";
import { modeOf, ownerOf, withMode } from "./scope.ts";
import { requireAbility, requirePartner, requirePartnerCsrf, signedInViewerOf } from "./session-gate.ts";

/** Claims on a page of the list. */
const CLAIMS_PER_PAGE = 20;

export const partnerClaimRoutes = new Hono<SignedInPartnerEnv>();

/** The 404 page of an id the signed-in account does not have in this mode. */
function notFound(c: Context<SignedInPartnerEnv>, what: string): Promise<Response> {
	return partnerErrorPage(c, 404, `There is no ${what} in this account's ${modeOf(c)} data.`, signedInViewerOf(c));
}

partnerClaimRoutes.get("/", requirePartner, requireAbility("read"), async (c) => {
	const owner = ownerOf(c);
	const mode = modeOf(c);
	const cursorText = c.req.query("cursor");
	const cursor = cursorText === undefined ? undefined : decodeCursor(cursorText.slice(0, 512));
	const { page: found, more } = await listClaims(databaseOf(c.env, owner.accountId), owner, {
		limit: CLAIMS_PER_PAGE,
		cursor,
	});
	const next = nextClaimCursor(found, more);
	return page(
		c,
		<ClaimListPage
			viewer={signedInViewerOf(c)}
			mode={mode}
			claims={found.map(({ claim }) => claim)}
			nextHref={next === null ? null : withMode(`/partner/claims?cursor=${next}`, mode)}
			firstHref={cursor === undefined ? null : withMode("/partner/claims", mode)}
			canFile={roleCan(c.var.signedIn.user.role, "act_on_orders")}
		/>,
	);
});

/** The order a claim form is for, by the `order` of its address: the account's in this mode, or null. */
async function orderOfForm(c: Context<SignedInPartnerEnv>, owner: Owner): Promise<StoredOrder | null> {
	const orderId = (c.req.query("order") ?? "").trim().slice(0, 64);
	if (orderId === "") return null;
	return findOwnedOrder(databaseOf(c.env, owner.accountId), owner, orderId, c.env.PRINT_FILES);
}

/** The claim form of `order`, with what was typed and the refusal's words after a refused try. */
async function claimForm(
	c: Context<SignedInPartnerEnv>,
	order: StoredOrder,
	values: ClaimFormValues,
	alert: string | null,
	status: ContentfulStatusCode,
): Promise<Response> {
	const owner = ownerOf(c);
	const claims =
		order.shipments.length === 0 ? [] : await claimsOfOrder(databaseOf(c.env, owner.accountId), order.order.id);
	const availability = claimAction(order.shipments, unitsInStandingClaims(claims), new Date());
	const props = { viewer: signedInViewerOf(c), mode: modeOf(c), order, availability, values, alert };
	return page(c, <ClaimFormPage {...props} />, status);
}

partnerClaimRoutes.get("/new", requirePartner, requireAbility("act_on_orders"), async (c) => {
	const order = await orderOfForm(c, ownerOf(c));
	if (order === null) return notFound(c, "such order");
	return claimForm(c, order, EMPTY_CLAIM_FORM, null, 200);
});

partnerClaimRoutes.post("/new", requirePartner, requireAbility("act_on_orders"), requirePartnerCsrf, async (c) => {
	const owner = ownerOf(c);
	const order = await orderOfForm(c, owner);
	if (order === null) return notFound(c, "such order");
	const form = await readFormWithRepeats(c);
	const values = formValuesOf(form, order);
	const request = claimRequestOf(values, order);
	if (!request.ok) return claimForm(c, order, values, request.message, 422);
	const files = chosenFiles(form, "photos");
	if (files.length > MAX_PHOTOS) {
		const message = `A claim carries at most ${MAX_PHOTOS} photos; ${files.length} were chosen.`;
		return claimForm(c, order, values, message, 422);
	}
	// The photos become print files of this account and mode, as uploads through the API do; the claim's
	// rules then check them as they check any photo a claim names.
	const photoIds: string[] = [];
	for (const [index, file] of files.entries()) {
		const stored = await storeFormUpload(c.env, owner, file);
		if (!stored.ok) return claimForm(c, order, values, `Photo ${index + 1}: ${stored.message}`, 422);
		photoIds.push(stored.file.id);
	}
	const input = { ...request.input, photo_file_ids: photoIds };
	const made = await createClaim(c.env, owner, order.order.id, input, new Date());
	if (!made.ok) {
		return claimForm(c, order, values, refusalInWords(made, order, input.items, photoIds), refusalStatus(made));
	}
	// The claim and its event are stored; handing the event over need not hold up the answer.
	c.executionCtx.waitUntil(deliverSoon(c.env, made.deliveries));
	return c.redirect(withMode(`/partner/claims/${made.claim.id}?done=filed`, modeOf(c)), 303);
});

partnerClaimRoutes.get("/:id", requirePartner, requireAbility("read"), async (c) => {
	const owner = ownerOf(c);
	const database = databaseOf(c.env, owner.accountId);
	const found = await findOwnedClaim(database, owner, c.req.param("id"));
	const order = found === null ? null : await findOwnedOrder(database, owner, found.claim.order_id, c.env.PRINT_FILES);
	if (found === null || order === null) return notFound(c, "such claim");
	const done = CLAIM_DONE_WORDS[c.req.query("done") ?? ""] ?? null;
	return page(
		c,
		<ClaimPage viewer={signedInViewerOf(c)} mode={modeOf(c)} claim={found.claim} order={order} done={done} />,
	);
});

partnerClaimRoutes.get("/:id/photos/:index{[0-9]{1,2}}", requirePartner, requireAbility("read"), async (c) => {
	const photo = await ownedClaimPhoto(c.env, ownerOf(c), c.req.param("id"), Number(c.req.param("index")));
	if (!photo.ok) {
		const status = refusalStatus(photo);
		return partnerErrorPage(c, status === 404 ? 404 : 409, photo.message, signedInViewerOf(c));
	}
	return c.body(photo.body, 200, photo.headers);
});
