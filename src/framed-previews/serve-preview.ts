import type { Owner } from "../accounts/owner.ts";
import { isolateCatalog } from "../catalog/cache.ts";
import { databaseOf } from "../databases.ts";
import { sentFraming } from "../framing/spec.ts";
import type { StoredOrder } from "../orders/rows.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { expiredFileRefusal } from "../print-files/retention.ts";
import { findOwnedPrintFile } from "../print-files/store.ts";
import { servedThumbnail } from "../print-files/thumbnail-read.ts";
import { type Refusal, refusal } from "../problem.ts";
import { drawablePiece, type PieceRequest } from "./drawable-piece.ts";
import { framedPreview, type ServedPreview, unfetchedPreview } from "./preview-cache.ts";

/**
 * The preview of `request` with `owner`'s print file `fileId` (none: the item's file was never
 * fetched), `widthPx` wide; or why not, naming `fileField` for the file's refusals. The API's
 * routes and the console's image both come through here.
 */
export async function piecePreview(
	env: Env,
	owner: Owner,
	file: { id: string | null; field: string; ofOrderItem?: boolean },
	request: PieceRequest,
	widthPx: number,
): Promise<ServedPreview | Refusal> {
	const fileId = file.id;
	// The file's row and its R2 head are read side by side (printFileNow compares the two), beside the catalog.
	const [catalog, found] = await Promise.all([
		isolateCatalog.get(databaseOf(env, owner.accountId)),
		fileId === null
			? null
			: printFileNow(env, {
					owner,
					id: fileId,
					row: findOwnedPrintFile(databaseOf(env, owner.accountId), owner, fileId),
				}),
	]);
	if (fileId !== null && found === null) return refusal("print_file_not_found", file.field, `No print file ${fileId}.`);
	// A new piece may not name an expired file; an order's own item is still drawn, from its kept thumbnail.
	const expired = found === null || file.ofOrderItem === true ? null : expiredFileRefusal(found, file.field);
	if (expired !== null) return expired;
	const drawable = drawablePiece(catalog.catalog, request);
	if (!drawable.ok) return drawable;
	const served =
		found === null ? await unfetchedPreview(drawable, widthPx) : await framedPreview(env, found, drawable, widthPx);
	return served.ok ? served : refusal(served.code, file.field, served.message);
}

/** The preview of the item `itemId` of an order already read (its own account's and mode's file), or why not. */
export async function orderItemPreview(
	env: Env,
	found: StoredOrder,
	itemId: string,
	widthPx: number,
): Promise<ServedPreview | Refusal> {
	const item = found.items.find((candidate) => candidate.id === itemId);
	if (item === undefined) {
		return refusal("order_item_not_found", "item_id", `Order ${found.order.id} has no item ${itemId}.`);
	}
	const owner = { accountId: found.order.account_id, mode: found.order.mode };
	const request = { width_in: item.width_in, height_in: item.height_in, ...sentFraming(item) };
	return piecePreview(env, owner, { id: item.print_file_id, field: "item_id", ofOrderItem: true }, request, widthPx);
}

/** A thumbnail's PNG and the headers it is sent with. */
export type ServedThumbnail = { ok: true; body: ReadableStream; headers: Record<string, string> };

/**
 * The thumbnail of item `itemId`'s print file in `found` (its own account's file only), or why not:
 * no such item, no uploaded or fetched file yet, a thumbnail still being made or never to be. Both
 * consoles' item images come through here.
 */
export async function orderItemThumbnail(
	env: Env,
	found: StoredOrder,
	itemId: string,
): Promise<ServedThumbnail | Refusal> {
	const item = found.items.find((candidate) => candidate.id === itemId);
	if (item === undefined) {
		return refusal("order_item_not_found", "item_id", `Order ${found.order.id} has no item ${itemId}.`);
	}
	const owner = { accountId: found.order.account_id, mode: found.order.mode };
	const file =
		item.print_file_id === null
			? null
			: await findOwnedPrintFile(databaseOf(env, owner.accountId), owner, item.print_file_id);
	if (file === null) {
		return refusal("thumbnail_unavailable", "item_id", `Item ${itemId} has no print file yet, so no thumbnail.`);
	}
	const served = await servedThumbnail(env, file);
	return served.ok ? served : refusal(served.code, "item_id", served.message);
}

/** The headers a preview's PNG is sent with: its type, etag, a private cache, and whether it shows the image. */
export function previewHeaders(served: ServedPreview): Record<string, string> {
	const headers: Record<string, string> = {
		"Content-Type": "image/png",
		ETag: served.etag,
		"Cache-Control": "private, max-age=300",
		"X-Content-Type-Options": "nosniff",
		"X-Preview-Image": served.image,
	};
	if (served.placeholderReason !== null) headers["X-Preview-Placeholder-Reason"] = served.placeholderReason;
	return headers;
}
