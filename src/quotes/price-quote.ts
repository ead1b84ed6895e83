/**
 * Pricing a cart: each item's complete framing specification,
 * dimensions and unit price from the price book, the packages and shipping options of the whole
 * cart, and the totals per method. Pure: the catalog, the book, the discount and the files are
 * read by the caller. A cart that cannot be priced comes back as the field at fault and why.
 */

import type { Catalog } from "../catalog/schema.ts";
import { type ConsignmentItem, declaredValuesOf, itemCustomsOf, reckonedLandedCost } from "../customs/consignment.ts";
import type { LandedCost } from "../customs/landed-cost.ts";
import { type PartnerTax, partnerTaxOf } from "../customs/partner-tax.ts";
import type { LandedCostTable } from "../customs/tables.ts";
import type { ErrorCode } from "../error-catalog.ts";
import { innerSize, mouldingCut, pieceDimensions, toSixteenths } from "../framing/dimensions.ts";
import { completeFraming, type FramingInput, type FramingSpec, pieceSpecOf } from "../framing/spec.ts";
import type { AccountBilling } from "../money/account-billing.ts";
import type { Currency } from "../money/currencies.ts";
import { fromUsdCents } from "../money/exchange.ts";
import { type PriceBook, pieceRatesOf, shippingTablesOf } from "../pricing/book.ts";
import { safeProduct, safeSum } from "../pricing/money.ts";
import {
	type FlatParcelItem,
	type FramedParcelItem,
	type ShippingOption,
	shippingOptions,
} from "../pricing/shipping.ts";
import { type UnitPrice, unitPrice } from "../pricing/unit-price.ts";
import { fileWarnings, type PrintWarning, printFit } from "../print-files/print-warnings.ts";
import { resolutionVerdict } from "../print-files/resolution.ts";
import { expiredFileRefusal } from "../print-files/retention.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { CreateQuoteInput, Quote } from "./schema.ts";

/** What pricing reads besides the request. */
export type QuoteFacts = {
	catalog: Catalog;
	/** Mouldings' weight per foot, in ten-thousandths of a pound. */
	mouldingWeights: ReadonlyMap<string, number>;
	book: PriceBook;
	discountPercent: number;
	/** The currency amounts are answered in, and the rates converting the book's US cents into it. */
	money: Money;
	/** The account's billing (its default duty terms and tax details) and the landed-cost table in force. */
	billing: AccountBilling;
	table: LandedCostTable;
	/** The request's print files, looked up in the caller's account and mode (absent: not found). */
	files: ReadonlyMap<string, PrintFileRow>;
};

/** The currency of a quote or an order, and the sheet converting the price book's US cents into it. */
export type Money = { currency: Currency; rates: Readonly<Record<Currency, number>>; sheetVersion: number };

/** A quote without its id and times, or the field that stops it being priced. */
export type QuoteOutcome = { ok: true; quote: Omit<Quote, "id" | "created_at" | "expires_at"> } | Refusal;

/** What stops a quote: the code of the rule, the field at fault and why. */
export type Refusal = { ok: false; code: ErrorCode; field: string; message: string };

function refuse(code: ErrorCode, field: string, message: string): Refusal {
	return { ok: false, code, field, message };
}

/** A piece to price: its size, how many, and its framing fields as sent. */
export type PieceInput = FramingInput & { width_in: number; height_in: number; quantity: number };

/** What pricing one piece reads: the catalog, the mouldings' weights, the book, the discount and the currency. */
export type PieceFacts = Omit<QuoteFacts, "files" | "billing" | "table">;

/** A unit price in the book's US cents, in `money`'s currency: each component converted once; the total their sum less the discount. */
export function unitPriceIn(price: UnitPrice, money: Money): UnitPrice {
	const to = (cents: number) => fromUsdCents(cents, money.currency, { per_usd_micros: money.rates });
	const converted = {
		print: to(price.print),
		frame: to(price.frame),
		mat: to(price.mat),
		glazing: to(price.glazing),
		backing: to(price.backing),
		assembly: to(price.assembly),
		discount: to(price.discount),
	};
	const parts = [
		converted.print,
		converted.frame,
		converted.mat,
		converted.glazing,
		converted.backing,
		converted.assembly,
	];
	return { ...converted, total: safeSum(parts, "unit price") - converted.discount };
}

/** A priced piece: its complete specification, dimensions and price, and the parcel it ships as. */
export type PricedPiece = {
	spec: FramingSpec;
	dimensions: Quote["items"][number]["dimensions"];
	united_inches: number;
	unit_price: Quote["items"][number]["unit_price"];
	line_total: number;
	parcel: FramedParcelItem | FlatParcelItem;
};

/** A piece that cannot be priced: the field at fault (relative to the item) and why. */
type PieceRefusal = Refusal;

/**
 * Prices one piece: its size must be offered, its parts in the catalog, the piece within what its
 * moulding carries, and the book must have a rate for it. Fields in a refusal are the item's own
 * (`frame`, `width_in`…), or "" for the piece as a whole.
 */
export function pricePiece(item: PieceInput, facts: PieceFacts): ({ ok: true } & PricedPiece) | PieceRefusal {
	const { catalog, book } = facts;
	for (const [field, size] of [
		["width_in", item.width_in],
		["height_in", item.height_in],
	] as const) {
		if (!Number.isInteger(size) || size < catalog.sizes.min_in || size > catalog.sizes.max_in) {
			return refuse(
				"size_not_offered",
				field,
				`must be a whole number of inches from ${catalog.sizes.min_in} to ${catalog.sizes.max_in}`,
			);
		}
	}
	const spec = completeFraming(item);
	const frame = spec.frame === null ? null : catalog.frames.find((candidate) => candidate.slug === spec.frame);
	if (frame === undefined) return refuse("frame_not_found", "frame", `"${spec.frame}" is not a frame in the catalog`);
	for (const [field, slug] of [
		["mat", spec.mat],
		["inner_mat", spec.inner_mat],
	] as const) {
		if (slug !== null && !catalog.mats.some((mat) => mat.slug === slug)) {
			return refuse("mat_not_found", field, `"${slug}" is not a mat in the catalog`);
		}
	}
	if (!catalog.glazings.some((glazing) => glazing.slug === spec.glazing)) {
		return refuse("glazing_not_found", "glazing", `"${spec.glazing}" is not a glazing in the catalog`);
	}
	if (!catalog.papers.some((paper) => paper.slug === spec.paper)) {
		return refuse("paper_not_found", "paper", `"${spec.paper}" is not a paper in the catalog`);
	}
	const piece = pieceSpecOf(item.width_in, item.height_in, spec, frame?.width_in ?? null);
	const { united_inches: unitedInches, ...dimensions } = pieceDimensions(piece);
	if (frame !== null && unitedInches > frame.max_united_inches) {
		return refuse(
			"frame_too_small_for_size",
			"frame",
			`${frame.slug} carries at most ${frame.max_united_inches} united inches; this piece is ${unitedInches}`,
		);
	}
	const matLayers = spec.mat === null ? 0 : spec.inner_mat === null ? 1 : 2;
	const rates = pieceRatesOf(book, {
		paper: spec.paper,
		frame: spec.frame,
		glazing: spec.glazing,
		matLayers,
		discountPercent: facts.discountPercent,
	});
	if (rates === null) return refuse("piece_not_priced", "", `price book ${book.version} has no rate for this piece`);
	const price = unitPriceIn(unitPrice(piece, rates), facts.money);
	const print = { width: toSixteenths(item.width_in), height: toSixteenths(item.height_in) };
	const cut = mouldingCut(piece);
	let parcel: FramedParcelItem | FlatParcelItem;
	if (frame === null || cut === null) {
		parcel = { kind: "flat", print, quantity: item.quantity };
	} else {
		const weight = facts.mouldingWeights.get(frame.slug);
		if (weight === undefined) return refuse("piece_not_priced", "frame", `${frame.slug} has no weight in the catalog`);
		parcel = {
			kind: "framed",
			outside: { width: toSixteenths(dimensions.outside.width_in), height: toSixteenths(dimensions.outside.height_in) },
			inner: innerSize(piece),
			print,
			footage: cut.footage,
			frameWeightPerFoot: weight,
			glazed: spec.glazing !== "none",
			matLayers,
			quantity: item.quantity,
		};
	}
	return {
		ok: true,
		spec,
		dimensions,
		united_inches: unitedInches,
		unit_price: price,
		line_total: safeProduct(price.total, item.quantity, "line total"),
		parcel,
	};
}

/** The shipping options of a cart's parcels to `country` under `book`, cheapest first, each cost in `money`'s currency. */
export function cartShippingOptions(
	parcels: readonly (FramedParcelItem | FlatParcelItem)[],
	country: string,
	book: PriceBook,
	money: Money,
): ShippingOption[] {
	return shippingOptions(parcels, country, shippingTablesOf(book)).map((option) => ({
		...option,
		cost: fromUsdCents(option.cost, money.currency, { per_usd_micros: money.rates }),
	}));
}

/** Prices the cart `input` with `facts`. */
export function priceQuote(input: CreateQuoteInput, facts: QuoteFacts): QuoteOutcome {
	const items: Quote["items"] = [];
	const parcels: (FramedParcelItem | FlatParcelItem)[] = [];
	for (const [index, item] of input.items.entries()) {
		const priced = pricePiece(item, facts);
		if (!priced.ok)
			return refuse(
				priced.code,
				priced.field === "" ? `items[${index}]` : `items[${index}].${priced.field}`,
				priced.message,
			);
		let effectiveDpi: number | null = null;
		const warnings: PrintWarning[] = [];
		if (item.print_file_id !== undefined) {
			const at = `items[${index}].print_file_id`;
			const file = facts.files.get(item.print_file_id);
			if (file === undefined)
				return refuse("unknown_print_file", at, `No print file ${item.print_file_id} in this account.`);
			const expired = expiredFileRefusal(file, at);
			if (expired !== null) return refuse("print_file_expired", at, expired.message);
			if (file.status !== "ready") {
				const code = file.status === "invalid" ? "file_unreadable" : "print_file_not_uploaded";
				return refuse(code, at, `Print file ${item.print_file_id} is ${file.status}, not a ready image.`);
			}
			if (file.width_px !== null && file.height_px !== null) {
				const fit = printFit(file.width_px, file.height_px, {
					...priced.spec,
					width_in: item.width_in,
					height_in: item.height_in,
				});
				effectiveDpi = fit.effectiveDpi;
				warnings.push(...fit.warnings, ...fileWarnings(file));
			}
		}
		items.push({
			width_in: item.width_in,
			height_in: item.height_in,
			quantity: item.quantity,
			...priced.spec,
			print_file_id: item.print_file_id ?? null,
			effective_dpi: effectiveDpi === null ? null : Math.round(effectiveDpi * 10) / 10,
			resolution: effectiveDpi === null ? null : resolutionVerdict(effectiveDpi),
			warnings,
			dimensions: priced.dimensions,
			united_inches: priced.united_inches,
			unit_price: priced.unit_price,
			line_total: priced.line_total,
			declared_value: { amount: 0, currency: facts.money.currency },
			customs: itemCustomsOf(priced.spec.frame !== null, input.ship_to.country, facts.table),
		});
		parcels.push(priced.parcel);
	}
	const options = cartShippingOptions(parcels, input.ship_to.country, facts.book, facts.money);
	if (input.shipping_method !== undefined && !options.some((option) => option.method === input.shipping_method)) {
		return refuse(
			"shipping_method_not_offered",
			"shipping_method",
			notOffered(input.shipping_method, input.ship_to.country, options),
		);
	}
	const itemsTotal = safeSum(
		items.map((item) => item.line_total),
		"items total",
	);
	const terms = input.duty_terms ?? facts.billing.duty_terms;
	const consignment: ConsignmentItem[] = items.map((item, index) => ({
		framed: item.frame !== null,
		quantity: item.quantity,
		unitPrice: item.unit_price.total,
		declared: input.items[index]?.declared_value ?? null,
	}));
	const declared = declaredValuesOf(consignment, facts.money.currency, facts.money.rates);
	const border = {
		country: input.ship_to.country,
		region: input.ship_to.state ?? null,
		terms,
		accountCurrency: facts.money.currency,
		rates: facts.money.rates,
		table: facts.table,
	};
	const byMethod: Quote["totals"]["by_method"] = {};
	for (const option of options) {
		const reckoned = reckonedLandedCost(consignment, option.cost, border);
		if (!reckoned.ok) return refuse("invalid_field", "items", reckoned.message);
		const landed = reckoned.landed;
		const refused = dutyTermsRefusal(landed, input.ship_to.country);
		if (refused !== null) return refused;
		byMethod[option.method] = costsWith(itemsTotal, option.cost, landed);
	}
	return {
		ok: true,
		quote: {
			currency: facts.money.currency,
			exchange_rate: appliedRateOf(facts.money),
			duty_terms: terms,
			partner_tax: partnerTaxOf(facts.billing, facts.table),
			price_book_version: facts.book.version,
			ship_to: input.ship_to,
			shipping_method: input.shipping_method ?? null,
			items: items.map((item, index) => ({ ...item, declared_value: declared[index] ?? item.declared_value })),
			shipping_options: options,
			totals: { items: itemsTotal, by_method: byMethod },
		},
	};
}

/** The sheet and rate `money` converts at. */
export function appliedRateOf(money: Money): { sheet_version: number; per_usd_micros: number } {
	return { sheet_version: money.sheetVersion, per_usd_micros: money.rates[money.currency] };
}

/** Items, shipping and the border's charges to the partner, with their total. */
export function costsWith(
	items: number,
	shipping: number,
	landed: LandedCost,
): { shipping: number; taxes_and_duties: number; total: number; landed_cost: LandedCost } {
	const taxes = landed.charged_to_partner;
	return { shipping, taxes_and_duties: taxes, total: safeSum([items, shipping, taxes], "total"), landed_cost: landed };
}

/** Duty paid where the table has no rules: the service cannot pay what it cannot reckon. */
export function dutyTermsRefusal(landed: LandedCost, country: string): Refusal | null {
	if (landed.terms !== "ddp" || landed.coverage !== "not_covered") return null;
	return refuse(
		"duty_terms_not_offered",
		"duty_terms",
		`delivered duty paid is not offered to ${country}: the landed-cost table ${landed.table_version} has no rules for it (send "dap")`,
	);
}

/** The partner tax an order or quote keeps (re-exported for the orders' pricing). */
export type { PartnerTax };

/** Why `method` cannot be chosen: the methods that can. */
export function notOffered(method: string, country: string, options: readonly ShippingOption[]): string {
	return `${method} is not offered for these items to ${country} (offered: ${options.map((option) => option.method).join(", ")})`;
}
