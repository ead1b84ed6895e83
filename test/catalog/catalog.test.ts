import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { Catalog } from "../../src/catalog/schema.ts";
import { ifNoneMatchHits, strongEtag } from "../../src/http/etag.ts";
import { api, createPartner, expectError } from "../helpers.ts";

async function partnerKey(): Promise<string> {
	return (await createPartner()).keys.live.key;
}

describe("GET /v1/catalog", () => {
	it("lists at least 41 frames with slug, name, a positive width and the framer's facts (colour, material, profile, largest size)", async () => {
		const response = await api("/v1/catalog", { key: await partnerKey() });
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
		const catalog = (await response.json()) as Catalog;
		expect(catalog.frames.length).toBeGreaterThanOrEqual(41);
		for (const frame of catalog.frames) {
			expect(Object.keys(frame).sort()).toEqual([
				"color",
				"material",
				"max_united_inches",
				"name",
				"profile",
				"slug",
				"width_in",
			]);
			expect(frame.color.hex).toMatch(/^#[0-9A-F]{6}$/);
			expect(frame.color.name.length).toBeGreaterThan(0);
			expect(["flat", "rounded", "scoop", "floater", "shadow-box", "ornate"]).toContain(frame.profile);
			// A wider moulding carries a larger piece.
			expect(frame.max_united_inches).toBeGreaterThanOrEqual(60);
			expect(frame.slug).toMatch(/^[a-z0-9][a-z0-9-]*$/);
			expect(frame.name.length).toBeGreaterThan(0);
			expect(typeof frame.width_in).toBe("number");
			expect(frame.width_in).toBeGreaterThan(0);
		}
	});

	it("lists exactly 46 mats with slug, name, colour and core", async () => {
		const catalog = (await (await api("/v1/catalog", { key: await partnerKey() })).json()) as Catalog;
		expect(catalog.mats).toHaveLength(46);
		for (const mat of catalog.mats) {
			expect(Object.keys(mat).sort()).toEqual(["color", "core", "name", "slug"]);
			expect(mat.color.hex).toMatch(/^#[0-9A-F]{6}$/);
			expect(["white", "cream", "black"]).toContain(mat.core);
			expect(mat.slug).toMatch(/^[a-z0-9][a-z0-9-]*$/);
			expect(mat.name.length).toBeGreaterThan(0);
		}
	});

	it("gives sizes from 4 to 40 inches, custom", async () => {
		const catalog = (await (await api("/v1/catalog", { key: await partnerKey() })).json()) as Catalog;
		expect(catalog.sizes).toEqual({ min_in: 4, max_in: 40, custom: true });
	});

	it("slugs are unique among frames and among mats", async () => {
		const catalog = (await (await api("/v1/catalog", { key: await partnerKey() })).json()) as Catalog;
		expect(new Set(catalog.frames.map((frame) => frame.slug)).size).toBe(catalog.frames.length);
		expect(new Set(catalog.mats.map((mat) => mat.slug)).size).toBe(catalog.mats.length);
	});

	it("keeps the seeded listing order", async () => {
		const catalog = (await (await api("/v1/catalog", { key: await partnerKey() })).json()) as Catalog;
		expect(catalog.frames[0]).toEqual({
			slug: "walnut-flat-075",
			name: "Walnut Flat 3/4 in",
			width_in: 0.75,
			color: { name: "Walnut", hex: "#5C4033" },
			material: "walnut",
			profile: "flat",
			max_united_inches: 80,
		});
		expect(catalog.mats[0]).toEqual({
			slug: "bright-white",
			name: "Bright White",
			color: { name: "Bright White", hex: "#FFFFFF" },
			core: "white",
		});
	});

	it("lists the glazings and the papers, each with a one-line description", async () => {
		const catalog = (await (await api("/v1/catalog", { key: await partnerKey() })).json()) as Catalog;
		expect(catalog.glazings.map((glazing) => glazing.slug)).toEqual([
			"acrylic",
			"uv-acrylic",
			"museum-acrylic",
			"none",
		]);
		expect(catalog.papers.map((paper) => paper.slug)).toEqual(["archival-matte", "photo-lustre", "cotton-rag"]);
		for (const item of [...catalog.glazings, ...catalog.papers]) {
			expect(Object.keys(item).sort()).toEqual(["description", "name", "slug"]);
			expect(item.description.length).toBeGreaterThan(20);
		}
	});

	it("every moulding has a price per foot and a weight per foot in the model's ranges, a wider one never cheaper of its line", async () => {
		const { results } = await env.DB.prepare(
			"SELECT slug, material, profile, width_in, price_mills_per_foot, weight_lb_per_foot FROM catalog_frames",
		).all<{
			slug: string;
			material: string;
			profile: string;
			width_in: number;
			price_mills_per_foot: number;
			weight_lb_per_foot: number;
		}>();
		expect(results).toHaveLength(44);
		for (const frame of results) {
			expect(frame.price_mills_per_foot).toBeGreaterThanOrEqual(2_500);
			expect(frame.price_mills_per_foot).toBeLessThanOrEqual(12_000);
			expect(frame.weight_lb_per_foot).toBeGreaterThanOrEqual(0.2);
			expect(frame.weight_lb_per_foot).toBeLessThanOrEqual(0.8);
			for (const other of results) {
				const sameLine = other.material === frame.material && other.profile === frame.profile;
				if (sameLine && other.width_in > frame.width_in) {
					expect(other.price_mills_per_foot).toBeGreaterThanOrEqual(frame.price_mills_per_foot);
				}
			}
		}
	});

	it("has a strong, quoted ETag of the body and Cache-Control private, max-age=3600", async () => {
		const response = await api("/v1/catalog", { key: await partnerKey() });
		const etag = response.headers.get("ETag");
		expect(etag).toMatch(/^"[0-9a-f]{64}"$/);
		expect(etag).toBe(await strongEtag(await response.text()));
		expect(response.headers.get("Cache-Control")).toBe("private, max-age=3600");
	});

	it("the ETag is the same on every read and for every key", async () => {
		const first = await api("/v1/catalog", { key: await partnerKey() });
		const second = await api("/v1/catalog", { key: (await createPartner()).keys.test.key });
		expect(first.headers.get("ETag")).toBe(second.headers.get("ETag"));
	});

	it("If-None-Match with the ETag is a 304 with the ETag and an empty body", async () => {
		const key = await partnerKey();
		const etag = (await api("/v1/catalog", { key })).headers.get("ETag") ?? "";
		const response = await api("/v1/catalog", { key, headers: { "If-None-Match": etag } });
		expect(response.status).toBe(304);
		expect(response.headers.get("ETag")).toBe(etag);
		expect(response.headers.get("Cache-Control")).toBe("private, max-age=3600");
		expect(await response.text()).toBe("");
	});

	it("a W/-prefixed copy of the ETag also gets a 304 (weak comparison)", async () => {
		const key = await partnerKey();
		const etag = (await api("/v1/catalog", { key })).headers.get("ETag") ?? "";
		const response = await api("/v1/catalog", { key, headers: { "If-None-Match": `W/${etag}` } });
		expect(response.status).toBe(304);
	});

	it("the ETag inside a list gets a 304", async () => {
		const key = await partnerKey();
		const etag = (await api("/v1/catalog", { key })).headers.get("ETag") ?? "";
		const response = await api("/v1/catalog", { key, headers: { "If-None-Match": `"old-one", ${etag}` } });
		expect(response.status).toBe(304);
	});

	it("another tag gets the full catalog (200)", async () => {
		const key = await partnerKey();
		const response = await api("/v1/catalog", { key, headers: { "If-None-Match": '"not-the-catalog"' } });
		expect(response.status).toBe(200);
		expect(((await response.json()) as Catalog).mats).toHaveLength(46);
	});

	it("a 304 still carries the rate-limit headers", async () => {
		const key = await partnerKey();
		const etag = (await api("/v1/catalog", { key })).headers.get("ETag") ?? "";
		const response = await api("/v1/catalog", { key, headers: { "If-None-Match": etag } });
		expect(response.headers.get("X-RateLimit-Limit")).toBe("120");
		expect(response.headers.get("X-RateLimit-Remaining")).toBe("118");
	});

	it("without a key is a 401", async () => {
		await expectError(await api("/v1/catalog"), "unauthorized");
	});
});

describe("ifNoneMatchHits", () => {
	const etag = '"abc123"';

	it("no header never hits", () => {
		expect(ifNoneMatchHits(undefined, etag)).toBe(false);
	});

	it("the same tag hits, another does not", () => {
		expect(ifNoneMatchHits('"abc123"', etag)).toBe(true);
		expect(ifNoneMatchHits('"abc124"', etag)).toBe(false);
		expect(ifNoneMatchHits("abc123", etag)).toBe(false);
	});

	it("a tag anywhere in a comma-separated list hits", () => {
		expect(ifNoneMatchHits('"x", "abc123" ,"y"', etag)).toBe(true);
		expect(ifNoneMatchHits('"x", "y"', etag)).toBe(false);
	});

	it("* hits any current representation", () => {
		expect(ifNoneMatchHits("*", etag)).toBe(true);
		expect(ifNoneMatchHits('"x", *', etag)).toBe(true);
	});

	it("comparison is weak: a W/ prefix on either side is ignored", () => {
		expect(ifNoneMatchHits('W/"abc123"', etag)).toBe(true);
		expect(ifNoneMatchHits('"abc123"', 'W/"abc123"')).toBe(true);
		expect(ifNoneMatchHits('W/"abc124"', etag)).toBe(false);
	});
});
