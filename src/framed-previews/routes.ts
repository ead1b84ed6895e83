import type { Context } from "hono";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, refusalError } from "../http/errors.ts";
import { findOwnedOrder } from "../orders/store.ts";
import type { Refusal } from "../problem.ts";
import type { ServedPreview } from "./preview-cache.ts";
import { PREVIEW_WIDTH } from "./render.ts";
import { ItemPreviewParams, PreviewBody, PreviewQuery, previewPngResponse } from "./schema.ts";
import { orderItemPreview, piecePreview, previewHeaders } from "./serve-preview.ts";

const createPreview = protectedRoute(
	"orders:read",
	{
		method: "post",
		path: "/previews",
		tags: ["Previews"],
		summary: "A framed preview (PNG) of a piece not yet ordered",
		description:
			"Checked as an order's item is: unknown slugs and impossible combinations are a 422 naming the field. 404 `print_file_not_found` for another account's or mode's file; 409 `thumbnail_pending` while the file's thumbnail is being made. A file that will have no thumbnail gets the frame with a neutral placeholder (`X-Preview-Image: placeholder`).",
		request: { body: { required: true, content: { "application/json": { schema: PreviewBody } } } },
		responses: { 200: previewPngResponse, ...errorResponses(400, 404, 409, 422) },
	},
	// A retry draws the same PNG again and changes nothing, so it needs no key (and a PNG is no answer to keep).
	{ idempotencyKey: "ignored" },
);

const itemPreview = protectedRoute("orders:read", {
	method: "get",
	path: "/orders/{id}/items/{item_id}/preview",
	tags: ["Previews"],
	summary: "The framed preview (PNG) of an order's item",
	description:
		"404 for another account's or mode's order; 422 with the hold's code for an item the service would not make (a part not in the catalog, a size not offered); 409 `thumbnail_pending` while its file's thumbnail is being made.",
	request: { params: ItemPreviewParams, query: PreviewQuery },
	responses: { 200: previewPngResponse, ...errorResponses(404, 409, 422) },
});

/** A preview or its refusal as the API's answer: the PNG, or the error envelope. */
function previewResponse(c: Context<AuthedEnv>, served: ServedPreview | Refusal): Response {
	if (!served.ok) throw refusalError(served);
	// Through the context, so the headers every answer carries (X-Request-Id, the rate limit's) come too.
	return c.body(served.body, 200, previewHeaders(served));
}

/** `POST /v1/previews` and `GET /v1/orders/{id}/items/{item_id}/preview` (scope `orders:read`). */
export const previewRoutes = createApp<AuthedEnv>()
	.openapi(createPreview, async (c) => {
		const { print_file_id: fileId, width_px: widthPx, ...request } = c.req.valid("json");
		const file = { id: fileId, field: "print_file_id" };
		return previewResponse(
			c,
			await piecePreview(c.env, c.var.principal, file, request, widthPx ?? PREVIEW_WIDTH.default),
		);
	})
	.openapi(itemPreview, async (c) => {
		const { id, item_id: itemId } = c.req.valid("param");
		const { width_px: widthPx } = c.req.valid("query");
		const found = await findOwnedOrder(
			databaseOf(c.env, c.var.principal.accountId),
			c.var.principal,
			id,
			c.env.PRINT_FILES,
		);
		if (found === null) throw new ApiError("order_not_found", `No order ${id}.`, "id");
		return previewResponse(c, await orderItemPreview(c.env, found, itemId, widthPx ?? PREVIEW_WIDTH.default));
	});
