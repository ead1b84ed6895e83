import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "./order-helpers.ts";

const UNTAGGED_RGB = {
	model: "rgb",
	bits_per_sample: 8,
	alpha: false,
	tagging: "untagged",
	profile: null,
	png: null,
	exif_colour_space: null,
	conversion: "assumed_srgb",
};

describe("an order's item warnings", () => {
	it("fit's white bands past 1/4 in, the file's colour and its content flags, on the create and after validation", async () => {
		const key = (await createPartner()).keys.live.key;
		// A square 3000 px image fit in 8 × 10 in: 300 DPI, 1 in of white above and below (7/8 in shows past the mat).
		const file = await readyFile(key, 3000, 3000);
		const stats = {
			mean_rgb: [3, 3, 3],
			luma_spread: 1,
			transparent_share: 0,
			white_share: 0,
			black_share: 0.98,
			flags: ["mostly_black"],
		};
		await env.DB.prepare("UPDATE print_files SET colour_facts = ?2, content_stats = ?3 WHERE id = ?1")
			.bind(file, JSON.stringify(UNTAGGED_RGB), JSON.stringify(stats))
			.run();
		const order = await createOrder(key, orderBody(file, {}, { fit: "fit" }));
		expect(order.items[0]?.warnings).toEqual(["image_letterboxed", "untagged_colour", "mostly_black"]);
		const validated = await settleValidation(key, order.id);
		expect(validated.items[0]?.warnings).toEqual(["image_letterboxed", "untagged_colour", "mostly_black"]);
	});

	it("bands the mat hides carry no letterbox warning", async () => {
		const key = (await createPartner()).keys.live.key;
		// 2400 × 3040 px fit in 8 × 10 in: 304 DPI across, 0.06 in bands above and below, under the mat's 1/8 in.
		const file = await readyFile(key, 2400, 3040);
		const order = await createOrder(key, orderBody(file, {}, { fit: "fit" }));
		expect(order.items[0]?.warnings).toEqual([]);
	});
});
