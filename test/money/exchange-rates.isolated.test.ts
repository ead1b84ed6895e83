import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { beforeAll, describe, expect, it } from "vitest";
import type { RateSheet } from "../../src/money/exchange.ts";
import { rateSheets } from "../../src/money/store.ts";
import { publishToEveryDatabase } from "../../src/money/versioned-tables.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";

const SEED_RATES = { USD: 1_000_000, EUR: 862_000, GBP: 760_000, CAD: 1_400_000, AUD: 1_530_000, JPY: 155_000_000 };

function inMinutes(minutes: number): string {
	return new Date(Date.now() + minutes * 60_000).toISOString();
}

function sheetBody(overrides: Record<string, unknown> = {}) {
	return { effective_at: inMinutes(60), source: "ECB reference rates, test", per_usd_micros: SEED_RATES, ...overrides };
}

async function readSheet(key: string, query = ""): Promise<RateSheet> {
	const response = await api(`/v1/exchange-rates${query}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as RateSheet;
}

beforeAll(async () => {
	const second = env.DB_2;
	if (second !== undefined) await applyD1Migrations(second, env.TEST_MIGRATIONS);
});

describe("GET /v1/exchange-rates", () => {
	it("serves the seed sheet in force now with a live or a test key, and needs a key", async () => {
		const partner = await createPartner();
		const sheet = await readSheet(partner.keys.live.key);
		expect(sheet.version).toBe(1);
		expect(sheet.per_usd_micros).toEqual(SEED_RATES);
		expect(sheet.source).toContain("Development seed");
		expect(await readSheet(partner.keys.test.key)).toEqual(sheet);
		await expectError(await api("/v1/exchange-rates"), "unauthorized");
	});

	it("a version or a time before the first sheet is a 404 on that field; a malformed time or both at once a 422", async () => {
		const key = (await createPartner()).keys.live.key;
		expect((await readSheet(key, "?version=1")).version).toBe(1);
		expect((await readSheet(key, "?at=2026-03-01T00:00:00%2B02:00")).version).toBe(1);
		const missing = await expectError(await api("/v1/exchange-rates?version=9999", { key }), "not_found", "version");
		expect(missing.code).toBe("exchange_rates_not_found");
		await expectError(await api("/v1/exchange-rates?at=2025-06-01T00:00:00Z", { key }), "not_found", "at");
		await expectError(await api("/v1/exchange-rates?at=yesterday", { key }), "validation_error", "at");
		await expectError(
			await api("/v1/exchange-rates?at=2026-03-01T00:00:00Z&version=1", { key }),
			"validation_error",
			"at",
		);
	});
});

describe("POST /v1/admin/exchange-rates", () => {
	it("publishes the next version from its effective time on: the sheet in force now is unchanged until then", async () => {
		const admin = await createAdminKey();
		const key = (await createPartner()).keys.live.key;
		const effectiveAt = inMinutes(120);
		const response = await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ effective_at: effectiveAt }));
		expect(response.status).toBe(201);
		const published = (await response.json()) as RateSheet;
		expect(published.version).toBeGreaterThan(1);
		expect(published.effective_at).toBe(effectiveAt);
		expect((await readSheet(key)).version).toBe(1);
		expect(await readSheet(key, `?at=${encodeURIComponent(inMinutes(180))}`)).toEqual(published);
		expect(await readSheet(key, `?version=${published.version}`)).toEqual(published);
	});

	it("is refused to a partner key and to a request without a key", async () => {
		const partner = await createPartner();
		await expectError(await send("POST", "/v1/admin/exchange-rates", partner.keys.live.key, sheetBody()), "forbidden");
		await expectError(await send("POST", "/v1/admin/exchange-rates", partner.keys.test.key, sheetBody()), "forbidden");
		await expectError(
			await api("/v1/admin/exchange-rates", { method: "POST", body: JSON.stringify(sheetBody()) }),
			"unauthorized",
		);
	});

	it("refuses a rate of 0, a yen rate past the bound, USD other than 1000000 and an unknown currency, naming the rate", async () => {
		const admin = await createAdminKey();
		const cases: [Record<string, number>, string][] = [
			[{ ...SEED_RATES, EUR: 0 }, "per_usd_micros.EUR"],
			[{ ...SEED_RATES, JPY: 100_000_000_001 }, "per_usd_micros.JPY"],
			[{ ...SEED_RATES, GBP: 760_000.5 }, "per_usd_micros.GBP"],
			[{ ...SEED_RATES, USD: 1_000_001 }, "per_usd_micros.USD"],
			[{ ...SEED_RATES, CHF: 900_000 }, "per_usd_micros.CHF"],
		];
		for (const [rates, field] of cases) {
			const response = await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ per_usd_micros: rates }));
			await expectError(response, "validation_error", field);
		}
		const { JPY: _yen, ...withoutYen } = SEED_RATES;
		await expectError(
			await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ per_usd_micros: withoutYen })),
			"bad_request",
			"per_usd_micros.JPY",
		);
	});

	it("refuses an effective time in the past or more than 366 days ahead, or not a time, naming effective_at", async () => {
		const admin = await createAdminKey();
		for (const effectiveAt of [inMinutes(-10), inMinutes(367 * 24 * 60)]) {
			const response = await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ effective_at: effectiveAt }));
			const error = await expectError(response, "validation_error", "effective_at");
			expect(error.code).toBe("effective_at_out_of_range");
		}
		await expectError(
			await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ effective_at: "next Monday" })),
			"validation_error",
			"effective_at",
		);
		const justNow = await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ effective_at: inMinutes(-1) }));
		expect(justNow.status).toBe(201);
	});

	it("refuses a source past 500 characters, an unknown field and a body past 1 MiB", async () => {
		const admin = await createAdminKey();
		await expectError(
			await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ source: "x".repeat(501) })),
			"validation_error",
			"source",
		);
		await expectError(
			await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ version: 7 })),
			"validation_error",
			"version",
		);
		const huge = await send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ source: "x".repeat(1_100_000) }));
		const error = await expectError(huge, "bad_request");
		expect(error.code).toBe("body_too_large");
	});

	it("two publishes at once get two versions", async () => {
		const admin = await createAdminKey();
		const [first, second] = await Promise.all([
			send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ source: "first" })),
			send("POST", "/v1/admin/exchange-rates", admin, sheetBody({ source: "second" })),
		]);
		const versions = [((await first.json()) as RateSheet).version, ((await second.json()) as RateSheet).version];
		expect(new Set(versions).size).toBe(2);
	});

	it("a sheet is published to every database under the directory's version number and published time", async () => {
		const second = env.DB_2;
		if (second === undefined) throw new Error("the workers project binds DB_2 (vitest.config.ts)");
		const spread: Env = {
			...env,
			ACCOUNT_DATABASES: JSON.stringify([
				{ from: "", binding: "DB" },
				{ from: "acct_V", binding: "DB_2" },
			]),
		};
		// Make the directory's numbering run ahead of the second database's.
		await rateSheets.publish(env.DB, { source: "directory only", per_usd_micros: SEED_RATES }, new Date(), new Date());
		const body = { source: "to every database", per_usd_micros: { ...SEED_RATES, EUR: 900_000 } };
		const published = await publishToEveryDatabase(
			spread,
			rateSheets,
			body,
			new Date(Date.now() + 3_600_000),
			new Date(),
		);
		expect(await rateSheets.version(second, published.version)).toEqual(published);
		expect(await rateSheets.version(env.DB, published.version)).toEqual(published);
	});
});
