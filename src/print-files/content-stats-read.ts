/**
 * A print file's stored content statistics (`print_files.content_stats`, JSON written when its
 * thumbnail is made) read back into their shape. A column that is empty, not JSON, or not the shape
 * reads as null: nothing is known of the pixels, and nothing is warned about them.
 */
import { z } from "@hono/zod-openapi";
import { parsedJson } from "../http/stored-json.ts";
import { CONTENT_FLAGS, type ContentStats } from "../imaging/content-stats.ts";

const share = z.number().min(0).max(1);

/** ContentStats as stored (and as `preflight.content` answers them). */
export const ContentStatsSchema = z
	.object({
		mean_rgb: z.tuple([z.number(), z.number(), z.number()]),
		luma_spread: z.number(),
		transparent_share: share,
		white_share: share,
		black_share: share,
		flags: z.array(z.enum(CONTENT_FLAGS)),
	})
	.openapi("PrintFileContent", {
		example: {
			mean_rgb: [118.4, 104.9, 92.2],
			luma_spread: 61.3,
			transparent_share: 0,
			white_share: 0.02,
			black_share: 0.01,
			flags: [],
		},
		description:
			"Statistics of the file's pixels, taken while its thumbnail was made: mean colour, luma spread, the shares of transparent, white and black pixels, and the flags they raise.",
	});

/** As stored: a flag this build does not know (written by a newer one) is left out rather than failing the whole. */
const StoredContentStats = ContentStatsSchema.extend({ flags: z.array(z.string()) });

function isContentFlag(flag: string): flag is ContentStats["flags"][number] {
	return (CONTENT_FLAGS as readonly string[]).includes(flag);
}

/** The stored content statistics, or null when none were recorded or they do not read. */
export function contentStatsOf(stored: string | null): ContentStats | null {
	const read = stored === null ? null : parsedJson(stored, StoredContentStats);
	return read === null ? null : { ...read, flags: read.flags.filter(isContentFlag) };
}
