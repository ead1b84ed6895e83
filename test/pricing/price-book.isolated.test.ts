import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { PriceBook } from "../../src/pricing/book.ts";
import { SEED_BOOK } from "../../src/pricing/seed-book.ts";
import { discountPercentOf, findPriceBook } from "../../src/pricing/store.ts";
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
			await send("POST", "/v1/admin/price-book", admin, { ...rates, revision: 7 }),
			"validation_error",
			"revision",
		);
	});

	it("refuses every number past what makes sense for it, naming the field: a divisor of 10^13, production days of 2^53 − 1", async () => {
		const admin = await createAdminKey();
		const { version, published_at: _published, ...rates } = await readBook(admin);
		const cases: [string, unknown][] = [
			["shipping.dimensional_divisor", 1e13],
			["shipping.dimensional_divisor", 49],
			["shipping.dimensional_divisor", 501],
			["shipping.dimensional_divisor", 139.5],
			["shipping.production_days.framed", 2 ** 53 - 1],
			["shipping.production_days.framed", 91],
			["shipping.production_days.unframed", 91],
			["shipping.production_days.unframed", -1],
			["shipping.oversize_cents", 1_000_001],
			["shipping.oversize_above_in", 0.5],
			["shipping.oversize_above_in", 1_001],
			["shipping.freight_above_in", 1e308],
			["shipping.zones.US.standard.package_cents", 1_000_001],
			["shipping.zones.US.standard.per_lb_cents", 100_001],
			["shipping.zones.world.freight.transit_days.max", 91],
			["print.minimum_cents", 100_001],
			["print.paper_mills_per_sq_in.cotton-rag", 10_001],
			["frames.mills_per_foot.walnut-flat-075", 100_001],
			["glazing.mills_per_sq_in.acrylic", 10_001],
			["backing.mills_per_sq_in", 10_001],
			["assembly.cents_per_framed_piece", 100_001],
			["assembly.cents_per_framed_piece", 2 ** 53],
			["mats.tiers[0].cents_per_layer", 100_001],
			["mats.tiers[0].max_united_inches", 1_001],
		];
		for (const [field, value] of cases) {
			const book: Record<string, unknown> = structuredClone(rates);
			// Walks the field's path (`a.b[0].c`, slugs with hyphens) to set the value.
			const steps = field.split(/\.|\[(\d+)\]\.?/).filter((step) => step !== undefined && step !== "");
			let parent = book;
			for (const step of steps.slice(0, -1)) parent = parent[step] as Record<string, unknown>;
			parent[steps.at(-1) ?? ""] = value;
			const error = await expectError(
				await send("POST", "/v1/admin/price-book", admin, book),
				"validation_error",
				field,
			);
			expect(error.message).toContain(field);
		}
		const tiers = Array.from({ length: 21 }, (_, index) => ({
			max_united_inches: index === 20 ? null : 10 * (index + 1),
			cents_per_layer: 600,
		}));
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, { ...rates, mats: { tiers } }),
			"validation_error",
			"mats.tiers",
		);
		const manyPapers = Object.fromEntries(Array.from({ length: 201 }, (_, index) => [`paper-${index}`, 20]));
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, {
				...rates,
				print: { ...rates.print, paper_mills_per_sq_in: { ...rates.print.paper_mills_per_sq_in, ...manyPapers } },
			}),
			"validation_error",
			"print.paper_mills_per_sq_in",
		);
		const longSlug = `a${"b".repeat(64)}`;
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, {
				...rates,
				glazing: { mills_per_sq_in: { ...rates.glazing.mills_per_sq_in, [longSlug]: 12 } },
			}),
			"validation_error",
			`glazing.mills_per_sq_in.${longSlug}`,
		);
		// Nothing was published.
		expect((await readBook(admin)).version).toBe(version);
	});

	it("the largest book the route takes (every table full, the longest slugs, every tier) is stored well under D1's 1 MB a row", async () => {
		const admin = await createAdminKey();
		const { version: _version, published_at: _published, ...rates } = await readBook(admin);
		/** The table filled to its 200 rates with 64-character slugs at the highest rate. */
		const full = (table: Record<string, number>, max: number) => ({
			...Object.fromEntries(
				Array.from({ length: 200 - Object.keys(table).length }, (_, index) => [
					`${String(index).padStart(3, "0")}-${"s".repeat(60)}`,
					max,
				]),
			),
			...table,
		});
		const largest = {
			...rates,
			print: { ...rates.print, paper_mills_per_sq_in: full(rates.print.paper_mills_per_sq_in, 10_000) },
			frames: { mills_per_foot: full(rates.frames.mills_per_foot, 100_000) },
			glazing: { mills_per_sq_in: full(rates.glazing.mills_per_sq_in, 10_000) },
			mats: {
				tiers: Array.from({ length: 20 }, (_, index) => ({
					max_united_inches: index === 19 ? null : 999.123456789 - (19 - index) * 10.1,
					cents_per_layer: 100_000,
				})),
			},
		};
		const response = await send("POST", "/v1/admin/price-book", admin, largest);
		expect(response.status).toBe(201);
		const published = (await response.json()) as PriceBook;
		const row = await env.DB.prepare(
			"SELECT length(CAST(book AS BLOB)) + length(CAST(published_at AS BLOB)) + 8 AS bytes FROM price_books WHERE version = ?1",
		)
			.bind(published.version)
			.first<{ bytes: number }>();
		expect(row?.bytes).toBeGreaterThan(40_000);
		expect(row?.bytes).toBeLessThan(100_000);
	});

	it("a book sent back as it was read publishes: its version and published_at are the book in force's, and are not stored", async () => {
		const admin = await createAdminKey();
		const read = await readBook(admin);
		const response = await send("POST", "/v1/admin/price-book", admin, {
			...read,
			assembly: { cents_per_framed_piece: 850 },
		});
		expect(response.status).toBe(201);
		const published = (await response.json()) as PriceBook;
		expect(published.version).toBe(read.version + 1);
		expect(published.published_at).not.toBe(read.published_at);
		expect(published.assembly.cents_per_framed_piece).toBe(850);
		const stored = await env.DB.prepare("SELECT book FROM price_books WHERE version = ?1")
			.bind(published.version)
			.first<{ book: string }>();
		expect(Object.keys(JSON.parse(stored?.book ?? "{}") as object)).not.toContain("version");
		// Either field alone, as read, is taken too.
		const { published_at: _at, ...withVersion } = published;
		expect((await send("POST", "/v1/admin/price-book", admin, withVersion)).status).toBe(201);
	});

	it("a version that is no longer in force is a 409 on version; a published_at not the version's own a 422 on it", async () => {
		const admin = await createAdminKey();
		const read = await readBook(admin);
		// Someone else publishes after this book was read.
		const { version: _version, published_at: _published, ...rates } = read;
		expect((await send("POST", "/v1/admin/price-book", admin, rates)).status).toBe(201);
		const stale = await expectError(
			await send("POST", "/v1/admin/price-book", admin, { ...read, assembly: { cents_per_framed_piece: 875 } }),
			"conflict",
			"version",
		);
		expect(stale.message).toContain(`version ${read.version + 1}`);
		expect(stale.message).toContain("leave version and published_at out");
		const inForce = await readBook(admin);
		expect(inForce.assembly.cents_per_framed_piece).toBe(read.assembly.cents_per_framed_piece);
		const wrongDate = await expectError(
			await send("POST", "/v1/admin/price-book", admin, { ...inForce, published_at: "2020-01-01T00:00:00.000Z" }),
			"validation_error",
			"published_at",
		);
		expect(wrongDate.message).toContain(inForce.published_at);
		await expectError(
			await send("POST", "/v1/admin/price-book", admin, { ...inForce, version: 0 }),
			"validation_error",
			"version",
		);
		// Left out, the body publishes as it is, over whatever is in force.
		expect((await send("POST", "/v1/admin/price-book", admin, rates)).status).toBe(201);
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

describe("the book as the store reads it", () => {
	it("a version read twice is parsed once: the same frozen book, which no request can change", async () => {
		const first = await findPriceBook(env.DB, 1);
		const again = await findPriceBook(env.DB, 1);
		expect(first).not.toBeNull();
		expect(again).toBe(first);
		expect(Object.isFrozen(first)).toBe(true);
		expect(Object.isFrozen(first?.frames.mills_per_foot)).toBe(true);
		expect(() => {
			(first as { version: number }).version = 2;
		}).toThrow(TypeError);
	});

	it("a stored row whose text differs from the one parsed before is parsed again, never answered stale", async () => {
		const before = await findPriceBook(env.DB, 1);
		if (before === null) throw new Error("no book 1");
		const row = await env.DB.prepare("SELECT book FROM price_books WHERE version = 1").first<{ book: string }>();
		if (row === null) throw new Error("no row 1");
		const stored = JSON.parse(row.book) as PriceBook;
		const changed = { ...stored, assembly: { cents_per_framed_piece: before.assembly.cents_per_framed_piece + 1 } };
		await env.DB.prepare("UPDATE price_books SET book = ?1 WHERE version = 1").bind(JSON.stringify(changed)).run();
		const after = await findPriceBook(env.DB, 1);
		expect(after).not.toBe(before);
		expect(after?.assembly.cents_per_framed_piece).toBe(before.assembly.cents_per_framed_piece + 1);
	});
});
