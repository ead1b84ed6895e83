import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { type DeclaredLine, type LandedCostInput, landedCost, shareOut } from "../../src/customs/landed-cost.ts";
import { type LandedCostTable, LandedCostTableSchema } from "../../src/customs/tables.ts";
import type { Currency } from "../../src/money/currencies.ts";

/** The seed's tables, as migration 0040 inserts them, by version. */
function seedTables(): Map<number, LandedCostTable> {
	const sql = readFileSync(path.resolve(import.meta.dirname, "../../migrations/0040_across_borders.sql"), "utf8");
	const inserts = sql.matchAll(
		/INSERT INTO landed_cost_tables \(version, effective_at, published_at, body\)\s+VALUES \((\d+), '([^']+)', '([^']+)', '((?:[^']|'')*)'\);/g,
	);
	const tables = new Map<number, LandedCostTable>();
	for (const [, version, effectiveAt, publishedAt, body = ""] of inserts) {
		const parsed = LandedCostTableSchema.parse({
			...(JSON.parse(body.replaceAll("''", "'")) as object),
			version: Number(version),
			effective_at: effectiveAt,
			published_at: publishedAt,
		});
		tables.set(parsed.version, parsed);
	}
	return tables;
}

const TABLES = seedTables();
/** The table in force from July 2026 (the EU's fixed duty per tariff line under EUR 150). */
const JULY = TABLES.get(2) as LandedCostTable;

/** The development seed's exchange rates (migration 0040). */
const RATES: Record<Currency, number> = {
	USD: 1_000_000,
	EUR: 862_000,
	GBP: 760_000,
	CAD: 1_400_000,
	AUD: 1_530_000,
	JPY: 155_000_000,
};

function line(kind: DeclaredLine["kind"], unitValue: number, currency: Currency, quantity = 1): DeclaredLine {
	return { kind, quantity, unit_value: unitValue, currency };
}

/** A consignment billed in the destination's own currency unless said otherwise. */
function input(
	country: string,
	terms: "ddp" | "dap",
	lines: DeclaredLine[],
	shipping: number,
	extra: Partial<LandedCostInput> = {},
): LandedCostInput {
	const accountCurrency = lines[0]?.currency ?? "USD";
	return { country, region: null, terms, lines, shipping, accountCurrency, rates: RATES, ...extra };
}

function amountsOf(cost: ReturnType<typeof landedCost>) {
	return cost.lines.map(({ kind, amount, collected, payer }) => ({ kind, amount, collected, payer }));
}

describe("the seed's landed-cost tables", () => {
	it("hold versions 1 and 2, from 2026-01-01 and 2026-07-01, for the US, the 27 EU countries, GB, CA, AU and JP", () => {
		expect([...TABLES.keys()]).toEqual([1, 2]);
		expect(TABLES.get(1)?.effective_at).toBe("2026-01-01T00:00:00.000Z");
		expect(JULY.effective_at).toBe("2026-07-01T00:00:00.000Z");
		expect(Object.keys(JULY.destinations)).toHaveLength(32);
		expect(JULY.destinations.US?.customs).toBeNull();
	});
});

describe("landedCost", () => {
	it("EU within the IOSS limit, duty paid: VAT and the fixed duty at sale under the service's IOSS, no clearance fee", () => {
		const cost = landedCost(input("DE", "ddp", [line("framed_print", 10_000, "EUR")], 2_000), JULY);
		expect(cost.coverage).toBe("estimated");
		expect(cost.ioss).toBe(true);
		// VAT 19 % of goods 100.00 + shipping 20.00 + duty 3.00 = 23.37.
		expect(amountsOf(cost)).toEqual([
			{ kind: "duty", amount: 300, collected: "at_sale", payer: "partner" },
			{ kind: "import_tax", amount: 2_337, collected: "at_sale", payer: "partner" },
		]);
		expect(cost.charged_to_partner).toBe(2_637);
		expect(cost.buyer_pays_at_door).toEqual({ amount: 0, currency: "EUR", amount_in_currency: 0 });
	});

	it("EU within the IOSS limit, duty unpaid: the buyer pays VAT, the fixed duty and the carrier's fee at the door", () => {
		const cost = landedCost(input("DE", "dap", [line("framed_print", 10_000, "EUR")], 2_000), JULY);
		expect(cost.ioss).toBe(false);
		expect(amountsOf(cost)).toEqual([
			{ kind: "duty", amount: 300, collected: "at_border", payer: "buyer" },
			{ kind: "import_tax", amount: 2_337, collected: "at_border", payer: "buyer" },
			{ kind: "clearance_fee", amount: 600, collected: "at_border", payer: "buyer" },
		]);
		expect(cost.charged_to_partner).toBe(0);
		expect(cost.buyer_pays_at_door).toEqual({ amount: 3_237, currency: "EUR", amount_in_currency: 3_237 });
	});

	it("EU above EUR 150, duty paid: VAT at import on goods and shipping, the duty line at 0 %, the duty-paid clearance fee", () => {
		const cost = landedCost(input("DE", "ddp", [line("framed_print", 10_000, "EUR", 2)], 2_000), JULY);
		expect(cost.ioss).toBe(false);
		expect(cost.goods_value).toBe(20_000);
		expect(amountsOf(cost)).toEqual([
			{ kind: "duty", amount: 0, collected: "at_border", payer: "partner" },
			{ kind: "import_tax", amount: 4_180, collected: "at_border", payer: "partner" },
			{ kind: "clearance_fee", amount: 1_250, collected: "at_border", payer: "partner" },
		]);
		expect(cost.charged_to_partner).toBe(5_430);
	});

	it("GB up to GBP 135: VAT charged at sale to the partner even when duty is unpaid, nothing at the door", () => {
		const cost = landedCost(input("GB", "dap", [line("unframed_print", 5_000, "GBP")], 1_000), JULY);
		expect(amountsOf(cost)).toEqual([{ kind: "import_tax", amount: 1_200, collected: "at_sale", payer: "partner" }]);
		expect(cost.charged_to_partner).toBe(1_200);
		expect(cost.buyer_pays_at_door.amount).toBe(0);
	});

	it("AU up to AUD 1,000: GST at sale on goods and shipping, charged to the partner", () => {
		const cost = landedCost(input("AU", "dap", [line("unframed_print", 20_000, "AUD")], 3_000), JULY);
		expect(amountsOf(cost)).toEqual([{ kind: "import_tax", amount: 2_300, collected: "at_sale", payer: "partner" }]);
	});

	it("AU above AUD 1,000, duty paid: 5 % duty on the frame with its share of the shipping, GST on all at import", () => {
		const lines = [line("framed_print", 90_000, "AUD"), line("frame", 20_000, "AUD")];
		const cost = landedCost(input("AU", "ddp", lines, 5_000), JULY);
		// Shipping shared 4,091 / 909 by value; the frame's duty is 5 % of 20,909 = 1,045.45.
		expect(cost.lines.filter((each) => each.kind === "duty").map((each) => [each.base, each.amount])).toEqual([
			[94_091, 0],
			[20_909, 1_045],
		]);
		// GST 10 % of 110,000 + 5,000 + 1,045 = 11,604.5, rounded half up.
		expect(cost.lines.find((each) => each.kind === "import_tax")?.amount).toBe(11_605);
		expect(cost.lines.find((each) => each.kind === "clearance_fee")?.amount).toBe(8_800);
		expect(cost.charged_to_partner).toBe(1_045 + 11_605 + 8_800);
	});

	it("CA Ontario above CAD 40: HST 13 % on the goods alone (not the shipping) at the door, with the carrier's fee", () => {
		const cost = landedCost(input("CA", "dap", [line("unframed_print", 10_000, "CAD")], 2_000, { region: "ON" }), JULY);
		expect(amountsOf(cost)).toEqual([
			{ kind: "import_tax", amount: 1_300, collected: "at_border", payer: "buyer" },
			{ kind: "clearance_fee", amount: 995, collected: "at_border", payer: "buyer" },
		]);
		expect(cost.buyer_pays_at_door.amount).toBe(2_295);
	});

	it("CA within CAD 40 is tax-free with no fee; above CAD 150 the duty line appears, at 0 % for prints", () => {
		const small = landedCost(input("CA", "dap", [line("unframed_print", 3_000, "CAD")], 2_000, { region: "ON" }), JULY);
		expect(amountsOf(small)).toEqual([{ kind: "import_tax", amount: 0, collected: "at_border", payer: "buyer" }]);
		const large = landedCost(input("CA", "dap", [line("framed_print", 20_000, "CAD")], 2_000, { region: "ON" }), JULY);
		const duty = large.lines.find((each) => each.kind === "duty");
		expect(duty?.amount).toBe(0);
		expect(duty?.rule).toContain("CA$150.00");
		expect(large.lines.find((each) => each.kind === "import_tax")?.amount).toBe(2_600);
	});

	it("JP within JPY 10,000: no consumption tax, no duty, no fee", () => {
		const cost = landedCost(input("JP", "dap", [line("unframed_print", 8_000, "JPY")], 1_500), JULY);
		expect(amountsOf(cost)).toEqual([{ kind: "import_tax", amount: 0, collected: "at_border", payer: "buyer" }]);
		expect(cost.charged_to_partner).toBe(0);
	});

	it("JP above JPY 10,000 for a USD account, duty paid: each amount in yen converted once to cents", () => {
		const cost = landedCost(
			input("JP", "ddp", [line("unframed_print", 20_000, "JPY")], 2_000, { accountCurrency: "USD" }),
			JULY,
		);
		// $20.00 shipping is ¥3,100; tax 10 % of ¥23,100 = ¥2,310 = 1,490.3 cents; fee ¥1,000 = 645.2 cents.
		expect(cost.shipping_value).toBe(3_100);
		expect(cost.lines.map((each) => [each.kind, each.amount, each.amount_in_currency])).toEqual([
			["duty", 0, 0],
			["import_tax", 2_310, 1_490],
			["clearance_fee", 1_000, 645],
		]);
		expect(cost.charged_to_partner).toBe(2_135);
	});

	it("a US delivery is domestic and a country the table lacks is not covered: nothing added either way", () => {
		const domestic = landedCost(input("US", "ddp", [line("framed_print", 10_000, "USD")], 1_500), JULY);
		expect(domestic.coverage).toBe("domestic");
		expect(domestic.lines).toEqual([]);
		expect(domestic.charged_to_partner).toBe(0);
		const elsewhere = landedCost(input("BR", "ddp", [line("framed_print", 10_000, "USD")], 1_500), JULY);
		expect(elsewhere.coverage).toBe("not_covered");
		expect(elsewhere.lines).toEqual([]);
		expect(elsewhere.charged_to_partner).toBe(0);
	});
});

describe("shareOut", () => {
	it("shares exactly in proportion, the remainder to the largest weights first, and always adds up", () => {
		expect(shareOut(5_000, [90_000, 20_000])).toEqual([4_091, 909]);
		expect(shareOut(10, [1, 1, 1])).toEqual([4, 3, 3]);
		expect(shareOut(10, [1, 3, 1])).toEqual([2, 6, 2]);
		expect(shareOut(0, [5, 7])).toEqual([0, 0]);
		for (const [total, weights] of [
			[9_999, [3, 7, 11, 13]],
			[1, [1, 1]],
			[123_457, [1_000_000, 1, 1]],
		] as const) {
			expect(shareOut(total, weights).reduce((sum, share) => sum + share, 0)).toBe(total);
		}
	});

	it("gives all to the first when every weight is zero", () => {
		expect(shareOut(7, [0, 0])).toEqual([7, 0]);
	});
});
