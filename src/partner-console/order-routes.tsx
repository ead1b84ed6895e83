/**
 * The partner console's orders, under /partner/orders: the list, an order's page, its items' images,
 * and its forms (recipient and method, cancel with a confirmation, a held item's fix). Every read is
 * by the owner (the user's account, in the page's mode), so another account's or mode's order is a
 * 404 on every page, image and form; every change goes through the function the API's route calls.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf } from "../databases.ts";
import { PREVIEW_WIDTH } from "../framed-previews/render.ts";
import { PreviewQuery } from "../framed-previews/schema.ts";
import { orderItemPreview, orderItemThumbnail, previewHeaders } from "../framed-previews/serve-preview.ts";
import { type Cursor, decodeCursor, encodeCursor } from "../http/cursor.ts";
import { refusalStatus } from "../http/errors.ts";
import { page, readForm } from "../http/html-pages.ts";
import { movesOfOrder } from "../orders/archive-store.ts";
import { fixItem } from "../orders/fix-item.ts";
import { orderActions } from "../orders/order-actions.ts";
import { searchOrders } from "../orders/order-search.ts";
import { cancelOwnedOrder, updateOwnedOrder } from "../orders/partner-changes.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { UpdateOrderBody } from "../orders/update-schema.ts";
import { sheetFromStored } from "../production/order-sheet.ts";
import { PartnerLayout } from "./layout.tsx";
import { ConfirmCancelForm, RECIPIENT_FIELDS } from "./order-forms.tsx";
import { heldItemPatch } from "./order-item-fix.ts";
import { askedOrders, ORDERS_PER_PAGE, OrderListPage } from "./order-list.tsx";
import { isOrderDone, type OrderDone, OrderPage } from "./order-page.tsx";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { roleCan } from "./permissions.ts";
import { modeOf, ownerOf, withMode } from "./scope.ts";
import { requireAbility, requirePartner, requirePartnerCsrf, signedInViewerOf } from "./session-gate.ts";

type OrderContext = Context<SignedInPartnerEnv>;

/** An order's id in an address: the orders' own prefix, so a sibling page such as /partner/orders/new is not taken for one. */
const ORDER_ID = ":id{ord_[0-9A-Za-z]{1,64}}";
const ITEM_ID = ":item{itm_[0-9A-Za-z]{1,64}}";

function orderNotFound(c: OrderContext, id: string): Promise<Response> {
	return partnerErrorPage(c, 404, `There is no order ${id} in this account's ${modeOf(c)} data.`, signedInViewerOf(c));
}

/** The owner's order `id` as stored, or null (another account's or mode's order is not found). */
function ownedOrder(c: OrderContext, id: string) {
	const owner = ownerOf(c);
	return findOwnedOrder(databaseOf(c.env, owner.accountId), owner, id, c.env.PRINT_FILES);
}

/** What the order page shows after a form, besides the order. */
type Outcome = { done: OrderDone | null; refusal: string | null; recipientValues: Record<string, string> | null };

/** The order page of the owner's order `id` (404 when not theirs), with the last form's outcome, at `status`. */
async function orderPage(c: OrderContext, id: string, outcome: Outcome, status: ContentfulStatusCode = 200) {
	const found = await ownedOrder(c, id);
	if (found === null) return orderNotFound(c, id);
	const db = databaseOf(c.env, found.order.account_id);
	const [sheet, history, snapshot] = await Promise.all([
		sheetFromStored(c.env, found),
		movesOfOrder(db, c.env.PRINT_FILES, found),
		isolateCatalog.get(db),
	]);
	const parts = (list: readonly { slug: string; name: string }[]) => list.map(({ slug, name }) => ({ slug, name }));
	const props = {
		sheet,
		history,
		actions: orderActions(sheet.stored, new Date()),
		viewer: signedInViewerOf(c),
		mode: modeOf(c),
		canAct: roleCan(c.var.signedIn.user.role, "act_on_orders"),
		frames: parts(snapshot.catalog.frames),
		mats: parts(snapshot.catalog.mats),
		...outcome,
	};
	return page(c, <OrderPage {...props} />, status);
}

const NOTHING: Outcome = { done: null, refusal: null, recipientValues: null };

/** After a form that worked: back to the order's page, which says what was done. */
function doneRedirect(c: OrderContext, id: string, done: OrderDone): Response {
	return c.redirect(withMode(`/partner/orders/${id}?done=${done}`, modeOf(c)), 303);
}

/** The text of a posted field, trimmed and capped, or "" when absent or a file. */
function textField(form: Record<string, unknown>, name: string, max = 300): string {
	const value = form[name];
	return typeof value === "string" ? value.trim().slice(0, max) : "";
}

export const partnerOrderRoutes = new Hono<SignedInPartnerEnv>();

partnerOrderRoutes.get("/", requirePartner, requireAbility("read"), async (c) => {
	const viewer = signedInViewerOf(c);
	const mode = modeOf(c);
	const asked = askedOrders(c.req.query());
	const empty = { viewer, mode, orders: [], nextCursor: null, paged: false };
	if (!asked.ok) return page(c, <OrderListPage {...empty} form={asked.form} error={asked.error} />, 400);
	let cursor: Cursor | undefined;
	try {
		cursor = asked.cursor === undefined ? undefined : decodeCursor(asked.cursor);
	} catch {
		const error = "That page link is not one this console made: start again from the newest orders.";
		return page(c, <OrderListPage {...empty} form={asked.form} error={error} />, 400);
	}
	const owner = ownerOf(c);
	const found = await searchOrders(
		databaseOf(c.env, owner.accountId),
		owner,
		{
			...asked.search,
			limit: ORDERS_PER_PAGE,
			cursor,
		},
		c.env.PRINT_FILES,
	);
	const last = found.page.at(-1);
	const nextCursor =
		found.more && last !== undefined ? encodeCursor({ createdAt: last.order.created_at, id: last.order.id }) : null;
	const props = { viewer, mode, form: asked.form, error: null, orders: found.page, nextCursor };
	return page(c, <OrderListPage {...props} paged={cursor !== undefined} />);
});

partnerOrderRoutes.get(`/${ORDER_ID}`, requirePartner, requireAbility("read"), (c) => {
	const done = c.req.query("done");
	return orderPage(c, c.req.param("id"), { ...NOTHING, done: isOrderDone(done) ? done : null });
});

partnerOrderRoutes.get(
	`/${ORDER_ID}/items/${ITEM_ID}/thumbnail.png`,
	requirePartner,
	requireAbility("read"),
	async (c) => {
		const id = c.req.param("id");
		const found = await ownedOrder(c, id);
		if (found === null) return orderNotFound(c, id);
		const served = await orderItemThumbnail(c.env, found, c.req.param("item"));
		if (!served.ok) return partnerErrorPage(c, refusalStatus(served), served.message, signedInViewerOf(c));
		return c.body(served.body, 200, served.headers);
	},
);

partnerOrderRoutes.get(
	`/${ORDER_ID}/items/${ITEM_ID}/preview.png`,
	requirePartner,
	requireAbility("read"),
	async (c) => {
		const id = c.req.param("id");
		const query = PreviewQuery.safeParse({ width_px: c.req.query("width_px") });
		if (!query.success) {
			const { min, max } = PREVIEW_WIDTH;
			return partnerErrorPage(c, 400, `width_px must be a whole number from ${min} to ${max}.`, signedInViewerOf(c));
		}
		const found = await ownedOrder(c, id);
		if (found === null) return orderNotFound(c, id);
		const widthPx = query.data.width_px ?? PREVIEW_WIDTH.default;
		const served = await orderItemPreview(c.env, found, c.req.param("item"), widthPx);
		if (!served.ok) return partnerErrorPage(c, refusalStatus(served), served.message, signedInViewerOf(c));
		return c.body(served.body, 200, previewHeaders(served));
	},
);

partnerOrderRoutes.get(`/${ORDER_ID}/cancel`, requirePartner, requireAbility("act_on_orders"), async (c) => {
	const id = c.req.param("id");
	const found = await ownedOrder(c, id);
	if (found === null) return orderNotFound(c, id);
	const cancel = orderActions(found, new Date()).cancel;
	if (!cancel.available) return orderPage(c, id, { ...NOTHING, refusal: cancel.reason }, 409);
	const mode = modeOf(c);
	const form = { orderId: id, externalId: found.order.external_id, mode, csrfToken: c.var.signedIn.csrfToken };
	return page(
		c,
		<PartnerLayout
			title={`Cancel order ${found.order.external_id}`}
			viewer={signedInViewerOf(c)}
			mode={mode}
			section="orders"
		>
			<h1>Cancel order {found.order.external_id}</h1>
			<ConfirmCancelForm {...form} />
		</PartnerLayout>,
	);
});

partnerOrderRoutes.post(
	`/${ORDER_ID}/cancel`,
	requirePartner,
	requirePartnerCsrf,
	requireAbility("act_on_orders"),
	async (c) => {
		const id = c.req.param("id");
		const form = await readForm(c);
		if (textField(form, "confirm") !== "yes")
			return c.redirect(withMode(`/partner/orders/${id}/cancel`, modeOf(c)), 303);
		const canceled = await cancelOwnedOrder(c.env, ownerOf(c), id);
		if (canceled.ok) return doneRedirect(c, id, "canceled");
		if (canceled.code === "order_not_found") return orderNotFound(c, id);
		return orderPage(c, id, { ...NOTHING, refusal: canceled.message }, refusalStatus(canceled));
	},
);

partnerOrderRoutes.post(
	`/${ORDER_ID}/recipient`,
	requirePartner,
	requirePartnerCsrf,
	requireAbility("act_on_orders"),
	async (c) => {
		const id = c.req.param("id");
		const form = await readForm(c);
		const values: Record<string, string> = {};
		for (const [name] of RECIPIENT_FIELDS) values[name] = textField(form, name);
		values.shipping_method = textField(form, "shipping_method", 20);
		const { shipping_method: method, ...shipTo } = values;
		const parsed = UpdateOrderBody.safeParse({
			ship_to: Object.fromEntries(Object.entries(shipTo).filter(([, value]) => value !== "")),
			shipping_method: method,
		});
		if (!parsed.success) {
			if ((await ownedOrder(c, id)) === null) return orderNotFound(c, id);
			const issue = parsed.error.issues[0];
			const field = issue?.path.at(-1) ?? "recipient";
			const label = RECIPIENT_FIELDS.find(([name]) => name === field)?.[1] ?? "The shipping method";
			const refusal = `${label}: ${issue?.message ?? "not understood"}.`;
			return orderPage(c, id, { ...NOTHING, refusal, recipientValues: values }, 422);
		}
		const outcome = await updateOwnedOrder(c.env, ownerOf(c), id, parsed.data);
		if (outcome.ok) return doneRedirect(c, id, "changed");
		if (outcome.kind === "not_found") return orderNotFound(c, id);
		const [refusal, status] =
			outcome.kind === "refused"
				? [outcome.message, 409 as const]
				: [outcome.problem.message, refusalStatus(outcome.problem)];
		return orderPage(c, id, { ...NOTHING, refusal, recipientValues: values }, status);
	},
);

partnerOrderRoutes.post(
	`/${ORDER_ID}/items/${ITEM_ID}/fix`,
	requirePartner,
	requirePartnerCsrf,
	requireAbility("act_on_orders"),
	async (c) => {
		const id = c.req.param("id");
		const itemId = c.req.param("item");
		// The order and item first: nothing of a stranger's order is stored, not even the uploaded file.
		const found = await ownedOrder(c, id);
		const item = found?.items.find((candidate) => candidate.id === itemId);
		if (found === null || item === undefined) return orderNotFound(c, id);
		const patch = await heldItemPatch(c.env, ownerOf(c), item, await readForm(c));
		if (!patch.ok) return orderPage(c, id, { ...NOTHING, refusal: patch.message }, 422);
		const fixed = await fixItem(c.env, ownerOf(c), id, itemId, patch.patch);
		if (fixed.ok) return doneRedirect(c, id, "fixed");
		return orderPage(c, id, { ...NOTHING, refusal: fixed.message }, refusalStatus(fixed));
	},
);
