import { describe, expect, it } from "vitest";
import type { ContentStats } from "../../src/imaging/content-stats.ts";
import { ContentStatsSink } from "../../src/imaging/content-stats-sink.ts";
import { contentStatsOf } from "../../src/print-files/content-stats-read.ts";

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
		expect(contentStatsOf(JSON.stringify(STORED))).toEqual(STORED);
	});

	it("is null before the thumbnail is made (the column is null)", () => {
		expect(contentStatsOf(null)).toBeNull();
	});

	it("is null for a column that is not ContentStats: not JSON, a missing or out-of-range figure, flags not a list", () => {
		const malformed = [
			"{",
			"null",
			"[]",
			JSON.stringify({ ...STORED, luma_spread: undefined }),
			JSON.stringify({ ...STORED, white_share: 1.5 }),
			JSON.stringify({ ...STORED, mean_rgb: [255, 255] }),
			JSON.stringify({ ...STORED, flags: "mostly_white" }),
		];
		for (const stored of malformed) expect(contentStatsOf(stored)).toBeNull();
	});

	it("leaves out a flag this build does not know (written by a newer one), keeping the rest", () => {
		const newer = JSON.stringify({ ...STORED, flags: ["mostly_white", "upside_down"] });
		expect(contentStatsOf(newer)?.flags).toEqual(["mostly_white"]);
	});

	it("reads back what the thumbnail's maker measured, flags and all", () => {
		const sink = new ContentStatsSink();
		sink.start(2, 1);
		sink.rows(0, 1, Uint8Array.of(255, 255, 255, 255, 255, 255));
		const measured = sink.finish(Uint8Array.of(255, 255, 255, 255, 255, 255));
		expect(contentStatsOf(JSON.stringify(measured))).toEqual(measured);
	});
});
