import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PriceBook } from "../../src/pricing/book.ts";
import { SEED_BOOK } from "../../src/pricing/seed-book.ts";
import { discountPercentOf } from "../../src/pricing/store.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";

async function readBook(key: string, query = ""): Promise<PriceBook> {
	const response = await api(`/v1/price-book${query}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as PriceBook;
}

/** The seed book with its frames' rates as the catalog holds them. */
async function seedWithFrames() {
	const { results } = await env.DB.prepare("SELECT slug, price_mills_per_foot FROM catalog_frames").all<{
		slug: string;
		price_mills_per_foot: number;
	}>();
	return {
		...SEED_BOOK,
		frames: { mills_per_foot: Object.fromEntries(results.map((row) => [row.slug, row.price_mills_per_foot])) },
	};
}

describe("GET /v1/price-book", () => {
	it("serves version 1: the product model's seed, with every catalog moulding's price per foot", async () => {
		const partner = await createPartner();
		const book = await readBook(partner.keys.live.key);
		const { version, published_at, ...rates } = book;
		expect(version).toBe(1);
		expect(published_at).toBe("2026-11-22T00:00:00.000Z");
		expect(rates).toEqual(await seedWithFrames());
		expect(Object.keys(book.frames.mills_per_foot)).toHaveLength(44);
	});

	it("is read with any valid key, test keys too, and needs one", async () => {
		const partner = await createPartner();
		expect((await readBook(partner.keys.test.key)).version).toBeGreaterThanOrEqual(1);
		await expectError(await api("/v1/price-book"), "unauthorized");
	});

	it("an unknown version is a 404 on version; a malformed one a 422", async () => {
		const key = (await createPartner()).keys.live.key;
		await expectError(await api("/v1/price-book?version=9999", { key }), "not_found", "version");
		await expectError(await api("/v1/price-book?version=first", { key }), "validation_error", "version");
	});
});

describe("POST /v1/admin/price-book", () => {
	it("publishes the next version, which is then in force; the earlier one is kept unchanged", async () => {
		const admin = await createAdminKey();
		const key = (await createPartner()).keys.live.key;
		const before = await readBook(key);
		const { version: _version, published_at: _published, ...rates } = before;
		const dearer = { ...rates, assembly: { cents_per_framed_piece: 950 } };
		const response = await send("POST", "/v1/admin/price-book", admin, dearer);
		expect(response.status).toBe(201);
		const published = (await response.json()) as PriceBook;
		expect(published.version).toBe(before.version + 1);
		expect(published.assembly.cents_per_framed_piece).toBe(950);
		expect((await readBook(key)).version).toBe(published.version);
		expect(await readBook(key, `?version=${before.version}`)).toEqual(before);
	});

	it("refuses a book that leaves a catalog moulding without a rate, with the field", async () => {
		const admin = await createAdminKey();
		const { version: _version, published_at: _published, ...rates } = await readBook(admin);
		const { "walnut-flat-075": _walnut, ...otherFrames } = rates.frames.mills_per_foot;
		const response = await send("POST", "/v1/admin/price-book", admin, {
			...rates,
			frames: { mills_per_foot: otherFrames },
		});
		const error = await expectError(response, "validation_error", "frames.mills_per_foot");
		expect(error.message).toContain("walnut-flat-075");
	});

	it("refuses mat tiers that do not rise and end open-ended, a negative rate and an unknown field", async () => {
		const admin = await createAdminKey();
		const { version: _version, published_at: _published, ...rates } = await readBook(admin);
		const closed = { ...rates, mats: { tiers: [{ max_united_inches: 40, cents_per_layer: 600 }] } };
		await expectError(await send("POST", "/v1/admin/price-book", admin, closed), "validation_error", "mats.tiers");
		const negative = { ...rates, backing: { mills_per_sq_in: -1 } };
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, negative),
			"validation_error",
			"backing.mills_per_sq_in",
		);
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, { ...rates, version: 7 }),
			"validation_error",
			"version",
		);
	});

	it("needs an admin key", async () => {
		const partner = await createPartner();
		const { version: _version, published_at: _published, ...rates } = await readBook(partner.keys.live.key);
		await expectError(await send("POST", "/v1/admin/price-book", partner.keys.live.key, rates), "forbidden");
	});
});

describe("PUT /v1/admin/accounts/{id}/pricing", () => {
	it("sets an account's discount, 0 to 50 percent", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		expect(await discountPercentOf(env.DB, partner.account.id)).toBe(0);
		const response = await send("PUT", `/v1/admin/accounts/${partner.account.id}/pricing`, admin, {
			discount_percent: 15,
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({ account_id: partner.account.id, discount_percent: 15 });
		expect(await discountPercentOf(env.DB, partner.account.id)).toBe(15);
		await send("PUT", `/v1/admin/accounts/${partner.account.id}/pricing`, admin, { discount_percent: 0 });
		expect(await discountPercentOf(env.DB, partner.account.id)).toBe(0);
	});

	it("refuses a discount above 50 or not whole, an unknown account, and a key without admin", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const path = `/v1/admin/accounts/${partner.account.id}/pricing`;
		await expectError(await send("PUT", path, admin, { discount_percent: 51 }), "validation_error", "discount_percent");
		await expectError(
			await send("PUT", path, admin, { discount_percent: 2.5 }),
			"validation_error",
			"discount_percent",
		);
		await expectError(
			await send("PUT", "/v1/admin/accounts/acct_nobody/pricing", admin, { discount_percent: 5 }),
			"not_found",
			"id",
		);
		await expectError(await send("PUT", path, partner.keys.live.key, { discount_percent: 5 }), "forbidden");
	});
});
