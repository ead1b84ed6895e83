/**
 * The content's statistics, taken by the THUMBNAILS consumer while it makes a file's thumbnail and stored
 * on the file's row (content_stats), read back with contentStatsOf.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { contentStatsOf } from "../../src/print-files/content-stats-read.ts";
import { findPrintFileById } from "../../src/print-files/store.ts";
import { createPartner } from "../helpers.ts";
import { encodeFlatPng, encodePng } from "../imaging/fixtures/png.ts";
import { uploadedFile } from "../print-files/upload-helpers.ts";
import { consumeThumbnailMessage } from "./thumbnail-helpers.ts";

/**
 * Uploads `png` as a new partner's print file and has its thumbnail made; the statistics its row holds then.
 * (The upload's own queue message may be consumed first, within a second: the row is then read after
 * whichever consumer made the thumbnail, with the same statistics.)
 */
async function storedStatsOf(png: Uint8Array) {
	const file = await uploadedFile((await createPartner()).keys.live.key, png);
	await consumeThumbnailMessage(file);
	const row = await findPrintFileById(env.DB, file);
	if (row === null) throw new Error(`no print file ${file}`);
	expect(row.thumbnail_status).toBe("ready");
	return contentStatsOf(row.content_stats);
}

describe("content statistics stored when the thumbnail is made", () => {
	it("a blank white PNG is flagged near_uniform_image and mostly_white", async () => {
		const stats = await storedStatsOf(encodeFlatPng(800, 1000, [255, 255, 255, 255]));
		expect(stats).toEqual({
			mean_rgb: [255, 255, 255],
			luma_spread: 0,
			transparent_share: 0,
			white_share: 1,
			black_share: 0,
			flags: ["near_uniform_image", "mostly_white"],
		});
	});

	it("an empty layer (every pixel clear) is also flagged mostly_transparent", async () => {
		const stats = await storedStatsOf(encodeFlatPng(600, 400, [40, 80, 120, 0]));
		expect(stats?.transparent_share).toBe(1);
		expect(stats?.flags).toEqual(["near_uniform_image", "mostly_transparent", "mostly_white"]);
	});

	it("a colourful picture is flagged with nothing", async () => {
		const stats = await storedStatsOf(encodePng(800, 1000, { opaque: true }));
		expect(stats?.luma_spread).toBeGreaterThan(10);
		expect(stats?.flags).toEqual([]);
	});
});
