/**
 * Declared values so large that, at a rate sheet an admin may publish, the border's charges would pass
 * 2^53: the quote and the order are refused with a 422 naming the items, never a 500.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { createAdminKey, createPartner, send } from "../helpers.ts";
import { readyFile } from "../orders/order-helpers.ts";

const TOKYO = { name: "Yuki Sato", address1: "1-1 Marunouchi", city: "Tokyo", zip: "100-0005", country: "JP" };
const ITEM = {
	width_in: 8,
	height_in: 10,
	quantity: 100,
	declared_value: { amount: 100_000_000_000, currency: "EUR" },
};

describe("declared values past what the rates in force can reckon", () => {
	it("a quote and an order are 422 invalid_field on items, saying to declare what the buyer paid", async () => {
		const admin = await createAdminKey();
		// The largest rate the bounds allow: 100,000 yen to the dollar.
		const published = await send("POST", "/v1/admin/exchange-rates", admin, {
			effective_at: new Date().toISOString(),
			source: "A test of the bounds' extreme",
			per_usd_micros: {
				USD: 1_000_000,
				EUR: 862_000,
				GBP: 760_000,
				CAD: 1_400_000,
				AUD: 1_530_000,
				JPY: 100_000_000_000,
			},
		});
		expect(published.status).toBe(201);
		const partner = await createPartner();
		await env.DB.prepare(
			"INSERT INTO account_billing (account_id, currency, duty_terms, updated_at) VALUES (?1, 'JPY', 'dap', ?2)",
		)
			.bind(partner.account.id, new Date().toISOString())
			.run();
		const key = partner.keys.live.key;
		const quote = await send("POST", "/v1/quotes", key, { ship_to: TOKYO, items: [ITEM] });
		expect(quote.status).toBe(422);
		const { error } = (await quote.json()) as { error: { code: string; field: string; message: string } };
		expect(error).toMatchObject({ code: "invalid_field", field: "items" });
		expect(error.message).toContain("declare what the buyer paid");
		const file = await readyFile(key, 2400, 3000);
		const order = await send("POST", "/v1/orders", key, {
			external_id: "EXTREME-1",
			ship_to: TOKYO,
			items: [{ ...ITEM, print_file_id: file }],
		});
		expect(order.status).toBe(422);
		expect(((await order.json()) as { error: { code: string; field: string } }).error).toMatchObject({
			code: "invalid_field",
			field: "items",
		});
	});
});
