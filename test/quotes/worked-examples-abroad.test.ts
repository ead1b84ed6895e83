/**
 * The seven worked examples of docs/pricing.md ("Across borders") are what the API answers: each
 * request, the account's currency and every figure are read from the page itself, and the quote is
 * asked for as a partner billed in that currency would ask for it.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import pricingPage from "../../docs/pricing.md?raw";
import type { Quote } from "../../src/quotes/schema.ts";
import { createPartner, send } from "../helpers.ts";

const SECTION = "## Across borders: seven worked examples";
const DESTINATIONS = ["US", "DE", "FR", "GB", "CA", "AU", "JP"] as const;

/** The body of the fenced block whose info string is `info`, after the section's heading. */
function fencedBlock(info: string): string {
	const from = pricingPage.indexOf(SECTION);
	expect(from).toBeGreaterThanOrEqual(0);
	const open = pricingPage.indexOf(`\`\`\`${info}\n`, from);
	expect(open, `docs/pricing.md has a block ${info}`).toBeGreaterThanOrEqual(0);
	const start = open + info.length + 4;
	return pricingPage.slice(start, pricingPage.indexOf("```", start));
}

/** What a worked example states: the account's currency, and the quote's figures for its one item and method. */
type Figures = {
	currency: Quote["currency"];
	exchange_rate: Quote["exchange_rate"];
	unit_price: Quote["items"][number]["unit_price"];
	line_total: number;
	declared_value: Quote["items"][number]["declared_value"];
	customs: Quote["items"][number]["customs"];
	shipping: number;
	landed_cost: NonNullable<Quote["totals"]["by_method"][string]["landed_cost"]>;
	taxes_and_duties: number;
	total: number;
};

/** What the example states, taken from the quote the API answered. */
function figuresOf(quote: Quote): Figures {
	const method = quote.shipping_method ?? "standard";
	const totals = quote.totals.by_method[method];
	const item = quote.items[0];
	if (totals?.landed_cost === null || totals === undefined || item === undefined) throw new Error("no totals or item");
	return {
		currency: quote.currency,
		exchange_rate: quote.exchange_rate,
		unit_price: item.unit_price,
		line_total: item.line_total,
		declared_value: item.declared_value,
		customs: item.customs,
		shipping: totals.shipping,
		landed_cost: totals.landed_cost,
		taxes_and_duties: totals.taxes_and_duties,
		total: totals.total,
	};
}

/** A partner billed in `currency`, as the admin sets it (its billing row). */
async function partnerBilledIn(currency: string): Promise<string> {
	const partner = await createPartner();
	await env.DB.prepare(
		"INSERT INTO account_billing (account_id, currency, duty_terms, updated_at) VALUES (?1, ?2, 'dap', ?3)",
	)
		.bind(partner.account.id, currency, new Date().toISOString())
		.run();
	return partner.keys.live.key;
}

describe("the worked examples across borders in docs/pricing.md", () => {
	for (const country of DESTINATIONS) {
		it(`to ${country}: the quote the API answers has every figure of the page's example`, async () => {
			const request = JSON.parse(fencedBlock(`json abroad-${country}-request`)) as { body: unknown; currency: string };
			const expected = JSON.parse(fencedBlock(`json abroad-${country}`)) as Figures;
			const response = await send("POST", "/v1/quotes", await partnerBilledIn(request.currency), request.body);
			expect(response.status).toBe(201);
			const quote = (await response.json()) as Quote;
			expect(figuresOf(quote)).toEqual(expected);
		});
	}
});
