import { z } from "zod";
import { log } from "../log.ts";

/** A THUMBNAILS queue message: make the thumbnail of this file from the bytes with this etag. */
export const ThumbnailMessage = z.object({
	print_file_id: z.string().min(1).max(64),
	etag: z.string().min(1).max(200),
});
export type ThumbnailMessage = z.infer<typeof ThumbnailMessage>;

/**
 * Asks for the thumbnail of files that just became ready. A send that fails is logged, not thrown: the
 * file is ready regardless, and the cron's safety net sends its message again once it is overdue.
 */
export async function requestThumbnails(env: Env, files: readonly ThumbnailMessage[]): Promise<void> {
	if (files.length === 0) return;
	try {
		await env.THUMBNAILS.sendBatch(files.map((body) => ({ body })));
	} catch (error) {
		log.warn("thumbnail.enqueue_failed", {
			print_file_ids: files.map((file) => file.print_file_id),
			message: String(error),
		});
	}
}
