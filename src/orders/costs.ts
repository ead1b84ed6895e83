/**
 * What an order costs: its shipping method, each item's dimensions and
 * price, and the order's costs, either from the price book in force or exactly as a quote gave them.
 * Pure: the facts, the quote and the clock are the caller's.
 */
import { type ConsignmentItem, declaredValuesOf, reckonedLandedCost } from "../customs/consignment.ts";
import type { LandedCost } from "../customs/landed-cost.ts";
import { type PartnerTax, partnerTaxOf } from "../customs/partner-tax.ts";
import type { DeclaredValue } from "../customs/schema.ts";
import { NO_PARTNER_TAX } from "../customs/schema.ts";
import type { LandedCostTable, TariffKind } from "../customs/tables.ts";
import { FRAMING_FIELDS, type FramingSpec } from "../framing/spec.ts";
import type { DutyTerms } from "../money/account-billing.ts";
import type { Currency } from "../money/currencies.ts";
import type { AppliedRate } from "../money/exchange.ts";
import { shippingTablesOf } from "../pricing/book.ts";
import { safeSum } from "../pricing/money.ts";
import { type ShippingMethod, type ShippingOption, zoneOf } from "../pricing/shipping.ts";
import { type Refusal, refusal } from "../problem.ts";
import type { PricingFacts } from "../quotes/facts.ts";
import {
	appliedRateOf,
	cartShippingOptions,
	costsWith,
	dutyTermsRefusal,
	notOffered,
	type PieceInput,
	type PricedPiece,
	pricePiece,
} from "../quotes/price-quote.ts";
import type { Quote } from "../quotes/schema.ts";

/** An item's dimensions and price, as stored in `order_items.priced` and shown on the item. */
export type ItemPrice = Pick<PricedPiece, "dimensions" | "united_inches" | "unit_price" | "line_total">;

/** An item's tariff line: its kind, and the code the order's landed cost names for it (null: no border, or an older order). */
export function itemCustoms(
	item: { frame: string | null },
	costs: OrderCosts | null,
): { kind: TariffKind; tariff_code: string | null } {
	const kind: TariffKind = item.frame === null ? "unframed_print" : "framed_print";
	return { kind, tariff_code: costs?.landed_cost?.tariff_codes?.[kind] ?? null };
}

/** A unit's declared value as the order keeps it: the partner's, or the unit's own price (`price`). */
export type ItemDeclaredValue = DeclaredValue & { source: "partner" | "price" };

/** The order's charges, as stored in `orders.costs` and shown as `costs`. */
export type OrderCosts = {
	currency: Currency;
	items: number;
	shipping: number;
	/** What the partner pays for the border (the landed cost's charged_to_partner); absent on older orders (0). */
	taxes_and_duties?: number;
	total: number;
	price_book_version: number;
	quote_id: string | null;
	/** Set on a claim's reprint, charged nothing; absent on every order charged as priced. */
	charge?: "reprint";
	/** Absent on orders priced before currencies. */
	exchange_rate?: AppliedRate;
	landed_cost?: LandedCost;
	partner_tax?: PartnerTax;
};

/** The costs as the order and its events show them: `charge` always said, and what older orders lack filled in. */
export function shownCosts(costs: OrderCosts | null) {
	if (costs === null) return null;
	return {
		...costs,
		taxes_and_duties: costs.taxes_and_duties ?? 0,
		charge: costs.charge ?? ("order" as const),
		exchange_rate: costs.exchange_rate ?? null,
		landed_cost: costs.landed_cost ?? null,
		partner_tax: costs.partner_tax ?? NO_PARTNER_TAX,
	};
}

/**
 * A reprint's costs: every amount 0, in the original's currency and price book. It crosses the same
 * border as the original, so it keeps the original's landed cost for its papers; the service bears it.
 */
export function reprintCosts(original: OrderCosts | null): OrderCosts {
	return {
		currency: original?.currency ?? "USD",
		items: 0,
		shipping: 0,
		taxes_and_duties: 0,
		total: 0,
		price_book_version: original?.price_book_version ?? 1,
		quote_id: null,
		charge: "reprint",
		...(original?.exchange_rate === undefined ? {} : { exchange_rate: original.exchange_rate }),
		...(original?.landed_cost === undefined ? {} : { landed_cost: original.landed_cost }),
		partner_tax: NO_PARTNER_TAX,
	};
}

/** An order's method and charges: `costs` null while some item cannot be priced (the order is then held). */
export type OrderPricing = {
	shippingMethod: ShippingMethod;
	/** The method the order gets when it names none: standard, or freight where nothing else takes it. */
	defaultMethod: ShippingMethod;
	costs: OrderCosts | null;
	items: (ItemPrice | null)[];
	/** Each item's declared unit value (null while an unpriced item was declared at nothing). */
	declared: (ItemDeclaredValue | null)[];
	/** The order's duty terms: as asked, the quote's, or the account's default. */
	terms: DutyTerms;
};

/** What an order abroad declares: its terms, the ship-to's region, and each item's value as the partner sent it. */
export type OrderBorder = { terms: DutyTerms; region: string | null; sent: readonly (DeclaredValue | null)[] };

/** What the partner declared of a kept value (null when the unit was declared at its price). */
export function sentDeclaredValue(value: ItemDeclaredValue | null): DeclaredValue | null {
	return value === null || value.source !== "partner" ? null : { amount: value.amount, currency: value.currency };
}

/** The declared values an order keeps: the partner's as sent, the rest at their unit price. */
function declaredOf(items: readonly ConsignmentItem[], currency: Currency, rates: Readonly<Record<Currency, number>>) {
	return declaredValuesOf(items, currency, rates).map(
		(value, index): ItemDeclaredValue => ({
			...value,
			source: items[index]?.declared === null ? "price" : "partner",
		}),
	);
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
	facts: PricingFacts,
	border: OrderBorder,
): { ok: true; pricing: OrderPricing } | Refusal {
	const priced = pieces.map((piece) => pricePiece(piece, facts));
	const complete = priced.flatMap((piece) => (piece.ok ? [piece] : []));
	const sentOnly = pieces.map((_, index): ItemDeclaredValue | null => {
		const sent = border.sent[index] ?? null;
		return sent === null ? null : { ...sent, source: "partner" };
	});
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
				declared: sentOnly,
				terms: border.terms,
			},
		};
	}
	const options = cartShippingOptions(
		complete.map((piece) => piece.parcel),
		country,
		facts.book,
		facts.money,
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
	const consignment = complete.map(
		(piece, index): ConsignmentItem => ({
			framed: piece.spec.frame !== null,
			quantity: pieces[index]?.quantity ?? 1,
			unitPrice: piece.unit_price.total,
			declared: border.sent[index] ?? null,
		}),
	);
	const reckoned = reckonedLandedCost(consignment, option.cost, {
		country,
		region: border.region,
		terms: border.terms,
		accountCurrency: facts.money.currency,
		rates: facts.money.rates,
		table: facts.table,
	});
	if (!reckoned.ok) return refusal("invalid_field", "items", reckoned.message);
	const landed = reckoned.landed;
	const refused = dutyTermsRefusal(landed, country);
	if (refused !== null) return refused;
	const { landed_cost: _landed, ...charged } = costsWith(itemsTotal, option.cost, landed);
	return {
		ok: true,
		pricing: {
			shippingMethod: method,
			defaultMethod,
			costs: {
				currency: facts.money.currency,
				items: itemsTotal,
				...charged,
				price_book_version: facts.book.version,
				quote_id: null,
				exchange_rate: appliedRateOf(facts.money),
				landed_cost: landed,
				partner_tax: partnerTaxOf(facts.billing, facts.table),
			},
			items: complete.map(itemPriceOf),
			declared: declaredOf(consignment, facts.money.currency, facts.money.rates),
			terms: border.terms,
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
	border: { terms: DutyTerms | null; region: string | null; sent: readonly (DeclaredValue | null)[] },
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
	if (quote.exchange_rate === null) {
		return refuse(`Quote ${quote.id} was made before quotes carried currencies and landed costs; ask for a new quote.`);
	}
	if (border.terms !== null && border.terms !== quote.duty_terms) {
		return refuse(`Quote ${quote.id} is for duty terms ${quote.duty_terms}, not ${border.terms}.`);
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
	for (const [index, sent] of border.sent.entries()) {
		const quoted = quote.items[index]?.declared_value;
		if (sent !== null && (quoted === undefined || quoted.amount !== sent.amount || quoted.currency !== sent.currency)) {
			return refuse(
				`items[${index}].declared_value is ${sent.amount} ${sent.currency} here but ${quoted?.amount} ${quoted?.currency} in quote ${quote.id}.`,
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
	const totals = quote.totals.by_method[method];
	if (totals?.landed_cost === null || totals === undefined) {
		return refuse(`Quote ${quote.id} has no landed cost for ${method}; ask for a new quote.`);
	}
	// The landed cost can turn on the region (Canada's provinces): a quote applies to its own.
	if (totals.landed_cost.coverage === "estimated" && (quote.ship_to.state ?? null) !== border.region) {
		return refuse(
			`Quote ${quote.id} is for ${quote.ship_to.state ?? "no region"} in ${country}, not ${border.region ?? "no region"}: its taxes may differ; ask for a new quote.`,
		);
	}
	return {
		ok: true,
		pricing: {
			shippingMethod: method,
			defaultMethod,
			costs: {
				currency: quote.currency,
				items: quote.totals.items,
				shipping: totals.shipping,
				taxes_and_duties: totals.taxes_and_duties,
				total: totals.total,
				price_book_version: quote.price_book_version,
				quote_id: quote.id,
				exchange_rate: quote.exchange_rate,
				landed_cost: totals.landed_cost,
				partner_tax: quote.partner_tax,
			},
			items: quote.items.map((item) => ({
				dimensions: item.dimensions,
				united_inches: item.united_inches,
				unit_price: item.unit_price,
				line_total: item.line_total,
			})),
			declared: quote.items.map((item, index) => ({
				...item.declared_value,
				source: (border.sent[index] ?? null) === null ? "price" : "partner",
			})),
			terms: quote.duty_terms,
		},
	};
}

/**
 * An order's landed cost again for a new destination or shipping (a partner's change): the same items,
 * declared values and terms, under the table and rates that priced the order. Null for an order priced
 * before landed costs (it keeps none).
 */
export function landedCostAgain(
	order: { costs: OrderCosts; duty_terms: DutyTerms | null },
	items: readonly ItemRowForBorder[],
	shipTo: { country: string; state?: string | undefined },
	shipping: number,
	facts: { table: LandedCostTable; rates: Readonly<Record<Currency, number>> },
): { ok: true; landed: LandedCost | null } | Refusal {
	const landedBefore = order.costs.landed_cost;
	if (landedBefore === undefined) return { ok: true, landed: null };
	const consignment = items.map(
		(item): ConsignmentItem => ({
			framed: item.frame !== null,
			quantity: item.quantity,
			unitPrice: item.priced?.unit_price.total ?? 0,
			declared: sentDeclaredValue(item.declared_value),
		}),
	);
	const reckoned = reckonedLandedCost(consignment, shipping, {
		country: shipTo.country,
		region: shipTo.state ?? null,
		terms: order.duty_terms ?? landedBefore.terms,
		accountCurrency: order.costs.currency,
		rates: facts.rates,
		table: facts.table,
	});
	if (!reckoned.ok) return refusal("invalid_field", "ship_to", reckoned.message);
	const landed = reckoned.landed;
	const refused = dutyTermsRefusal(landed, shipTo.country);
	return refused ?? { ok: true, landed };
}

/** What landedCostAgain reads of an item. */
type ItemRowForBorder = {
	frame: string | null;
	quantity: number;
	priced: ItemPrice | null;
	declared_value: ItemDeclaredValue | null;
};
