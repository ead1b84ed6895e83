/**
 * Pricing a cart (product model, section 6): each item's complete framing specification,
 * dimensions and unit price from the price book, the packages and shipping options of the whole
 * cart, and the totals per method. Pure: the catalog, the book, the discount and the files are
 * read by the caller. A cart that cannot be priced comes back as the field at fault and why.
 */
import type { Catalog } from "../catalog/schema.ts";
import { innerSize, mouldingCut, type PieceSpec, pieceDimensions, toSixteenths } from "../framing/dimensions.ts";
import { completeFraming } from "../framing/spec.ts";
import { type PriceBook, pieceRatesOf, shippingTablesOf } from "../pricing/book.ts";
import { type FlatParcelItem, type FramedParcelItem, shippingOptions } from "../pricing/shipping.ts";
import { unitPrice } from "../pricing/unit-price.ts";
import { effectiveDpi as effectiveDpiOf, resolutionVerdict } from "../print-files/resolution.ts";
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
export type QuoteOutcome =
	| { ok: true; quote: Omit<Quote, "id" | "created_at" | "expires_at"> }
	| { ok: false; field: string; message: string };

type Refusal = { ok: false; field: string; message: string };

function refuse(field: string, message: string): Refusal {
	return { ok: false, field, message };
}

/** Prices the cart `input` with `facts`. */
export function priceQuote(input: CreateQuoteInput, facts: QuoteFacts): QuoteOutcome {
	const { catalog, book } = facts;
	const frames = new Map(catalog.frames.map((frame) => [frame.slug, frame]));
	const mats = new Set(catalog.mats.map((mat) => mat.slug));
	const glazings = new Set(catalog.glazings.map((glazing) => glazing.slug));
	const papers = new Set(catalog.papers.map((paper) => paper.slug));
	const items: Quote["items"] = [];
	const parcels: (FramedParcelItem | FlatParcelItem)[] = [];
	for (const [index, item] of input.items.entries()) {
		const at = (field: string) => `items[${index}].${field}`;
		for (const [field, size] of [
			["width_in", item.width_in],
			["height_in", item.height_in],
		] as const) {
			if (!Number.isInteger(size) || size < catalog.sizes.min_in || size > catalog.sizes.max_in) {
				return refuse(
					at(field),
					`must be a whole number of inches from ${catalog.sizes.min_in} to ${catalog.sizes.max_in}`,
				);
			}
		}
		const spec = completeFraming(item);
		const frame = spec.frame === null ? null : frames.get(spec.frame);
		if (frame === undefined) return refuse(at("frame"), `"${spec.frame}" is not a frame in the catalog`);
		for (const [field, slug] of [
			["mat", spec.mat],
			["inner_mat", spec.inner_mat],
		] as const) {
			if (slug !== null && !mats.has(slug)) return refuse(at(field), `"${slug}" is not a mat in the catalog`);
		}
		if (!glazings.has(spec.glazing)) return refuse(at("glazing"), `"${spec.glazing}" is not a glazing in the catalog`);
		if (!papers.has(spec.paper)) return refuse(at("paper"), `"${spec.paper}" is not a paper in the catalog`);
		const piece: PieceSpec = {
			widthIn: item.width_in,
			heightIn: item.height_in,
			frameWidthIn: frame?.width_in ?? null,
			mat:
				spec.mat === null
					? null
					: {
							borderIn: spec.mat_border_in ?? 0,
							bottomBorderIn: spec.mat_bottom_border_in ?? 0,
							innerRevealIn: spec.inner_mat_reveal_in,
						},
		};
		const { united_inches: unitedInches, ...dimensions } = pieceDimensions(piece);
		if (frame !== null && unitedInches > frame.max_united_inches) {
			return refuse(
				at("frame"),
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
		if (rates === null) return refuse(`items[${index}]`, `price book ${book.version} has no rate for this piece`);
		const price = unitPrice(piece, rates);
		let effectiveDpi: number | null = null;
		if (item.print_file_id !== undefined) {
			const file = facts.files.get(item.print_file_id);
			if (file === undefined)
				return refuse(at("print_file_id"), `No print file ${item.print_file_id} in this account.`);
			if (file.status !== "ready") {
				return refuse(at("print_file_id"), `Print file ${item.print_file_id} is ${file.status}, not a ready image.`);
			}
			effectiveDpi =
				file.width_px === null || file.height_px === null
					? null
					: effectiveDpiOf(file.width_px, file.height_px, item.width_in, item.height_in, spec.fit);
		}
		items.push({
			width_in: item.width_in,
			height_in: item.height_in,
			quantity: item.quantity,
			...spec,
			print_file_id: item.print_file_id ?? null,
			effective_dpi: effectiveDpi === null ? null : Math.round(effectiveDpi * 10) / 10,
			resolution: effectiveDpi === null ? null : resolutionVerdict(effectiveDpi),
			dimensions,
			united_inches: unitedInches,
			unit_price: price,
			line_total: price.total * item.quantity,
		});
		const print = { width: toSixteenths(item.width_in), height: toSixteenths(item.height_in) };
		const cut = mouldingCut(piece);
		if (frame === null || cut === null) {
			parcels.push({ kind: "flat", print, quantity: item.quantity });
			continue;
		}
		const weight = facts.mouldingWeights.get(frame.slug);
		if (weight === undefined) return refuse(at("frame"), `${frame.slug} has no weight in the catalog`);
		parcels.push({
			kind: "framed",
			outside: { width: toSixteenths(dimensions.outside.width_in), height: toSixteenths(dimensions.outside.height_in) },
			inner: innerSize(piece),
			print,
			footage: cut.footage,
			frameWeightPerFoot: weight,
			glazed: spec.glazing !== "none",
			matLayers,
			quantity: item.quantity,
		});
	}
	const options = shippingOptions(parcels, input.ship_to.country, shippingTablesOf(book));
	if (input.shipping_method !== undefined && !options.some((option) => option.method === input.shipping_method)) {
		return refuse(
			"shipping_method",
			`${input.shipping_method} is not offered for these items to ${input.ship_to.country} (offered: ${options.map((option) => option.method).join(", ")})`,
		);
	}
	const itemsTotal = items.reduce((sum, item) => sum + item.line_total, 0);
	return {
		ok: true,
		quote: {
			currency: "USD",
			price_book_version: book.version,
			shipping_method: input.shipping_method ?? null,
			items,
			shipping_options: options,
			totals: {
				items: itemsTotal,
				by_method: Object.fromEntries(
					options.map((option) => [option.method, { shipping: option.cost, total: itemsTotal + option.cost }]),
				),
			},
		},
	};
}
