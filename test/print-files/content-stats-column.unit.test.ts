import { describe, expect, it } from "vitest";
import type { ContentStats } from "../../src/imaging/content-stats.ts";
import { contentStatsOf } from "../../src/print-files/content-stats-column.ts";

const STORED: ContentStats = {
	mean_rgb: [255, 255, 255],
	luma_spread: 0,
	transparent_share: 0,
	white_share: 1,
	black_share: 0,
	flags: ["near_uniform_image", "mostly_white"],
};

describe("contentStatsOf", () => {
	it("reads the stored statistics back as they were written", () => {
		expect(contentStatsOf({ content_stats: JSON.stringify(STORED) })).toEqual(STORED);
	});

	it("is null before the thumbnail is made (the column is null)", () => {
		expect(contentStatsOf({ content_stats: null })).toBeNull();
	});

	it("is null for a column that is not ContentStats: not JSON, a missing or out-of-range figure, an unknown flag", () => {
		const malformed = [
			"{",
			"null",
			"[]",
			JSON.stringify({ ...STORED, luma_spread: undefined }),
			JSON.stringify({ ...STORED, white_share: 1.5 }),
			JSON.stringify({ ...STORED, mean_rgb: [255, 255] }),
			JSON.stringify({ ...STORED, mean_rgb: [255, 255, 300] }),
			JSON.stringify({ ...STORED, flags: ["mostly_white", "upside_down"] }),
			JSON.stringify({ ...STORED, flags: "mostly_white" }),
		];
		for (const content_stats of malformed) expect(contentStatsOf({ content_stats })).toBeNull();
	});
});
