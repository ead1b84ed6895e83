import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createPartner } from "../helpers.ts";
import { readyFile, SHIP_TO } from "../orders/order-helpers.ts";
import { quote } from "./quote-helpers.ts";

describe("POST /v1/quotes: an item's warnings", () => {
	it("carries what an order's item would: fill's crop, fit's bands, low resolution and the file's colour", async () => {
		const key = (await createPartner()).keys.live.key;
		const file = await readyFile(key, 3000, 3000);
		const cmyk = {
			model: "cmyk",
			bits_per_sample: 8,
			alpha: false,
			tagging: "untagged",
			profile: null,
			png: null,
			exif_colour_space: null,
			conversion: "approximate",
		};
		await env.DB.prepare("UPDATE print_files SET colour_facts = ?2 WHERE id = ?1")
			.bind(file, JSON.stringify(cmyk))
			.run();
		const given = await quote(key, {
			ship_to: SHIP_TO,
			items: [
				{ print_file_id: file, width_in: 8, height_in: 10 },
				{ print_file_id: file, width_in: 8, height_in: 10, fit: "fit" },
				{ print_file_id: file, width_in: 12, height_in: 12 },
				{ width_in: 12, height_in: 12 },
			],
		});
		expect(given.items.map((item) => item.warnings)).toEqual([
			["image_cropped", "cmyk_converted"],
			["image_letterboxed", "cmyk_converted"],
			["low_resolution", "cmyk_converted"],
			[],
		]);
	});
});
