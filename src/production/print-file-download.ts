/**
 * A print file for the floor (`ops`): the bytes exactly as inspected, streamed from R2 (never held
 * whole in memory, so a 300 MB TIFF is no different from a 3 MB PNG), named by the order and item
 * that print it. The read is conditional on the etag the inspection pinned: bytes replaced since are
 * refused, never handed to the printer.
 */

import { findInEveryDatabase } from "../databases.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import { findItemPrinting, type ItemNaming } from "../orders/queue-store.ts";
import { findPrintFileById, type PrintFileRow } from "../print-files/store.ts";
import { type Refusal, refusal } from "../problem.ts";

/** The extension a downloaded file gets, by its inspected format. */
const EXTENSIONS: Readonly<Record<ImageFormat, string>> = { jpeg: "jpg", png: "png", tiff: "tif" };
/** The media type a downloaded file is served as, by its inspected format (not the type the partner declared). */
const MEDIA_TYPES: Readonly<Record<ImageFormat, string>> = { jpeg: "image/jpeg", png: "image/png", tiff: "image/tiff" };

/** `PO-1001_item-2.tif`: the partner's order number (only filename-safe characters) and the item's place. */
export function downloadName(file: Pick<PrintFileRow, "id" | "format">, item: ItemNaming | null): string {
	const extension = file.format === null ? "bin" : EXTENSIONS[file.format];
	if (item === null) return `${file.id}.${extension}`;
	const order = item.external_id.replace(/[^A-Za-z0-9._-]+/g, "-").replace(/^[-.]+|[-.]+$/g, "") || item.order_id;
	return `${order}_item-${item.position + 1}.${extension}`;
}

/** The refusal of a file that has no checked bytes to hand over (`print_file_not_printable`, a 409). */
function notPrintable(message: string): Refusal {
	return refusal("print_file_not_printable", "id", message);
}

/** The refusal of a file whose bytes are not the ones inspected (noticed now, or already). */
function replaced(fileId: string): Refusal {
	return notPrintable(`Print file ${fileId} was replaced after it was checked; ask the partner for the file again.`);
}

/**
 * The file's bytes as a streamed response with its name, or why not: `print_file_not_found`,
 * `order_item_not_found` for an item that does not print it, or `print_file_not_printable` when there
 * are no checked bytes to hand over. `itemId` names the download after that item (which must print
 * this file); without it the oldest order printing the file names it.
 */
export async function downloadPrintFile(
	env: Env,
	fileId: string,
	itemId: string | null,
): Promise<{ ok: true; body: ReadableStream; headers: Record<string, string> } | Refusal> {
	// The file's database is the one that has it; its item is read there, side by side.
	const found = await findInEveryDatabase(env, async (database) => {
		const [file, item] = await Promise.all([
			findPrintFileById(database, fileId),
			findItemPrinting(database, fileId, itemId),
		]);
		return file === null ? null : { file, item };
	});
	if (found === null) return refusal("print_file_not_found", "id", `No print file ${fileId}.`);
	const { file, item } = found;
	if (itemId !== null && item === null) {
		return refusal("order_item_not_found", "item_id", `Item ${itemId} does not print file ${fileId}.`);
	}
	if (file.expired_at !== null) {
		const message = `Print file ${fileId} expired ${file.expired_at}: its bytes were deleted after the retention period (its thumbnail is kept).`;
		return notPrintable(message);
	}
	if (file.invalid_reason === "file_changed") return replaced(fileId);
	if (file.status !== "ready" || file.r2_etag === null) {
		const status = file.status === "invalid" ? `invalid (${file.invalid_reason ?? "unknown"})` : file.status;
		return notPrintable(`Print file ${fileId} is ${status}: there are no checked bytes to hand over.`);
	}
	const object = await env.PRINT_FILES.get(file.r2_key, { onlyIf: { etagMatches: file.r2_etag } });
	if (object === null) return notPrintable(`Print file ${fileId} is no longer in storage.`);
	// No body: the object's etag is not the pinned one, so these are not the bytes that were checked.
	if (!("body" in object)) return replaced(fileId);
	const name = downloadName(file, item);
	return {
		ok: true,
		body: object.body,
		headers: {
			"Content-Type": file.format === null ? "application/octet-stream" : MEDIA_TYPES[file.format],
			"Content-Length": String(object.size),
			"Content-Disposition": `attachment; filename="${name}"`,
			ETag: object.httpEtag,
			"Cache-Control": "private, no-store",
			"X-Content-Type-Options": "nosniff",
		},
	};
}
