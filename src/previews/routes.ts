import type { Context } from "hono";
import { protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { sentFraming } from "../framing/spec.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, unprocessable } from "../http/errors.ts";
import { findOwnedOrder } from "../orders/store.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { findOwnedPrintFile } from "../print-files/store.ts";
import { PREVIEW_WIDTH } from "./framed-preview.ts";
import { framedPreview, unfetchedPreview } from "./make-preview.ts";
import { drawablePiece, type PieceRequest } from "./preview-piece.ts";
import { ItemPreviewParams, PreviewBody, PreviewQuery, previewPngResponse } from "./schema.ts";

const createPreview = protectedRoute("orders:read", {
	method: "post",
	path: "/previews",
	tags: ["Previews"],
	summary: "A framed preview (PNG) of a piece not yet ordered",
	description:
		"Checked as an order's item is: unknown slugs and impossible combinations are a 422 naming the field. 404 `print_file_not_found` for another account's or mode's file; 409 `thumbnail_pending` while the file's thumbnail is being made. A file that will have no thumbnail gets the frame with a neutral placeholder (`X-Preview-Image: placeholder`).",
	request: { body: { required: true, content: { "application/json": { schema: PreviewBody } } } },
	responses: { 200: previewPngResponse, ...errorResponses(400, 404, 409, 422) },
});

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

/** The preview of `request` with the caller's file `fileId`, as a PNG response. */
async function previewResponse(
	c: Context<AuthedEnv>,
	fileId: string | null,
	fileField: string,
	request: PieceRequest,
	widthPx: number,
): Promise<Response> {
	// The file's row and its R2 head are read side by side (printFileNow compares the two), beside the catalog.
	const [catalog, file] = await Promise.all([
		isolateCatalog.get(c.env.DB),
		fileId === null
			? null
			: printFileNow(c.env, {
					owner: c.var.principal,
					id: fileId,
					row: findOwnedPrintFile(c.env.DB, c.var.principal, fileId),
				}),
	]);
	if (fileId !== null && file === null)
		throw new ApiError("print_file_not_found", `No print file ${fileId}.`, fileField);
	const drawable = drawablePiece(catalog.catalog, request);
	if (!drawable.ok) throw unprocessable(drawable);
	const served =
		file === null ? await unfetchedPreview(drawable, widthPx) : await framedPreview(c.env, file, drawable, widthPx);
	if (!served.ok) throw new ApiError(served.code, served.message, fileField);
	const headers: Record<string, string> = {
		"Content-Type": "image/png",
		ETag: served.etag,
		"Cache-Control": "private, max-age=300",
		"X-Content-Type-Options": "nosniff",
		"X-Preview-Image": served.image,
	};
	if (served.placeholderReason !== null) headers["X-Preview-Placeholder-Reason"] = served.placeholderReason;
	// Through the context, so the headers every answer carries (X-Request-Id, the rate limit's) come too.
	return c.body(served.body, 200, headers);
}

/** `POST /v1/previews` and `GET /v1/orders/{id}/items/{item_id}/preview` (scope `orders:read`). */
export const previewRoutes = createApp<AuthedEnv>()
	.openapi(createPreview, async (c) => {
		const { print_file_id: fileId, width_px: widthPx, ...request } = c.req.valid("json");
		return previewResponse(c, fileId, "print_file_id", request, widthPx ?? PREVIEW_WIDTH.default);
	})
	.openapi(itemPreview, async (c) => {
		const { id, item_id: itemId } = c.req.valid("param");
		const { width_px: widthPx } = c.req.valid("query");
		const found = await findOwnedOrder(c.env.DB, c.var.principal, id);
		if (found === null) throw new ApiError("order_not_found", `No order ${id}.`, "id");
		const item = found.items.find((candidate) => candidate.id === itemId);
		if (item === undefined) throw new ApiError("order_item_not_found", `Order ${id} has no item ${itemId}.`, "item_id");
		const request = { width_in: item.width_in, height_in: item.height_in, ...sentFraming(item) };
		return previewResponse(c, item.print_file_id, "item_id", request, widthPx ?? PREVIEW_WIDTH.default);
	});
