import { AreaReducer, type Thumbnail } from "../imaging/area-reducer.ts";
import { memorySource } from "../imaging/byte-source.ts";
import { decodeImage } from "../imaging/decode.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import { thumbnailOf } from "../print-files/thumbnail-read.ts";
import { thumbnailKey } from "../print-files/thumbnail-store.ts";

/**
 * Where a preview's image stands: `pending` while the file's thumbnail is being made (the route's
 * 409); `placeholder` when there will be none (the preview is drawn without it, saying why);
 * `ready` with the key of the thumbnail to draw, pinned to the bytes it was made from.
 */
export type SourceState =
	| { state: "pending" }
	| { state: "placeholder"; reason: string }
	| { state: "ready"; key: string; etag: string };

/** The state of `file`'s image, from its row alone (a file compared with R2 first, as every use is). */
export function previewSourceState(file: PrintFileRow): SourceState {
	const thumbnail = thumbnailOf(file);
	if (thumbnail.status === "pending") return { state: "pending" };
	if (thumbnail.status === "unavailable") return { state: "placeholder", reason: thumbnail.reason ?? "unavailable" };
	if (file.thumbnail_etag === null || file.thumbnail_etag !== file.r2_etag) {
		return { state: "placeholder", reason: "file_changed" };
	}
	return { state: "ready", key: thumbnailKey(file, file.thumbnail_etag), etag: file.thumbnail_etag };
}

/**
 * The one place a preview takes its image: the file's thumbnail (a PNG of at most 1024 × 1024 px,
 * which the thumbnail pipeline stored) read from R2 and decoded to RGB by the PNG decoder that made
 * it from the file, at its own size; null when it is gone.
 */
export async function previewSource(env: Env, file: PrintFileRow): Promise<Thumbnail | null> {
	const source = previewSourceState(file);
	if (source.state !== "ready") return null;
	const object = await env.PRINT_FILES.get(source.key);
	if (object === null) return null;
	// A thumbnail is within a thumbnail's size, so the reducer hands its pixels on as they are.
	const reducer = new AreaReducer();
	await decodeImage("png", memorySource(new Uint8Array(await object.arrayBuffer())), reducer);
	return reducer.finish();
}
