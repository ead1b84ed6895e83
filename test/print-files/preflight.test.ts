import { env } from "cloudflare:workers";
import type { z } from "@hono/zod-openapi";
import { describe, expect, it } from "vitest";
import type { PrintFileWithPreflightSchema } from "../../src/print-files/schema.ts";
import { api, createPartner, expectError } from "../helpers.ts";
import { pngClaiming, uploadedFile } from "./upload-helpers.ts";

type PrintFileWithPreflight = z.infer<typeof PrintFileWithPreflightSchema>;

async function preflightOf(key: string, id: string, query = ""): Promise<PrintFileWithPreflight["preflight"]> {
	const response = await api(`/v1/print-files/${id}${query}`, { key });
	expect(response.status).toBe(200);
	return ((await response.json()) as PrintFileWithPreflight).preflight;
}

const CMYK_FACTS = {
	model: "cmyk",
	bits_per_sample: 8,
	alpha: false,
	tagging: "icc_profile",
	profile: {
		description: "Coated FOGRA39",
		colour_space: "CMYK",
		device_class: "prtr",
		version: "2.1.0",
		size_bytes: 557168,
		kind: "lut",
		known_space: null,
	},
	png: null,
	exif_colour_space: null,
	conversion: "approximate",
};

describe("GET /v1/print-files/{id}: preflight", () => {
	it("judges the standard sizes in the image's orientation when no size is asked, with the largest sizes", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		// 6000 × 4800 px: 20 × 16 in at 300 DPI, 40 × 32 at 150.
		const id = await uploadedFile(key, pngClaiming(6000, 4800));
		const preflight = await preflightOf(key, id);
		expect(preflight.colour).toBeNull();
		expect(preflight.content).toBeNull();
		expect(preflight.largest_size_at_300_dpi).toEqual({
			long_in: 20,
			short_in: 16,
			catalog_size: { long_in: 20, short_in: 16 },
		});
		expect(preflight.largest_size_at_150_dpi).toEqual({
			long_in: 40,
			short_in: 32,
			catalog_size: { long_in: 40, short_in: 32 },
		});
		const at = (width: number, height: number) =>
			preflight.sizes.find((size) => size.width_in === width && size.height_in === height);
		// Landscape, so listed landscape: 20 × 16 is exact at 300 DPI.
		expect(at(20, 16)).toMatchObject({ verdict: "good", effective_dpi: 300, reasons: [], fit: "fill", mat: false });
		expect(at(16, 20)).toBeUndefined();
		// 30 × 24 is the image's own shape at 200 DPI; 24 × 18 cuts 6.25% of its width.
		expect(at(30, 24)?.verdict).toBe("acceptable");
		expect(at(30, 24)?.reasons.map((reason) => reason.code)).toEqual(["low_resolution"]);
		expect(at(24, 18)?.verdict).toBe("poor");
		// 36 × 24 cuts a sixth of the height: poor; 40 × 30 is exactly 150 DPI, the least accepted.
		expect(at(36, 24)?.verdict).toBe("poor");
		expect(at(36, 24)?.reasons.map((reason) => reason.code)).toEqual(["low_resolution", "image_cropped"]);
		expect(at(40, 30)).toMatchObject({ verdict: "poor", effective_dpi: 150 });
	});

	it("judges each size asked, with fill's crop, fit's bands and the mat's cover, and refuses a size not offered", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const id = await uploadedFile(key, pngClaiming(6000, 4000));
		const preflight = await preflightOf(key, id, "?size=16x20&size=16x20,fit&size=16x20,fit,mat&size=50x50");
		expect(preflight.sizes.map((size) => [size.fit, size.mat, size.verdict])).toEqual([
			["fill", false, "poor"],
			["fit", false, "poor"],
			["fit", true, "poor"],
			["fill", false, "refused"],
		]);
		const [fill, fit, matted, large] = preflight.sizes;
		expect(fill?.figures?.turned).toBe(true);
		expect(fill?.figures?.crop?.px).toEqual({ left: 500, right: 500, top: 0, bottom: 0 });
		expect(fill?.reasons.map((reason) => reason.code)).toEqual(["low_resolution", "image_cropped"]);
		expect(fit?.figures?.bands_in).toEqual({ left: 1.333, right: 1.333, top: 0, bottom: 0 });
		expect(fit?.reasons.map((reason) => reason.code)).toEqual(["image_letterboxed"]);
		expect(matted?.figures?.mat?.bands_hidden).toBe(false);
		expect(large?.reasons.map((reason) => reason.code)).toEqual([
			"size_not_offered",
			"file_resolution_too_low",
			"image_cropped",
		]);
		// The reasons are the catalog's words.
		expect(fit?.reasons[0]?.message).toMatch(/white band wider than 1\/4 in/);
	});

	it("warns of a CMYK file and of content flags, from the file's stored facts, and reads malformed facts as none", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const id = await uploadedFile(key, pngClaiming(4800, 6000));
		const stats = {
			mean_rgb: [250, 250, 250],
			luma_spread: 0.4,
			transparent_share: 0,
			white_share: 0.99,
			black_share: 0,
			flags: ["near_uniform_image", "mostly_white", "a_flag_from_the_future"],
		};
		await env.DB.prepare("UPDATE print_files SET colour_facts = ?2, content_stats = ?3 WHERE id = ?1")
			.bind(id, JSON.stringify(CMYK_FACTS), JSON.stringify(stats))
			.run();
		const preflight = await preflightOf(key, id, "?size=16x20");
		expect(preflight.colour).toEqual(CMYK_FACTS);
		expect(preflight.content?.flags).toEqual(["near_uniform_image", "mostly_white"]);
		expect(preflight.sizes[0]).toMatchObject({ verdict: "poor", effective_dpi: 300 });
		expect(preflight.sizes[0]?.reasons.map((reason) => reason.code)).toEqual([
			"cmyk_converted",
			"near_uniform_image",
			"mostly_white",
		]);

		await env.DB.prepare("UPDATE print_files SET colour_facts = ?2, content_stats = ?3 WHERE id = ?1")
			.bind(id, "{not json", JSON.stringify({ mean_rgb: "grey" }))
			.run();
		const malformed = await preflightOf(key, id, "?size=16x20");
		expect([malformed.colour, malformed.content]).toEqual([null, null]);
		expect(malformed.sizes[0]).toMatchObject({ verdict: "good", reasons: [] });
	});

	it("refuses every size of a file not yet uploaded, saying so", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const created = await api("/v1/print-files", {
			key,
			method: "POST",
			body: JSON.stringify({ content_type: "image/png" }),
			headers: { "Content-Type": "application/json" },
		});
		const { id } = (await created.json()) as { id: string };
		const preflight = await preflightOf(key, id, "?size=8x10");
		expect(preflight.largest_size_at_300_dpi).toBeNull();
		expect(preflight.sizes[0]).toMatchObject({ verdict: "refused", effective_dpi: null, figures: null });
		expect(preflight.sizes[0]?.reasons.map((reason) => reason.code)).toEqual(["print_file_not_uploaded"]);
	});

	it("another account's file is a 404", async () => {
		const owner = await createPartner();
		const other = await createPartner();
		const id = await uploadedFile(owner.keys.live.key, pngClaiming(2400, 3000));
		await expectError(await api(`/v1/print-files/${id}?size=8x10`, { key: other.keys.live.key }), "not_found", "id");
	});

	it("a malformed size is a 422 on size, never a 500", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const id = await uploadedFile(key, pngClaiming(2400, 3000));
		for (const query of [
			"?size=16by20",
			"?size=16x20,mat,fit",
			"?size=0x10",
			"?size=",
			"?size=16x20,fit,fit",
			`?size=${"9".repeat(5000)}x1`,
		]) {
			await expectError(await api(`/v1/print-files/${id}${query}`, { key }), "validation_error", "size[0]");
		}
	});

	it("answers at most 20 sizes: a longer repeated query is a 422", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const id = await uploadedFile(key, pngClaiming(2400, 3000));
		const twenty = Array.from({ length: 20 }, (_, index) => `size=${index + 4}x${index + 4}`).join("&");
		expect((await preflightOf(key, id, `?${twenty}`)).sizes).toHaveLength(20);
		const many = Array.from({ length: 5000 }, () => "size=8x10").join("&");
		await expectError(await api(`/v1/print-files/${id}?${many}`, { key }), "validation_error", "size");
	});
});
