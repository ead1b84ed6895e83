/**
 * The `content_stats` column read back: the ContentStats the thumbnail's maker stored as JSON, checked,
 * so a caller gets the statistics or null and never a half-read object.
 */
import { z } from "zod";
import { CONTENT_FLAGS, type ContentStats } from "../imaging/content-stats.ts";
import type { PrintFileRow } from "./store.ts";

const share = z.number().min(0).max(1);
const channel = z.number().min(0).max(255);

/** ContentStats as stored; typed against the shape, so the two cannot drift apart. */
const StoredContentStats: z.ZodType<ContentStats> = z.object({
	mean_rgb: z.tuple([channel, channel, channel]),
	luma_spread: z.number().min(0).max(255),
	transparent_share: share,
	white_share: share,
	black_share: share,
	flags: z.array(z.enum(CONTENT_FLAGS)),
});

/**
 * What the file's pixels say, as stored when its thumbnail was made: null before that (or when the file
 * had no thumbnail made), and null for a column that is not valid ContentStats JSON.
 */
export function contentStatsOf(row: Pick<PrintFileRow, "content_stats">): ContentStats | null {
	if (row.content_stats === null) return null;
	let stored: unknown;
	try {
		stored = JSON.parse(row.content_stats);
	} catch {
		return null;
	}
	const parsed = StoredContentStats.safeParse(stored);
	return parsed.success ? parsed.data : null;
}
