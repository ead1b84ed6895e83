import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CatalogCache } from "../../src/catalog/cache.ts";
import type { Catalog } from "../../src/catalog/schema.ts";

const TTL = 60_000;

async function addFrame(slug: string): Promise<void> {
	await env.DB.prepare(
		"INSERT INTO catalog_frames (slug, name, width_in, position) VALUES (?1, ?2, 1, (SELECT max(position) + 1 FROM catalog_frames))",
	)
		.bind(slug, `Frame ${slug}`)
		.run();
}

function frameSlugs(body: string): string[] {
	return (JSON.parse(body) as Catalog).frames.map((frame) => frame.slug);
}

describe("CatalogCache", () => {
	it("serves the same snapshot within its lifetime, without seeing a change in D1", async () => {
		const cache = new CatalogCache(TTL);
		const first = await cache.get(env.DB, 1_000);
		await addFrame("cache-test-within");
		const second = await cache.get(env.DB, 1_000 + TTL - 1);
		expect(second).toBe(first);
		expect(frameSlugs(second.body)).not.toContain("cache-test-within");
	});

	it("re-reads D1 once its lifetime is over, and the ETag follows the new content", async () => {
		const cache = new CatalogCache(TTL);
		const before = await cache.get(env.DB, 1_000);
		await addFrame("cache-test-expired");
		const after = await cache.get(env.DB, 1_000 + TTL);
		expect(frameSlugs(after.body)).toContain("cache-test-expired");
		expect(after.etag).not.toBe(before.etag);
	});

	it("keeps the same ETag when a re-read finds the same catalog", async () => {
		const cache = new CatalogCache(TTL);
		const before = await cache.get(env.DB, 1_000);
		const after = await cache.get(env.DB, 1_000 + TTL);
		expect(after).not.toBe(before);
		expect(after.etag).toBe(before.etag);
	});
});
