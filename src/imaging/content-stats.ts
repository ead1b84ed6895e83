/**
 * A few statistics of a file's pixels, taken while its thumbnail is made, which flag the files that are
 * almost certainly a broken export (a blank canvas, an all-transparent layer): a warning, never a refusal.
 */

/** The flags, each a warning's code. */
export const CONTENT_FLAGS = ["near_uniform_image", "mostly_transparent", "mostly_white", "mostly_black"] as const;
/** One of CONTENT_FLAGS. */
export type ContentFlag = (typeof CONTENT_FLAGS)[number];

/** What the pixels say, over every decoded pixel (before compositing on white for the alpha share). */
export type ContentStats = {
	/** Mean sRGB of the thumbnail, 0 to 255 each. */
	mean_rgb: [number, number, number];
	/** Standard deviation of luma (0 to 255) over the decoded pixels. */
	luma_spread: number;
	/** Share of pixels (0 to 1) almost fully transparent (alpha under 5 %); 0 without alpha. */
	transparent_share: number;
	/** Share of pixels almost white (each channel at 250 or more, after compositing). */
	white_share: number;
	/** Share of pixels almost black (each channel at 5 or less). */
	black_share: number;
	flags: ContentFlag[];
};
