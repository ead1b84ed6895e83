import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Catalog } from "../../src/catalog/schema.ts";
import type { LandedCost } from "../../src/customs/landed-cost.ts";
import type { Statement } from "../../src/ledger/statement.ts";
import { CURRENCIES, type Currency } from "../../src/money/currencies.ts";
import type { Order } from "../../src/orders/response.ts";
import type { Quote } from "../../src/quotes/schema.ts";
import { api, createAdminKey, createPartner, send } from "../helpers.ts";
import { statementOk } from "../ledger/ledger-helpers.ts";
import { externalId, readyFile, settleValidation } from "../orders/order-helpers.ts";
import { postQuote } from "../quotes/quote-helpers.ts";

/**
 * Money across borders, reconciled from the API alone: for random carts, destinations, duty terms,
 * declared values and account currencies, every amount of the quote is a whole number of its
 * currency's minor unit and its totals add up; the order made from the quote keeps its amounts to the
 * unit; and the charge the ledger writes when the order is released to the floor is the order's
 * total, in the account's currency, on a statement whose totals add up.
 */

const SEED = 20261202;
const RUNS = 120;

type Destination = { ship_to: Record<string, string>; covered: boolean; domestic: boolean };

/** One address per destination the issue names, with each subdivision that changes a rate, and two the table lacks. */
const DESTINATIONS: Destination[] = [
	{
		ship_to: {
			name: "Ada Lovelace",
			address1: "12 Harbour Street",
			city: "Portland",
			state: "ME",
			zip: "04101",
			country: "US",
		},
		covered: true,
		domestic: true,
	},
	{
		ship_to: { name: "Grete Weiss", address1: "Torstrasse 1", city: "Berlin", zip: "10119", country: "DE" },
		covered: true,
		domestic: false,
	},
	{
		ship_to: { name: "Marie Curie", address1: "10 Rue de Rivoli", city: "Paris", zip: "75001", country: "FR" },
		covered: true,
		domestic: false,
	},
	{
		ship_to: { name: "Tom Hardy", address1: "10 Downing Street", city: "London", zip: "SW1A 2AA", country: "GB" },
		covered: true,
		domestic: false,
	},
	{
		ship_to: {
			name: "Jean Tremblay",
			address1: "1 Front Street W",
			city: "Toronto",
			state: "ON",
			zip: "M5J 2X6",
			country: "CA",
		},
		covered: true,
		domestic: false,
	},
	{
		ship_to: {
			name: "Anne Shirley",
			address1: "1 Spring Garden Road",
			city: "Halifax",
			state: "NS",
			zip: "B3J 1A1",
			country: "CA",
		},
		covered: true,
		domestic: false,
	},
	{
		ship_to: {
			name: "Luc Roy",
			address1: "1 Rue Notre-Dame",
			city: "Montréal",
			state: "QC",
			zip: "H2Y 1C6",
			country: "CA",
		},
		covered: true,
		domestic: false,
	},
	{
		ship_to: { name: "Kim Lee", address1: "1 George Street", city: "Sydney", state: "NSW", zip: "2000", country: "AU" },
		covered: true,
		domestic: false,
	},
	{
		ship_to: { name: "Yuki Sato", address1: "1-1 Marunouchi", city: "Tokyo", zip: "100-0005", country: "JP" },
		covered: true,
		domestic: false,
	},
	{
		ship_to: { name: "Ana Ruiz", address1: "Av. Juárez 10", city: "Ciudad de México", zip: "06050", country: "MX" },
		covered: false,
		domestic: false,
	},
	{
		ship_to: { name: "Heidi Keller", address1: "Bahnhofstrasse 1", city: "Zürich", zip: "8001", country: "CH" },
		covered: false,
		domestic: false,
	},
];

/** An account per billing currency, its currency and default duty terms set by an admin before any entry. */
type Account = { key: string; file: string; currency: Currency; defaultTerms: "ddp" | "dap" };

/** Every amount a quote's or an order's money shows, by name: each must be a safe integer. */
function amountsOf(totals: { items: number; shipping: number; taxes: number; total: number }, landed: LandedCost) {
	return [
		["items", totals.items],
		["shipping", totals.shipping],
		["taxes_and_duties", totals.taxes],
		["total", totals.total],
		["landed_cost.goods_value", landed.goods_value],
		["landed_cost.shipping_value", landed.shipping_value],
		["landed_cost.charged_to_partner", landed.charged_to_partner],
		["landed_cost.buyer_pays_at_door.amount", landed.buyer_pays_at_door.amount],
		["landed_cost.buyer_pays_at_door.amount_in_currency", landed.buyer_pays_at_door.amount_in_currency],
		...landed.lines.flatMap((line, index) => [
			[`landed_cost.lines[${index}].amount`, line.amount],
			[`landed_cost.lines[${index}].amount_in_currency`, line.amount_in_currency],
			...(line.base === null ? [] : [[`landed_cost.lines[${index}].base`, line.base]]),
		]),
	] as [string, number][];
}

function expectSafeIntegers(named: [string, number][]): void {
	for (const [name, value] of named) {
		if (!Number.isSafeInteger(value)) throw new Error(`${name} is ${value}, not a whole number of minor units`);
	}
}

const sum = (values: readonly number[]) => values.reduce((total, value) => total + value, 0);

/** A quote's every amount an integer, its parts adding up, and its landed costs as the terms say. */
function expectQuoteAddsUp(quote: Quote, account: Account, terms: "ddp" | "dap", destination: Destination): void {
	expect(quote.currency).toBe(account.currency);
	expect(quote.duty_terms).toBe(terms);
	for (const [index, item] of quote.items.entries()) {
		const price = item.unit_price;
		expectSafeIntegers([
			...Object.entries(price).map(([part, value]): [string, number] => [`items[${index}].unit_price.${part}`, value]),
			[`items[${index}].line_total`, item.line_total],
			[`items[${index}].declared_value.amount`, item.declared_value.amount],
		]);
		const parts = [price.print, price.frame, price.mat, price.glazing, price.backing, price.assembly];
		expect(price.total).toBe(sum(parts) - price.discount);
		expect(item.line_total).toBe(price.total * item.quantity);
	}
	expect(quote.totals.items).toBe(sum(quote.items.map((item) => item.line_total)));
	expect(Object.keys(quote.totals.by_method).sort()).toEqual(
		quote.shipping_options.map((option) => option.method).sort(),
	);
	for (const option of quote.shipping_options) {
		const totals = quote.totals.by_method[option.method];
		const landed = totals?.landed_cost;
		if (totals === undefined || landed === null || landed === undefined)
			throw new Error(`no totals or landed cost for ${option.method}`);
		expectSafeIntegers([
			[`shipping_options.${option.method}.cost`, option.cost],
			...amountsOf(
				{ items: quote.totals.items, shipping: totals.shipping, taxes: totals.taxes_and_duties, total: totals.total },
				landed,
			),
		]);
		expect(totals.shipping).toBe(option.cost);
		expect(totals.total).toBe(quote.totals.items + totals.shipping + totals.taxes_and_duties);
		expect(totals.taxes_and_duties).toBe(landed.charged_to_partner);
		const partner = landed.lines.filter((line) => line.payer === "partner");
		const buyer = landed.lines.filter((line) => line.payer === "buyer");
		expect(landed.charged_to_partner).toBe(sum(partner.map((line) => line.amount_in_currency)));
		expect(landed.buyer_pays_at_door.amount_in_currency).toBe(sum(buyer.map((line) => line.amount_in_currency)));
		expect(landed.buyer_pays_at_door.amount).toBe(sum(buyer.map((line) => line.amount)));
		expect(landed.terms).toBe(terms);
		if (terms === "dap") {
			expect(landed.lines.filter((line) => line.collected === "at_border" && line.payer === "partner")).toEqual([]);
		} else {
			expect(buyer).toEqual([]);
		}
		expect(landed.coverage).toBe(destination.domestic ? "domestic" : destination.covered ? "estimated" : "not_covered");
		if (landed.coverage !== "estimated") expect([landed.lines, totals.taxes_and_duties]).toEqual([[], 0]);
	}
}

/** The order keeps its quote's amounts to the unit: each item's price, and the chosen method's totals. */
function expectOrderAsQuoted(order: Order, quote: Quote, method: string): void {
	const quoted = quote.totals.by_method[method];
	expect(order.shipping_method).toBe(method);
	expect(order.duty_terms).toBe(quote.duty_terms);
	expect(order.costs).toMatchObject({
		currency: quote.currency,
		items: quote.totals.items,
		shipping: quoted?.shipping,
		taxes_and_duties: quoted?.taxes_and_duties,
		total: quoted?.total,
		quote_id: quote.id,
		exchange_rate: quote.exchange_rate,
		partner_tax: quote.partner_tax,
	});
	expect(order.costs?.landed_cost).toEqual(quoted?.landed_cost);
	expect(order.items.map((item) => [item.unit_price, item.line_total])).toEqual(
		quote.items.map((item) => [item.unit_price, item.line_total]),
	);
}

/** The statement's totals add up, in the account's currency, and hold exactly one charge for `order`, of its total. */
function expectStatementCharges(statement: Statement, order: Order, currency: Currency): void {
	expect(statement.currency).toBe(currency);
	const charges = statement.entries.filter((entry) => entry.order_id === order.id);
	expect(charges.map((entry) => [entry.type, entry.amount_cents, entry.currency])).toEqual([
		["charge", order.costs?.total, currency],
	]);
	for (const entry of statement.entries) {
		expect(Number.isSafeInteger(entry.amount_cents)).toBe(true);
		expect(entry.currency).toBe(currency);
	}
	const amounts = statement.entries.map((entry) => entry.amount_cents);
	expect(statement.totals.net_cents).toBe(sum(amounts));
	expect(statement.totals.charges_cents + statement.totals.credits_cents + statement.totals.adjustments_cents).toBe(
		statement.totals.net_cents,
	);
	expect(statement.closing_balance_cents).toBe(statement.opening_balance_cents + statement.totals.net_cents);
}

let catalog: Catalog;
const accounts = new Map<Currency, Account>();

beforeAll(async () => {
	const admin = await createAdminKey();
	const made = await Promise.all(CURRENCIES.map(async (currency) => ({ currency, partner: await createPartner() })));
	// Limits raised before the keys are first used (their limiters keep what they read): no 429 stands in for an answer.
	await env.DB.prepare(
		"UPDATE accounts SET requests_per_minute = 1000000, orders_per_second = 10000, order_burst = 1000000",
	).run();
	for (const [index, { currency, partner }] of made.entries()) {
		const defaultTerms = index % 2 === 0 ? "ddp" : "dap";
		const billing = await send("PUT", `/v1/admin/accounts/${partner.account.id}/billing`, admin, {
			currency,
			duty_terms: defaultTerms,
		});
		expect(billing.status).toBe(200);
		const key = partner.keys.live.key;
		// 300 DPI at 24 in: every size drawn prints without a warning.
		accounts.set(currency, { key, file: await readyFile(key, 7_200, 7_200), currency, defaultTerms });
	}
	catalog = (await (await api("/v1/catalog", { key: made[0]?.partner.keys.live.key ?? "" })).json()) as Catalog;
});

/** A cart's items: 1 to 4, sized 8 to 20 in, framed or not, 1 to 5 units; a declared value each or none. */
function carts() {
	const frames = catalog.frames.filter((frame) => frame.max_united_inches >= 60).map((frame) => frame.slug);
	const item = fc.record({
		width_in: fc.integer({ min: 8, max: 20 }),
		height_in: fc.integer({ min: 8, max: 20 }),
		quantity: fc.integer({ min: 1, max: 5 }),
		frame: fc.option(fc.constantFrom(...frames), { nil: undefined }),
		declared: fc.option(
			fc.oneof(
				{ weight: 4, arbitrary: fc.integer({ min: 0, max: 1_000_000 }) },
				{ weight: 1, arbitrary: fc.constantFrom(0, 1, 99, 100_000_000_000) },
			),
			{ nil: undefined, freq: 2 },
		),
	});
	return fc.record({
		currency: fc.constantFrom(...CURRENCIES),
		destination: fc.constantFrom(...DESTINATIONS),
		// Sent in the quote, or left to the account's default.
		terms: fc.constantFrom("ddp" as const, "dap" as const, undefined),
		items: fc.array(item, { minLength: 1, maxLength: 4 }),
		// Declared values, when any: one currency for the cart, the account's or another.
		declaredCurrency: fc.option(fc.constantFrom(...CURRENCIES), { nil: undefined }),
		declares: fc.boolean(),
		methodPick: fc.nat(),
	});
}

describe("money across borders, from quote to order to statement", () => {
	it("every amount is a whole number of the minor unit, totals add up, and the quote, its order and the ledger's charge agree to the unit", async () => {
		const seen = {
			priced: 0,
			ordered: 0,
			charged: 0,
			ddpNotOffered: 0,
			partnerPaysBorder: 0,
			buyerPaysAtDoor: 0,
			declaredInAnother: 0,
			byCurrency: {} as Record<string, number>,
			byCountry: {} as Record<string, number>,
		};
		await fc.assert(
			fc.asyncProperty(carts(), async (cart) => {
				const account = accounts.get(cart.currency);
				if (account === undefined) throw new Error(`no account in ${cart.currency}`);
				const declaredCurrency = cart.declaredCurrency ?? cart.currency;
				const items = cart.items.map((entry) => ({
					width_in: entry.width_in,
					height_in: entry.height_in,
					quantity: entry.quantity,
					...(entry.frame === undefined ? {} : { frame: entry.frame }),
					...(cart.declares && entry.declared !== undefined
						? { declared_value: { amount: entry.declared, currency: declaredCurrency } }
						: {}),
				}));
				const terms = cart.terms ?? account.defaultTerms;
				const body = {
					ship_to: cart.destination.ship_to,
					items,
					...(cart.terms === undefined ? {} : { duty_terms: cart.terms }),
				};
				const response = await postQuote(account.key, body);
				if (terms === "ddp" && !cart.destination.covered) {
					// Duty paid where the table has no rules: the partner's 422, on duty_terms.
					const text = await response.text();
					expect([response.status, text]).toEqual([422, expect.stringContaining('"duty_terms_not_offered"')]);
					expect((JSON.parse(text) as { error: { field: string } }).error.field).toBe("duty_terms");
					seen.ddpNotOffered += 1;
					return;
				}
				const text = await response.text();
				if (response.status !== 201) throw new Error(`quote: ${response.status} ${text}`);
				const quote = JSON.parse(text) as Quote;
				expectQuoteAddsUp(quote, account, terms, cart.destination);
				seen.priced += 1;
				seen.byCurrency[cart.currency] = (seen.byCurrency[cart.currency] ?? 0) + 1;
				const country = cart.destination.ship_to.country ?? "";
				seen.byCountry[country] = (seen.byCountry[country] ?? 0) + 1;
				if (quote.items.some((item) => item.declared_value.currency !== quote.currency)) seen.declaredInAnother += 1;

				const methods = quote.shipping_options.map((option) => option.method);
				const method = methods[cart.methodPick % methods.length];
				if (method === undefined) throw new Error("the quote offers no method");
				const placed = await send("POST", "/v1/orders", account.key, {
					external_id: externalId("BORDER"),
					...body,
					items: items.map((entry) => ({ ...entry, print_file_id: account.file })),
					quote_id: quote.id,
					shipping_method: method,
				});
				const placedText = await placed.text();
				if (placed.status !== 201) throw new Error(`order: ${placed.status} ${placedText}`);
				const created = JSON.parse(placedText) as Order;
				expectOrderAsQuoted(created, quote, method);
				seen.ordered += 1;
				if ((created.costs?.taxes_and_duties ?? 0) > 0) seen.partnerPaysBorder += 1;
				if ((created.costs?.landed_cost?.buyer_pays_at_door.amount ?? 0) > 0) seen.buyerPaysAtDoor += 1;

				// No edit window: validation releases the order to the floor, and the release charges it.
				const order = await settleValidation(account.key, created.id);
				expect(order.status).toBe("in_production");
				expectOrderAsQuoted(order, quote, method);
				expectStatementCharges(await statementOk(account.key), order, account.currency);
				seen.charged += 1;
			}),
			{ seed: SEED, numRuns: RUNS },
		);
		// The property held for carts priced, ordered and charged in every currency and to every destination,
		// not only refused. Seed 20261202, 120 runs: 108 priced, ordered and charged, 12 refused (duty paid
		// to MX or CH); 48 with border charges to the partner, 33 with the buyer asked at the door.
		expect(seen.priced + seen.ddpNotOffered).toBe(RUNS);
		expect(seen.charged).toBe(seen.priced);
		expect(seen.ddpNotOffered).toBeGreaterThan(0);
		expect(Object.keys(seen.byCurrency).sort()).toEqual([...CURRENCIES].sort());
		expect(Object.keys(seen.byCountry).sort()).toEqual(["AU", "CA", "CH", "DE", "FR", "GB", "JP", "MX", "US"]);
		expect(seen.partnerPaysBorder).toBeGreaterThan(0);
		expect(seen.buyerPaysAtDoor).toBeGreaterThan(0);
		expect(seen.declaredInAnother).toBeGreaterThan(0);
	}, 120_000);

	it("a cart of 100 units declared at the largest value the schema takes is quoted, ordered and charged in whole cents, not a 500", async () => {
		const account = accounts.get("EUR");
		if (account === undefined) throw new Error("no account in EUR");
		const item = {
			width_in: 8,
			height_in: 10,
			quantity: 100,
			declared_value: { amount: 100_000_000_000, currency: "EUR" },
		};
		const body = { ship_to: DESTINATIONS[1]?.ship_to, items: [item], duty_terms: "ddp" };
		const response = await postQuote(account.key, body);
		expect(response.status).toBe(201);
		const quote = (await response.json()) as Quote;
		const method = quote.shipping_options[0]?.method ?? "standard";
		// VAT 19 % of EUR 100 billion and the shipping: over EUR 19 billion, to the cent.
		expect(quote.totals.by_method[method]?.taxes_and_duties).toBeGreaterThan(1_900_000_000_000);
		expectQuoteAddsUp(quote, account, "ddp", DESTINATIONS[1] as Destination);
		const created = await send("POST", "/v1/orders", account.key, {
			external_id: externalId("BORDER"),
			...body,
			items: [{ ...item, print_file_id: account.file }],
			quote_id: quote.id,
			shipping_method: method,
		});
		expect(created.status).toBe(201);
		const order = await settleValidation(account.key, ((await created.json()) as Order).id);
		expectOrderAsQuoted(order, quote, method);
		expectStatementCharges(await statementOk(account.key), order, "EUR");
	});
});
