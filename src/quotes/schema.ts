import { z } from "@hono/zod-openapi";
import { ShipToSchema } from "../addresses/schema.ts";
import {
	AppliedRateSchema,
	DeclaredValueSchema,
	DutyTermsSchema,
	ItemCustomsSchema,
	LandedCostSchema,
	NO_PARTNER_TAX,
	PartnerTaxSchema,
	refineDeclaredCurrencies,
} from "../customs/schema.ts";
import { FramingFields, refineFraming } from "../framing/spec.ts";
import { dateTime } from "../http/date-time.ts";
import { CurrencySchema } from "../money/currencies.ts";
import { SHIPPING_METHODS } from "../pricing/shipping.ts";
import { PRINT_WARNINGS } from "../print-files/print-warnings.ts";

const inches = z
	.number()
	.positive("must be greater than 0")
	.max(1000, "must be at most 1000 inches")
	.openapi({ description: "Inches: a whole number within the catalog's sizes.", example: 16 });

/** An item to quote: an order's item, with the file optional. */
export const QuoteItemInputSchema = z
	.strictObject({
		print_file_id: z.string().min(1).max(64).optional().openapi({
			description: "An uploaded file: the quote adds its effective DPI and verdict at this size.",
			example: "pf_7cQm2x",
		}),
		width_in: inches,
		height_in: inches,
		quantity: z.number().int("must be a whole number").min(1).max(100).default(1).openapi({ example: 1 }),
		declared_value: DeclaredValueSchema.optional(),
		...FramingFields,
	})
	.superRefine(refineFraming)
	.openapi("QuoteItemInput");

/** `POST /v1/quotes`: where the items go, and the items. */
export const CreateQuoteBody = z
	.strictObject({
		ship_to: ShipToSchema,
		items: z.array(QuoteItemInputSchema).min(1, "must hold at least 1 item").max(50, "must hold at most 50 items"),
		shipping_method: z.enum(SHIPPING_METHODS).optional().openapi({
			description:
				"The method the partner means to order with; the quote still lists every option. An order against this quote that names no shipping_method ships with this one.",
			example: "standard",
		}),
		duty_terms: DutyTermsSchema.optional().openapi({
			description: "Who pays the border's charges for a delivery abroad; the account's default when left out.",
		}),
	})
	.superRefine(refineDeclaredCurrencies)
	.openapi("CreateQuoteRequest");
/** A quote request as parsed. */
export type CreateQuoteInput = z.infer<typeof CreateQuoteBody>;

const SizeSchema = z.object({ width_in: z.number(), height_in: z.number() });
/** Minor units of the quote's or order's currency (cents; yen for JPY). */
export const CentsSchema = z
	.number()
	.int()
	.openapi({ description: "Minor units of the currency (cents; whole yen for JPY)." });

/** A piece's dimensions in inches: absent parts are null. */
export const DimensionsSchema = z
	.object({
		print: SizeSchema,
		mat_opening: SizeSchema.nullable(),
		top_mat_opening: SizeSchema.nullable(),
		mat_outer: SizeSchema.nullable(),
		glazing: SizeSchema.nullable(),
		outside: SizeSchema,
	})
	.openapi("Dimensions", {
		// The example item's, as a quote answers it: 16 × 20 in under a 2.5 in mat (3 in at the bottom) and a double mat.
		example: {
			print: { width_in: 16, height_in: 20 },
			mat_opening: { width_in: 15.75, height_in: 19.75 },
			top_mat_opening: { width_in: 16.25, height_in: 20.25 },
			mat_outer: { width_in: 21, height_in: 25.5 },
			glazing: { width_in: 21, height_in: 25.5 },
			outside: { width_in: 23.5, height_in: 28 },
		},
		description:
			"The print, the mat openings (the inner one and, for a double mat, the top one), the mat's outer size (the glazing's and the backing's too), and the outside of the finished piece.",
	});

/** One unit's price in the currency's minor units, by component, after the account's discount. */
export const UnitPriceSchema = z
	.object({
		print: CentsSchema,
		frame: CentsSchema,
		mat: CentsSchema,
		glazing: CentsSchema,
		backing: CentsSchema,
		assembly: CentsSchema,
		discount: CentsSchema,
		total: CentsSchema,
	})
	.openapi("UnitPrice", {
		example: {
			print: 1120,
			frame: 7742,
			mat: 1800,
			glazing: 3213,
			backing: 214,
			assembly: 800,
			discount: 0,
			total: 14889,
		},
		description:
			"One unit's price in minor units of the currency: print, frame, mat, glazing, backing, assembly, the account discount (subtracted) and the total (the others' sum less the discount; each converted once from the price book's US cents).",
	});

const QuoteItemSchema = z.object({
	width_in: z.number().openapi({ example: 16 }),
	height_in: z.number().openapi({ example: 20 }),
	quantity: z.number().int().openapi({ example: 1 }),
	frame: z.string().nullable().openapi({ example: "walnut-flat-125" }),
	mat: z.string().nullable().openapi({ example: "museum-rag-white-4ply" }),
	mat_border_in: z.number().nullable().openapi({ example: 2.5 }),
	mat_bottom_border_in: z.number().nullable().openapi({ example: 3 }),
	inner_mat: z.string().nullable().openapi({ example: "black-core-black" }),
	inner_mat_reveal_in: z.number().nullable().openapi({ example: 0.25 }),
	glazing: z.string().openapi({ example: "museum-acrylic" }),
	paper: z.string().openapi({ example: "cotton-rag" }),
	fit: z.enum(["fill", "fit"]),
	print_file_id: z.string().nullable().openapi({ example: "pf_7cQm2x" }),
	effective_dpi: z.number().nullable().openapi({ example: 300 }),
	resolution: z.enum(["ok", "warn", "reject"]).nullable(),
	warnings: z
		.array(z.enum(PRINT_WARNINGS))
		.default([])
		.openapi({
			description:
				"With a print file: what an order's item would carry (the error catalog's warnings), from how the image meets this size and framing and from the file's colour and pixels. Accepted, but worth a look.",
			example: ["image_cropped"],
		}),
	dimensions: DimensionsSchema,
	united_inches: z.number().openapi({ example: 46.5 }),
	unit_price: UnitPriceSchema,
	line_total: CentsSchema.openapi({ example: 14889 }),
	declared_value: DeclaredValueSchema,
	customs: ItemCustomsSchema,
});

/** One package of a shipping option. */
export const PackageSchema = z
	.object({
		length_in: z.number(),
		width_in: z.number(),
		depth_in: z.number(),
		weight_lb: z.number(),
		billable_weight_lb: z.number().int(),
		oversize: z.boolean(),
		length_plus_girth_in: z.number(),
	})
	.openapi({
		example: {
			length_in: 32,
			width_in: 27.5,
			depth_in: 4,
			weight_lb: 10.27,
			billable_weight_lb: 26,
			oversize: false,
			length_plus_girth_in: 95,
		},
	});

/** A shipping option: its method, its packages (one per framed unit, one for the prints), cost and delivery. */
export const ShippingOptionSchema = z.object({
	method: z.enum(SHIPPING_METHODS),
	packages: z.array(PackageSchema),
	cost: CentsSchema.openapi({ example: 3110 }),
	delivery_days: z.object({ min: z.number().int(), max: z.number().int() }).openapi({ example: { min: 6, max: 8 } }),
});

/** A quote: every item's price and dimensions, the shipping options, and the totals per method. */
export const QuoteSchema = z
	.object({
		id: z.string().openapi({ example: "quo_4Zq8" }),
		created_at: dateTime(),
		expires_at: dateTime().openapi({ description: "48 hours after creation." }),
		currency: CurrencySchema.openapi({ description: "The account's billing currency: every amount is in it." }),
		exchange_rate: AppliedRateSchema.nullable().openapi({
			description: "The sheet the price book's US cents were converted at; null for quotes made before currencies.",
		}),
		duty_terms: DutyTermsSchema,
		partner_tax: PartnerTaxSchema.default(NO_PARTNER_TAX),
		price_book_version: z.number().int().openapi({ example: 1 }),
		ship_to: z.union([ShipToSchema, z.null()]).openapi({
			description:
				"Where the quote ships to. An order against the quote must go to the same country. Null only for quotes made before quotes kept it (they cannot be ordered against).",
		}),
		shipping_method: z.enum(SHIPPING_METHODS).nullable(),
		items: z.array(QuoteItemSchema),
		shipping_options: z.array(ShippingOptionSchema),
		totals: z
			.object({
				items: CentsSchema,
				by_method: z.record(
					z.string(),
					z.object({
						shipping: CentsSchema,
						taxes_and_duties: CentsSchema.openapi({
							description: "What the partner is charged for the border: the landed cost's charged_to_partner.",
						}),
						total: CentsSchema.openapi({ description: "items + shipping + taxes_and_duties." }),
						landed_cost: LandedCostSchema.nullable().openapi({
							description: "What crossing the border adds with this method; null for quotes made before landed costs.",
						}),
					}),
				),
			})
			.openapi({
				example: {
					items: 14889,
					by_method: {
						budget: { shipping: 2390, taxes_and_duties: 0, total: 17279, landed_cost: null },
						standard: { shipping: 3110, taxes_and_duties: 0, total: 17999, landed_cost: null },
						express: { shipping: 7340, taxes_and_duties: 0, total: 22229, landed_cost: null },
						freight: { shipping: 18900, taxes_and_duties: 0, total: 33789, landed_cost: null },
					},
				},
			}),
	})
	.openapi("Quote");
/** A quote as answered and stored. */
export type Quote = z.infer<typeof QuoteSchema>;
