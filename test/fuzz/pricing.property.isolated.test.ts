import { env } from "cloudflare:workers";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { type CatalogSnapshot, isolateCatalog } from "../../src/catalog/cache.ts";
import { landedCostTables } from "../../src/customs/store.ts";
import type { LandedCostTable } from "../../src/customs/tables.ts";
import { pieceDimensions } from "../../src/framing/dimensions.ts";
import { completeFraming, type FramingInput, pieceSpecOf } from "../../src/framing/spec.ts";
import { DEFAULT_BILLING, DUTY_TERMS } from "../../src/money/account-billing.ts";
import { CURRENCIES } from "../../src/money/currencies.ts";
import type { RateSheet } from "../../src/money/exchange.ts";
import { rateSheets } from "../../src/money/store.ts";
import { priceOrder } from "../../src/orders/costs.ts";
import type { Order } from "../../src/orders/response.ts";
import { PRICE_BOOK_BOUNDS, type PriceBook, PriceBookBody, PriceBookSchema } from "../../src/pricing/book.ts";
import { SHIPPING_METHODS, SHIPPING_ZONES } from "../../src/pricing/shipping.ts";
import { priceQuote } from "../../src/quotes/price-quote.ts";
import { CreateQuoteBody, type Quote, QuoteSchema } from "../../src/quotes/schema.ts";
import { quoteOfStored, storedQuote } from "../../src/quotes/store.ts";
import { api, createAdminKey, createPartner, send } from "../helpers.ts";
import { externalId, readyFile } from "../orders/order-helpers.ts";
import { postQuote } from "../quotes/quote-helpers.ts";

/**
 * Any price book the admin route accepts prices any cart the quote and order routes accept: no
 * error but the partner's own (a size the catalog does not offer, a piece too big for its frame, a
 * method the book does not offer), and every price, weight and day count a safe integer. Books are
 * drawn within the book's bounds, their extremes often; carts up to the schema's limits (50 items
 * of 100 units), every size, part and destination.
 */

const SEED = 20261122;
const B = PRICE_BOOK_BOUNDS;

/** An integer in [min, max], the two ends drawn often. */
function bounded(min: number, max: number): fc.Arbitrary<number> {
	return fc.oneof(
		{ weight: 2, arbitrary: fc.constantFrom(min, max) },
		{ weight: 3, arbitrary: fc.integer({ min, max }) },
	);
}

/** A finite number in [min, max], the two ends drawn often. */
function boundedReal(min: number, max: number): fc.Arbitrary<number> {
	return fc.oneof(
		{ weight: 2, arbitrary: fc.constantFrom(min, max) },
		{ weight: 3, arbitrary: fc.double({ min, max, noNaN: true, noDefaultInfinity: true }) },
	);
}

/** Rates for every slug, from 0 to `max`. */
function ratesFor(slugs: readonly string[], max: number): fc.Arbitrary<Record<string, number>> {
	return fc
		.tuple(...slugs.map(() => bounded(0, max)))
		.map((rates) => Object.fromEntries(slugs.map((slug, index) => [slug, rates[index] ?? 0])));
}

const transitDays = fc
	.tuple(bounded(0, B.days), bounded(0, B.days))
	.map(([a, b]) => ({ min: Math.min(a, b), max: Math.max(a, b) }));

const rate = fc.record({
	package_cents: bounded(0, B.packageCents),
	per_lb_cents: bounded(0, B.perPoundCents),
	transit_days: transitDays,
});

/** A zone's methods: each offered or not, most often offered. */
const zoneRates = fc.record(
	Object.fromEntries(SHIPPING_METHODS.map((method) => [method, fc.option(rate, { nil: undefined, freq: 4 })])),
	{ requiredKeys: [] },
);

/** Mat tiers: up to the most a book may hold, rising, the last open-ended. */
const matTiers = fc
	.uniqueArray(boundedReal(Number.MIN_VALUE, B.unitedInches), { maxLength: B.matTiers - 1 })
	.chain((bounds) =>
		fc.tuple(
			fc.constant([...bounds].sort((a, b) => a - b)),
			fc.array(bounded(0, B.pieceCents), { minLength: bounds.length + 1, maxLength: bounds.length + 1 }),
		),
	)
	.map(([bounds, cents]) => [
		...bounds.map((max, index) => ({ max_united_inches: max, cents_per_layer: cents[index] ?? 0 })),
		{ max_united_inches: null, cents_per_layer: cents.at(-1) ?? 0 },
	]);

/** A book the admin route accepts for this catalog (a rate for each of its frames, papers and glazings). */
function books(snapshot: CatalogSnapshot) {
	const { catalog } = snapshot;
	return fc.record({
		currency: fc.constant("USD" as const),
		print: fc.record({
			minimum_cents: bounded(0, B.pieceCents),
			paper_mills_per_sq_in: ratesFor(
				catalog.papers.map((paper) => paper.slug),
				B.millsPerSquareInch,
			),
		}),
		frames: fc.record({
			mills_per_foot: ratesFor(
				catalog.frames.map((frame) => frame.slug),
				B.millsPerFoot,
			),
		}),
		mats: fc.record({ tiers: matTiers }),
		glazing: fc.record({
			mills_per_sq_in: ratesFor(
				catalog.glazings.map((glazing) => glazing.slug),
				B.millsPerSquareInch,
			),
		}),
		backing: fc.record({ mills_per_sq_in: bounded(0, B.millsPerSquareInch) }),
		assembly: fc.record({ cents_per_framed_piece: bounded(0, B.pieceCents) }),
		shipping: fc.record({
			zones: fc.record(Object.fromEntries(SHIPPING_ZONES.map((zone) => [zone, zoneRates]))),
			oversize_cents: bounded(0, B.packageCents),
			oversize_above_in: boundedReal(B.lengthPlusGirthIn.min, B.lengthPlusGirthIn.max),
			freight_above_in: boundedReal(B.lengthPlusGirthIn.min, B.lengthPlusGirthIn.max),
			dimensional_divisor: bounded(B.dimensionalDivisor.min, B.dimensionalDivisor.max),
			production_days: fc.record({ framed: bounded(0, B.days), unframed: bounded(0, B.days) }),
		}),
	});
}

/** Destinations in every zone, each valid as the schema wants it. */
const DESTINATIONS = [
	{ name: "Ada Lovelace", address1: "12 Harbour Street", city: "Portland", state: "ME", zip: "04101", country: "US" },
	{ name: "Jean Tremblay", address1: "1 Front Street W", city: "Toronto", state: "ON", zip: "M5J 2X6", country: "CA" },
	{ name: "Ana Ruiz", address1: "Av. Juárez 10", city: "Ciudad de México", zip: "06050", country: "MX" },
	{ name: "Grete Weiss", address1: "Torstrasse 1", city: "Berlin", zip: "10119", country: "DE" },
	{ name: "Tom Hardy", address1: "10 Downing Street", city: "London", zip: "SW1A 2AA", country: "GB" },
	{ name: "Yuki Sato", address1: "1-1 Marunouchi", city: "Tokyo", zip: "100-0005", country: "JP" },
	{ name: "Kim Lee", address1: "1 George Street", city: "Sydney", state: "NSW", zip: "2000", country: "AU" },
];

/**
 * An item the quote schema accepts. `offered`: a size the catalog offers, and a frame that carries
 * the piece (the widest moulding when the one drawn is too small), so the cart can be priced;
 * otherwise any size the schema takes, which the pricing may refuse on the field.
 */
function items(snapshot: CatalogSnapshot, offered: boolean) {
	const { catalog } = snapshot;
	const eighths = (min: number, max: number) => bounded(min * 8, max * 8).map((value) => value / 8);
	const size = offered
		? bounded(catalog.sizes.min_in, catalog.sizes.max_in)
		: fc.oneof(bounded(1, 1000), fc.double({ min: 0.01, max: 1000, noNaN: true }));
	const matSlug = fc.constantFrom(...catalog.mats.map((mat) => mat.slug));
	const mat = fc.option(
		fc.record({
			mat: matSlug,
			mat_border_in: eighths(1, 6),
			bottom_extra: eighths(0, 2),
			inner: fc.option(fc.record({ inner_mat: matSlug, inner_mat_reveal_in: eighths(0.125, 0.5) })),
		}),
	);
	const framing = fc.option(
		fc.record({
			frame: fc.constantFrom(...catalog.frames.map((frame) => frame.slug)),
			glazing: fc.constantFrom(...catalog.glazings.map((glazing) => glazing.slug)),
			mat,
		}),
		{ freq: 4 },
	);
	const widest = [...catalog.frames].sort((a, b) => b.max_united_inches - a.max_united_inches)[0];
	/** The widest moulding when the frame drawn cannot carry the piece. */
	const carried = <T extends FramingInput & { width_in: number; height_in: number }>(item: T): T => {
		const frame = catalog.frames.find((candidate) => candidate.slug === item.frame);
		if (!offered || frame === undefined || widest === undefined) return item;
		const spec = pieceSpecOf(item.width_in, item.height_in, completeFraming(item), frame.width_in);
		return pieceDimensions(spec).united_inches <= frame.max_united_inches ? item : { ...item, frame: widest.slug };
	};
	return fc
		.record({
			width_in: size,
			height_in: size,
			quantity: bounded(1, 100),
			paper: fc.constantFrom(...catalog.papers.map((paper) => paper.slug)),
			fit: fc.constantFrom("fill" as const, "fit" as const),
			framing,
		})
		.map(({ framing: parts, ...item }) => {
			if (parts === null) return item;
			const { mat: matted, ...framed } = parts;
			if (matted === null) return carried({ ...item, ...framed });
			const { bottom_extra: extra, inner, ...matFields } = matted;
			return carried({
				...item,
				...framed,
				...matFields,
				mat_bottom_border_in: Math.min(8, matFields.mat_border_in + extra),
				...(inner ?? {}),
			});
		});
}

/** Carts: mostly ones the catalog can price, the largest (50 items of 100 units) often, sometimes any sizes. */
function carts(snapshot: CatalogSnapshot) {
	const offered = items(snapshot, true);
	return fc.record({
		ship_to: fc.constantFrom(...DESTINATIONS),
		items: fc.oneof(
			{ weight: 3, arbitrary: fc.array(offered, { minLength: 1, maxLength: 50 }) },
			{
				weight: 3,
				arbitrary: fc.array(
					offered.map((item) => ({ ...item, quantity: 100 })),
					{ minLength: 50, maxLength: 50 },
				),
			},
			{ weight: 1, arbitrary: fc.array(items(snapshot, false), { minLength: 1, maxLength: 50 }) },
		),
		// Named a quarter of the time: a method the book does not offer for the cart is the partner's 422.
		shipping_method: fc.oneof(
			{ weight: 3, arbitrary: fc.constant(undefined) },
			{ weight: 1, arbitrary: fc.constantFrom(...SHIPPING_METHODS) },
		),
	});
}

/** A book with every number at the end that makes prices, weights and days largest ("max"), or smallest. */
function extremeBook(snapshot: CatalogSnapshot, end: "max" | "min") {
	const { catalog } = snapshot;
	const top = end === "max";
	const of = (max: number) => (top ? max : 0);
	const every = (slugs: { slug: string }[], max: number) =>
		Object.fromEntries(slugs.map((entry) => [entry.slug, of(max)]));
	const zone = Object.fromEntries(
		SHIPPING_METHODS.map((method) => [
			method,
			{
				package_cents: of(B.packageCents),
				per_lb_cents: of(B.perPoundCents),
				transit_days: { min: of(B.days), max: of(B.days) },
			},
		]),
	);
	return {
		currency: "USD" as const,
		print: { minimum_cents: of(B.pieceCents), paper_mills_per_sq_in: every(catalog.papers, B.millsPerSquareInch) },
		frames: { mills_per_foot: every(catalog.frames, B.millsPerFoot) },
		mats: { tiers: [{ max_united_inches: null, cents_per_layer: of(B.pieceCents) }] },
		glazing: { mills_per_sq_in: every(catalog.glazings, B.millsPerSquareInch) },
		backing: { mills_per_sq_in: of(B.millsPerSquareInch) },
		assembly: { cents_per_framed_piece: of(B.pieceCents) },
		shipping: {
			zones: Object.fromEntries(SHIPPING_ZONES.map((name) => [name, zone])),
			oversize_cents: of(B.packageCents),
			// Every package oversize, and none so large the parcel methods refuse it: every surcharge counts.
			oversize_above_in: top ? B.lengthPlusGirthIn.min : B.lengthPlusGirthIn.max,
			freight_above_in: top ? B.lengthPlusGirthIn.max : B.lengthPlusGirthIn.min,
			dimensional_divisor: top ? B.dimensionalDivisor.min : B.dimensionalDivisor.max,
			production_days: { framed: of(B.days), unframed: of(B.days) },
		},
	};
}

/** 50 items of 100 units of the largest piece the catalog builds: 40 × 40 in, the widest borders, a double mat, the widest moulding. */
function largestCart(snapshot: CatalogSnapshot) {
	const widest = [...snapshot.catalog.frames].sort((a, b) => b.max_united_inches - a.max_united_inches)[0];
	return {
		ship_to: DESTINATIONS[0] ?? { country: "US" },
		items: Array.from({ length: 50 }, () => ({
			width_in: snapshot.catalog.sizes.max_in,
			height_in: snapshot.catalog.sizes.max_in,
			quantity: 100,
			frame: widest?.slug ?? "",
			mat: snapshot.catalog.mats[0]?.slug ?? "",
			mat_border_in: 6,
			mat_bottom_border_in: 8,
			inner_mat: snapshot.catalog.mats[1]?.slug ?? "",
			inner_mat_reveal_in: 0.5,
			glazing: "museum-acrylic",
			paper: "cotton-rag",
			fit: "fill" as const,
		})),
	};
}

/** Every number in `value`, with its path. */
function numbersIn(value: unknown, path = ""): [string, number][] {
	if (typeof value === "number") return [[path, value]];
	if (Array.isArray(value)) return value.flatMap((entry, index) => numbersIn(entry, `${path}[${index}]`));
	if (typeof value === "object" && value !== null) {
		return Object.entries(value).flatMap(([key, entry]) => numbersIn(entry, path === "" ? key : `${path}.${key}`));
	}
	return [];
}

/** Every count of cents, pounds billed or days in a quote is a safe integer; every number is finite. */
function expectSafe(quote: Omit<Quote, "id" | "created_at" | "expires_at">): void {
	for (const [path, value] of numbersIn(quote)) {
		if (!Number.isFinite(value)) throw new Error(`${path} is ${value}`);
	}
	const integers = [
		quote.totals.items,
		...Object.values(quote.totals.by_method).flatMap((total) => [total.shipping, total.total]),
		...quote.items.flatMap((item) => [item.line_total, ...Object.values(item.unit_price)]),
		...quote.shipping_options.flatMap((option) => [
			option.cost,
			option.delivery_days.min,
			option.delivery_days.max,
			...option.packages.map((parcel) => parcel.billable_weight_lb),
		]),
	];
	for (const value of integers) if (!Number.isSafeInteger(value)) throw new Error(`${value} is not a safe integer`);
}

/** The refusals a cart may meet: its own size or frame, or a method the book does not offer. */
const PARTNER_FIELDS = /^(items\[\d+\]\.(width_in|height_in|frame)|shipping_method|duty_terms)$/;

let snapshot: CatalogSnapshot;
let sheet: RateSheet;
let table: LandedCostTable;

beforeAll(async () => {
	snapshot = await isolateCatalog.get(env.DB);
	const now = new Date();
	const [sheetInForce, tableInForce] = await Promise.all([
		rateSheets.inForce(env.DB, now),
		landedCostTables.inForce(env.DB, now),
	]);
	if (sheetInForce === null || tableInForce === null)
		throw new Error("no rate sheet or landed-cost table: migrations?");
	sheet = sheetInForce;
	table = tableInForce;
});

describe("pricing under any accepted book", () => {
	it("prices every accepted cart (quote and order) with safe integers, and the quote stores and reads back as answered", () => {
		const seen = { priced: 0, largest: 0, ordered: 0 };
		fc.assert(
			fc.property(
				books(snapshot),
				carts(snapshot),
				bounded(0, 50),
				fc.constantFrom(...CURRENCIES),
				fc.constantFrom(...DUTY_TERMS),
				(rawBook, rawCart, discountPercent, currency, terms) => {
					const parsedBook = PriceBookBody.safeParse(rawBook);
					if (!parsedBook.success) throw new Error(`the route refuses the book: ${parsedBook.error.message}`);
					const book: PriceBook = PriceBookSchema.parse({
						...parsedBook.data,
						version: 2,
						published_at: "2026-11-23T00:00:00.000Z",
					});
					const cart = CreateQuoteBody.safeParse(rawCart);
					if (!cart.success) throw new Error(`the route refuses the cart: ${cart.error.message}`);
					const facts = {
						catalog: snapshot.catalog,
						mouldingWeights: snapshot.mouldingWeights,
						book,
						discountPercent,
						money: { currency, rates: sheet.per_usd_micros, sheetVersion: sheet.version },
						billing: { ...DEFAULT_BILLING, currency, duty_terms: terms },
						table,
					};
					const outcome = priceQuote(cart.data, { ...facts, files: new Map() });
					const order = priceOrder(
						cart.data.items,
						cart.data.ship_to.country,
						cart.data.shipping_method ?? null,
						facts,
						{
							terms,
							region: cart.data.ship_to.state ?? null,
							sent: cart.data.items.map(() => null),
						},
					);
					if (!outcome.ok) {
						expect(outcome.field).toMatch(PARTNER_FIELDS);
						return;
					}
					expect(outcome.quote.currency).toBe(currency);
					expectSafe(outcome.quote);
					seen.priced += 1;
					if (cart.data.items.length === 50 && cart.data.items.every((item) => item.quantity === 100))
						seen.largest += 1;
					const quote = QuoteSchema.parse({
						id: "quo_property",
						created_at: "2026-11-23T00:00:00.000Z",
						expires_at: "2026-11-25T00:00:00.000Z",
						...outcome.quote,
					});
					expect(quoteOfStored(JSON.stringify(storedQuote(quote)))).toEqual(quote);
					if (!order.ok) {
						expect(order.field).toMatch(/^(shipping_method|duty_terms)$/);
						return;
					}
					const costs = order.pricing.costs;
					if (costs === null) throw new Error("every item was priced, but the order has no costs");
					for (const value of [costs.items, costs.shipping, costs.total])
						expect(Number.isSafeInteger(value)).toBe(true);
					expect(costs.items).toBe(quote.totals.items);
					expect(costs.total).toBe(quote.totals.by_method[order.pricing.shippingMethod]?.total);
					seen.ordered += 1;
				},
			),
			{ seed: SEED, numRuns: 300 },
		);
		// The property held for carts that were priced, not only refused: most of them, the largest among them.
		expect(seen.priced).toBeGreaterThan(150);
		expect(seen.largest).toBeGreaterThan(75);
		expect(seen.ordered).toBeGreaterThan(100);
	}, 120_000);

	it("through the API: books at the bounds' extremes (and between) price the largest carts, quotes read back, orders place", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		// Every account's limits raised before its keys are first used (their limiters keep what they
		// read), so no 429 stands in for what a route would have answered.
		await env.DB.prepare(
			"UPDATE accounts SET requests_per_minute = 1000000, orders_per_second = 10000, order_burst = 1000000",
		).run();
		const key = partner.keys.live.key;
		// 300 DPI at the largest size.
		const file = await readyFile(key, 12_000, 12_000);
		/** Publishes `book`, quotes `cart`, reads the quote back and orders against it. */
		async function publishQuoteOrder(book: unknown, cart: { items: object[] }): Promise<"placed" | "refused"> {
			const published = await send("POST", "/v1/admin/price-book", admin, book);
			expect(published.status).toBe(201);
			const response = await postQuote(key, cart);
			if (response.status !== 201) {
				expect(response.status).toBe(422);
				const { error } = (await response.json()) as { error: { field: string } };
				expect(error.field).toMatch(PARTNER_FIELDS);
				return "refused";
			}
			const given = (await response.json()) as Quote;
			expectSafe(given);
			const read = await api(`/v1/quotes/${given.id}`, { key });
			expect(await read.json()).toEqual(given);
			const placed = await send("POST", "/v1/orders", key, {
				external_id: externalId("PROP"),
				...cart,
				items: cart.items.map((item) => ({ ...item, print_file_id: file })),
				quote_id: given.id,
			});
			if (placed.status !== 201) {
				// The method the order gets by default (standard, else the one the quote offers) when the
				// book offers none to this destination: the partner's 422, as the pure property found.
				expect(given.shipping_options.some((option) => option.method === "standard")).toBe(false);
				const { error } = (await placed.json()) as { error: { field: string } };
				expect([placed.status, error.field]).toEqual([422, "shipping_method"]);
				return "refused";
			}
			const order = (await placed.json()) as Order;
			expect(order.costs?.items).toBe(given.totals.items);
			return "placed";
		}
		for (const end of ["max", "min"] as const) {
			expect(await publishQuoteOrder(extremeBook(snapshot, end), largestCart(snapshot))).toBe("placed");
		}
		await fc.assert(
			fc.asyncProperty(books(snapshot), carts(snapshot), async (book, cart) => {
				await publishQuoteOrder(book, cart);
			}),
			{ seed: SEED, numRuns: 6 },
		);
	}, 120_000);
});
