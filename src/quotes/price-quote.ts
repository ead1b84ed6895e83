/**
 * Pricing a cart: each item's complete framing specification,
 * dimensions and unit price from the price book, the packages and shipping options of the whole
 * cart, and the totals per method. Pure: the catalog, the book, the discount and the files are
 * read by the caller. A cart that cannot be priced comes back as the field at fault and why.
 */

import type { Catalog } from "../catalog/schema.ts";
import type { ErrorCode } from "../error-catalog.ts";
import { innerSize, mouldingCut, pieceDimensions, toSixteenths } from "../framing/dimensions.ts";
import { completeFraming, type FramingInput, type FramingSpec, pieceSpecOf } from "../framing/spec.ts";
import { type PriceBook, pieceRatesOf, shippingTablesOf } from "../pricing/book.ts";
import { safeProduct, safeSum } from "../pricing/money.ts";
import {
	type FlatParcelItem,
	type FramedParcelItem,
	type ShippingOption,
	shippingOptions,
} from "../pricing/shipping.ts";
import { unitPrice } from "../pricing/unit-price.ts";
import { effectiveDpi as effectiveDpiOf, resolutionVerdict } from "../print-files/resolution.ts";
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
	/** The request's print files, looked up in the caller's account and mode (absent: not found). */
	files: ReadonlyMap<string, PrintFileRow>;
};

/** A quote without its id and times, or the field that stops it being priced. */
export type QuoteOutcome = { ok: true; quote: Omit<Quote, "id" | "created_at" | "expires_at"> } | Refusal;

/** What stops a quote: the code of the rule, the field at fault and why. */
type Refusal = { ok: false; code: ErrorCode; field: string; message: string };

function refuse(code: ErrorCode, field: string, message: string): Refusal {
	return { ok: false, code, field, message };
}

/** A piece to price: its size, how many, and its framing fields as sent. */
export type PieceInput = FramingInput & { width_in: number; height_in: number; quantity: number };

/** What pricing one piece reads: the catalog, the mouldings' weights, the book and the discount. */
export type PieceFacts = Omit<QuoteFacts, "files">;

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
	const price = unitPrice(piece, rates);
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

/** The shipping options of a cart's parcels to `country` under `book`, cheapest first. */
export function cartShippingOptions(
	parcels: readonly (FramedParcelItem | FlatParcelItem)[],
	country: string,
	book: PriceBook,
): ShippingOption[] {
	return shippingOptions(parcels, country, shippingTablesOf(book));
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
			effectiveDpi =
				file.width_px === null || file.height_px === null
					? null
					: effectiveDpiOf(file.width_px, file.height_px, item.width_in, item.height_in, priced.spec.fit);
		}
		items.push({
			width_in: item.width_in,
			height_in: item.height_in,
			quantity: item.quantity,
			...priced.spec,
			print_file_id: item.print_file_id ?? null,
			effective_dpi: effectiveDpi === null ? null : Math.round(effectiveDpi * 10) / 10,
			resolution: effectiveDpi === null ? null : resolutionVerdict(effectiveDpi),
			dimensions: priced.dimensions,
			united_inches: priced.united_inches,
			unit_price: priced.unit_price,
			line_total: priced.line_total,
		});
		parcels.push(priced.parcel);
	}
	const options = cartShippingOptions(parcels, input.ship_to.country, facts.book);
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
	return {
		ok: true,
		quote: {
			currency: "USD",
			price_book_version: facts.book.version,
			ship_to: input.ship_to,
			shipping_method: input.shipping_method ?? null,
			items,
			shipping_options: options,
			totals: {
				items: itemsTotal,
				by_method: Object.fromEntries(
					options.map((option) => [
						option.method,
						{ shipping: option.cost, total: safeSum([itemsTotal, option.cost], "total") },
					]),
				),
			},
		},
	};
}

/** Why `method` cannot be chosen: the methods that can. */
export function notOffered(method: string, country: string, options: readonly ShippingOption[]): string {
	return `${method} is not offered for these items to ${country} (offered: ${options.map((option) => option.method).join(", ")})`;
}
