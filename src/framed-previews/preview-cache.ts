import { sha256Hex } from "../ids.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { DrawablePiece } from "./drawable-piece.ts";
import { previewSource, previewSourceState } from "./preview-source.ts";
import { renderFramedPreview } from "./render.ts";

/** Bumped when the drawing changes, so previews cached before are drawn again. */
const DRAWING_VERSION = 2;

/** A preview to send: its PNG, its R2 etag, and whether the opening shows the image or a placeholder (and why). */
export type ServedPreview = {
	ok: true;
	body: ReadableStream | Uint8Array<ArrayBuffer>;
	etag: string;
	image: "thumbnail" | "placeholder";
	placeholderReason: string | null;
};

/** Why no preview yet: the file's thumbnail is still being made. */
export type PreviewPending = { ok: false; code: "thumbnail_pending"; message: string };

/**
 * The preview of `drawable` with `file`'s image, `widthPx` wide: read from R2 when drawn before (one
 * get), else drawn and stored. It is cached by a hash of what determines it: the file's bytes (its
 * etag) and its thumbnail's state, the piece, the catalog's colours and widths, the width asked.
 */
export async function framedPreview(
	env: Env,
	file: PrintFileRow,
	drawable: DrawablePiece,
	widthPx: number,
): Promise<ServedPreview | PreviewPending> {
	const source = previewSourceState(file);
	if (source.state === "pending") {
		const message = `The thumbnail of print file ${file.id} is still being made; its preview follows it.`;
		return { ok: false, code: "thumbnail_pending", message };
	}
	const determinedBy = [DRAWING_VERSION, file.r2_etag, source, drawable.piece, drawable.colours, widthPx];
	const key = `previews/${file.r2_key}/${await sha256Hex(JSON.stringify(determinedBy))}.png`;
	const cached = await env.PRINT_FILES.get(key);
	if (cached !== null) {
		const reason = cached.customMetadata?.placeholder_reason ?? null;
		return {
			ok: true,
			body: cached.body,
			etag: cached.httpEtag,
			image: reason === null ? "thumbnail" : "placeholder",
			placeholderReason: reason,
		};
	}
	const image = await previewSource(env, file);
	const reason = source.state === "placeholder" ? source.reason : image === null ? "thumbnail_missing" : null;
	const drawn = renderFramedPreview(drawable.piece, drawable.colours, image, widthPx);
	// A thumbnail that should be there and is not is drawn without it, but not kept: the next request tries again.
	const stored =
		reason === "thumbnail_missing"
			? null
			: await env.PRINT_FILES.put(key, drawn.png, {
					httpMetadata: { contentType: "image/png" },
					customMetadata: reason === null ? {} : { placeholder_reason: reason },
				});
	return {
		ok: true,
		body: drawn.png,
		etag: stored?.httpEtag ?? `"${await sha256Hex(key)}"`,
		image: reason === null ? "thumbnail" : "placeholder",
		placeholderReason: reason,
	};
}

/**
 * The preview of an item whose file was never fetched from its URL (the fetch failed: the order is
 * held for it): the frame with the placeholder, not cached, since the item's fix brings a file.
 */
export async function unfetchedPreview(drawable: DrawablePiece, widthPx: number): Promise<ServedPreview> {
	const drawn = renderFramedPreview(drawable.piece, drawable.colours, null, widthPx);
	const etag = `"${await sha256Hex(JSON.stringify([DRAWING_VERSION, "file_not_fetched", drawable, widthPx]))}"`;
	return { ok: true, body: drawn.png, etag, image: "placeholder", placeholderReason: "file_not_fetched" };
}
