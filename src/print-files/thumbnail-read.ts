import { printFileNow } from "./inspection.ts";
import type { PrintFileThumbnail } from "./schema.ts";
import type { PrintFileRow } from "./store.ts";
import { thumbnailKey } from "./thumbnail-store.ts";

/**
 * A file's thumbnail as the API shows it: pending until the file is ready and the thumbnail made;
 * unavailable (`file_invalid`) for a file refused at inspection, (`file_changed`) for a file that expired
 * before its thumbnail was made.
 */
export function thumbnailOf(row: PrintFileRow): PrintFileThumbnail {
	const made = row.thumbnail_status === "ready";
	// Past its retention the bytes are gone: a thumbnail not made by then never will be.
	if (row.expired_at !== null && !made && row.thumbnail_status !== "unavailable") {
		return { status: "unavailable", width_px: null, height_px: null, reason: "file_changed" };
	}
	if (row.thumbnail_status === null) {
		return row.status === "invalid"
			? { status: "unavailable", width_px: null, height_px: null, reason: "file_invalid" }
			: { status: "pending", width_px: null, height_px: null, reason: null };
	}
	return {
		status: row.thumbnail_status,
		width_px: made ? row.thumbnail_width_px : null,
		height_px: made ? row.thumbnail_height_px : null,
		reason: row.thumbnail_status === "unavailable" ? row.thumbnail_reason : null,
	};
}

/**
 * A file's thumbnail as it can be served now: a made thumbnail of bytes that are no longer the
 * file's (replaced since) is unavailable (`file_changed`), never shown as the file's.
 */
export function servableThumbnail(row: PrintFileRow): PrintFileThumbnail {
	const thumbnail = thumbnailOf(row);
	if (thumbnail.status === "ready" && (row.thumbnail_etag === null || row.thumbnail_etag !== row.r2_etag)) {
		return { status: "unavailable", width_px: null, height_px: null, reason: "file_changed" };
	}
	return thumbnail;
}

/** Why a thumbnail cannot be served: still being made (409), or there is none (404). */
export type ThumbnailRefusal = { ok: false; code: "thumbnail_pending" | "thumbnail_unavailable"; message: string };

/**
 * The thumbnail's PNG for a file, or why not. The file is compared with R2 first (as every use of it
 * is), so a file whose bytes were replaced is `file_changed` and its old thumbnail is not served.
 */
export async function servedThumbnail(
	env: Env,
	file: PrintFileRow,
): Promise<{ ok: true; body: ReadableStream; headers: Record<string, string> } | ThumbnailRefusal> {
	const now = await printFileNow(env, file);
	const thumbnail = servableThumbnail(now);
	if (thumbnail.status === "pending") {
		return {
			ok: false,
			code: "thumbnail_pending",
			message: `The thumbnail of print file ${now.id} is still being made.`,
		};
	}
	const unavailable: ThumbnailRefusal = {
		ok: false,
		code: "thumbnail_unavailable",
		message: `Print file ${now.id} has no thumbnail (${thumbnail.reason ?? "unavailable"}).`,
	};
	if (thumbnail.status === "unavailable" || now.thumbnail_etag === null) return unavailable;
	const object = await env.PRINT_FILES.get(thumbnailKey(now, now.thumbnail_etag));
	if (object === null) return unavailable;
	return {
		ok: true,
		body: object.body,
		headers: {
			"Content-Type": "image/png",
			"Content-Length": String(object.size),
			ETag: object.httpEtag,
			"Cache-Control": "private, max-age=300",
			"X-Content-Type-Options": "nosniff",
		},
	};
}
