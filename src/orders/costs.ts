/**
 * What an order costs: its shipping method, each item's dimensions and
 * price, and the order's costs, either from the price book in force or exactly as a quote gave them.
 * Pure: the facts, the quote and the clock are the caller's.
 */
import { FRAMING_FIELDS, type FramingSpec } from "../framing/spec.ts";
import { shippingTablesOf } from "../pricing/book.ts";
import { safeSum } from "../pricing/money.ts";
import { type ShippingMethod, type ShippingOption, zoneOf } from "../pricing/shipping.ts";
import { type Refusal, refusal } from "../problem.ts";
import {
	cartShippingOptions,
	notOffered,
	type PieceFacts,
	type PieceInput,
	type PricedPiece,
	pricePiece,
} from "../quotes/price-quote.ts";
import type { Quote } from "../quotes/schema.ts";

/** An item's dimensions and price, as stored in `order_items.priced` and shown on the item. */
export type ItemPrice = Pick<PricedPiece, "dimensions" | "united_inches" | "unit_price" | "line_total">;

/** The order's charges, as stored in `orders.costs` and shown as `costs`. */
export type OrderCosts = {
	currency: "USD";
	items: number;
	shipping: number;
	total: number;
	price_book_version: number;
	quote_id: string | null;
	/** Set on a claim's reprint, charged nothing; absent on every order charged as priced. */
	charge?: "reprint";
};

/** The costs as the order and its events show them: `charge` always said (`order` unless a reprint). */
export function shownCosts(
	costs: OrderCosts | null,
): (Omit<OrderCosts, "charge"> & { charge: "order" | "reprint" }) | null {
	return costs === null ? null : { ...costs, charge: costs.charge ?? "order" };
}

/** A reprint's costs: the original's price book, every amount 0. */
export function reprintCosts(priceBookVersion: number): OrderCosts {
	return {
		currency: "USD",
		items: 0,
		shipping: 0,
		total: 0,
		price_book_version: priceBookVersion,
		quote_id: null,
		charge: "reprint",
	};
}

/** An order's method and charges: `costs` null while some item cannot be priced (the order is then held). */
export type OrderPricing = {
	shippingMethod: ShippingMethod;
	/** The method the order gets when it names none: standard, or freight where nothing else takes it. */
	defaultMethod: ShippingMethod;
	costs: OrderCosts | null;
	items: (ItemPrice | null)[];
};

/** The order's charges: its items, its shipping, their total, and what priced them. */
function chargesOf(items: number, shipping: number, priceBookVersion: number, quoteId: string | null): OrderCosts {
	return {
		currency: "USD",
		items,
		shipping,
		total: safeSum([items, shipping], "order total"),
		price_book_version: priceBookVersion,
		quote_id: quoteId,
	};
}

/** The method an order gets without asking: standard when offered, else the only way it can go (freight). */
function defaultMethodOf(options: readonly ShippingOption[]): ShippingMethod {
	if (options.some((option) => option.method === "standard")) return "standard";
	return options[0]?.method ?? "standard";
}

function itemPriceOf(piece: PricedPiece): ItemPrice {
	return {
		dimensions: piece.dimensions,
		united_inches: piece.united_inches,
		unit_price: piece.unit_price,
		line_total: piece.line_total,
	};
}

/**
 * Prices an order's pieces to `country` with the book in force. `requested` is the partner's method:
 * one not offered is a refusal on `shipping_method` (checked against the destination alone while an
 * item cannot be priced). Without it the order gets the default method. Items that cannot be priced
 * (an unknown part, a size not offered, a piece too big for its moulding) have no price, and the order
 * no costs, until a fix makes them priceable; validation holds the order meanwhile.
 */
export function priceOrder(
	pieces: readonly PieceInput[],
	country: string,
	requested: ShippingMethod | null,
	facts: PieceFacts,
): { ok: true; pricing: OrderPricing } | Refusal {
	const priced = pieces.map((piece) => pricePiece(piece, facts));
	const complete = priced.flatMap((piece) => (piece.ok ? [piece] : []));
	if (complete.length < priced.length) {
		const offered = shippingTablesOf(facts.book).rates[zoneOf(country)];
		if (requested !== null && offered[requested] === undefined) {
			const methods = Object.keys(offered).join(", ");
			return refusal(
				"shipping_method_not_offered",
				"shipping_method",
				`${requested} is not offered to ${country} (offered: ${methods})`,
			);
		}
		return {
			ok: true,
			pricing: {
				shippingMethod: requested ?? "standard",
				defaultMethod: "standard",
				costs: null,
				items: priced.map((piece) => (piece.ok ? itemPriceOf(piece) : null)),
			},
		};
	}
	const options = cartShippingOptions(
		complete.map((piece) => piece.parcel),
		country,
		facts.book,
	);
	const defaultMethod = defaultMethodOf(options);
	const method = requested ?? defaultMethod;
	const option = options.find((candidate) => candidate.method === method);
	if (option === undefined) {
		return refusal("shipping_method_not_offered", "shipping_method", notOffered(method, country, options));
	}
	const itemsTotal = safeSum(
		complete.map((piece) => piece.line_total),
		"items total",
	);
	return {
		ok: true,
		pricing: {
			shippingMethod: method,
			defaultMethod,
			costs: chargesOf(itemsTotal, option.cost, facts.book.version, null),
			items: complete.map(itemPriceOf),
		},
	};
}

/** A piece as the quote comparison sees it: size, quantity and complete specification. */
export type PieceToMatch = FramingSpec & { width_in: number; height_in: number; quantity: number };

const MATCHED_FIELDS = ["width_in", "height_in", "quantity", ...FRAMING_FIELDS] as const;

/**
 * The order's charges exactly as `quote` gave them, or a refusal on `quote_id` saying why the quote
 * does not apply: expired, quoted to another country, or for other items. The quote's price depends
 * on the destination's country alone, so the street may differ (a buyer corrects a typo).
 */
export function chargeQuote(
	quote: Quote,
	pieces: readonly PieceToMatch[],
	country: string,
	requested: ShippingMethod | null,
	now: Date,
): { ok: true; pricing: OrderPricing } | Refusal {
	const refuse = (message: string): Refusal => refusal("quote_not_applicable", "quote_id", message);
	if (Date.parse(quote.expires_at) <= now.getTime()) {
		return refuse(`Quote ${quote.id} expired at ${quote.expires_at}; ask for a new quote.`);
	}
	if (quote.ship_to === null) {
		return refuse(`Quote ${quote.id} was made before quotes kept their destination; ask for a new quote.`);
	}
	if (quote.ship_to.country !== country) {
		return refuse(`Quote ${quote.id} is for shipping to ${quote.ship_to.country}, not ${country}.`);
	}
	if (quote.items.length !== pieces.length) {
		return refuse(`Quote ${quote.id} has ${quote.items.length} items; this order has ${pieces.length}.`);
	}
	for (const [index, piece] of pieces.entries()) {
		const quoted = quote.items[index];
		if (quoted === undefined) continue;
		const field = MATCHED_FIELDS.find((name) => quoted[name] !== piece[name]);
		if (field !== undefined) {
			return refuse(
				`items[${index}].${field} is ${JSON.stringify(piece[field])} here but ${JSON.stringify(quoted[field])} in quote ${quote.id}.`,
			);
		}
	}
	const defaultMethod = defaultMethodOf(quote.shipping_options);
	// A quote asked for with a method names what the partner meant to order: an order that names
	// none ships that way, as quoted, rather than falling back to the default.
	const method = requested ?? quote.shipping_method ?? defaultMethod;
	const option = quote.shipping_options.find((candidate) => candidate.method === method);
	if (option === undefined) {
		return refusal(
			"shipping_method_not_offered",
			"shipping_method",
			`${notOffered(method, country, quote.shipping_options)} in quote ${quote.id}`,
		);
	}
	return {
		ok: true,
		pricing: {
			shippingMethod: method,
			defaultMethod,
			costs: chargesOf(quote.totals.items, option.cost, quote.price_book_version, quote.id),
			items: quote.items.map((item) => ({
				dimensions: item.dimensions,
				united_inches: item.united_inches,
				unit_price: item.unit_price,
				line_total: item.line_total,
			})),
		},
	};
}
