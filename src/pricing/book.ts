/**
 * The price book as published and stored: one zod schema serves
 * the admin's publishing, the stored JSON and `GET /v1/price-book`, and converts to the rates the
 * pure pricing and shipping modules take.
 */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { SHIPPING_METHODS, SHIPPING_ZONES, type ShippingTables } from "./shipping.ts";
import type { MatTier, PieceRates } from "./unit-price.ts";

/**
 * Every number of the book has the range a real book could use, not just a sign: a value far past
 * it (a divisor of 10^13, production days near 2^53) would make every framed quote fail, or give
 * quotes that cannot be read back. Within these ranges every price, weight and day count the
 * pricing computes, for any cart an order or quote may hold, is a safe integer (a property test
 * holds this, test/fuzz/pricing.property.isolated.test.ts).
 */
export const PRICE_BOOK_BOUNDS = {
	/** Minimum print price, assembly per framed piece and a mat layer: up to $1,000. */
	pieceCents: 100_000,
	/** Paper, glazing and backing, per square inch: up to $10 (the seed's dearest is 6¢). */
	millsPerSquareInch: 10_000,
	/** Moulding, per foot: up to $100 (the catalog's run from $2.50 to $12). */
	millsPerFoot: 100_000,
	/** A mat tier's upper bound, in united inches. */
	unitedInches: 1_000,
	/** Mat tiers in a book. */
	matTiers: 20,
	/** Entries in each table of rates by slug (the catalog has 44 frames); slugs at most 64 characters. */
	slugRates: 200,
	/** A package's price, and the oversize surcharge: up to $10,000. */
	packageCents: 1_000_000,
	/** Per billable pound: up to $1,000. */
	perPoundCents: 100_000,
	/** Length plus girth thresholds, in inches. */
	lengthPlusGirthIn: { min: 1, max: 1_000 },
	/** Cubic inches per pound of dimensional weight: carriers use 139 to 194 (166 abroad). */
	dimensionalDivisor: { min: 50, max: 500 },
	/** Transit and production days. */
	days: 90,
} as const;

const B = PRICE_BOOK_BOUNDS;

/** Whole cents from 0 to `max`. */
const cents = (max: number) => z.number().int().min(0).max(max);
/** Whole mills (tenths of a cent) from 0 to `max`. */
const mills = (max: number) => z.number().int().min(0).max(max);
/** Whole days from 0 to the bound. */
const days = z.number().int().min(0).max(B.days);
/** Rates by catalog slug: a bounded table, so a book stays a small row. */
const slugRates = (max: number) =>
	z
		.record(
			z
				.string()
				.max(64, "must be at most 64 characters")
				.regex(/^[a-z0-9][a-z0-9-]*$/),
			mills(max),
		)
		.refine((rates) => Object.keys(rates).length <= B.slugRates, `must hold at most ${B.slugRates} rates`);
/** Inches of length plus girth. */
const lengthPlusGirth = z.number().min(B.lengthPlusGirthIn.min).max(B.lengthPlusGirthIn.max);

const RateSchema = z.strictObject({
	package_cents: cents(B.packageCents),
	per_lb_cents: cents(B.perPoundCents),
	transit_days: z
		.strictObject({ min: days, max: days })
		.refine((transit) => transit.min <= transit.max, "min must not exceed max"),
});

const ZoneRatesSchema = z.strictObject(
	Object.fromEntries(SHIPPING_METHODS.map((method) => [method, RateSchema.optional()])) as Record<
		(typeof SHIPPING_METHODS)[number],
		z.ZodOptional<typeof RateSchema>
	>,
);

/** Every rate of a book, the mat tiers and the shipping tables: what a version holds besides its number and date. */
const rateFields = {
	currency: z.literal("USD"),
	print: z.strictObject({
		minimum_cents: cents(B.pieceCents),
		paper_mills_per_sq_in: slugRates(B.millsPerSquareInch),
	}),
	frames: z.strictObject({
		mills_per_foot: slugRates(B.millsPerFoot).openapi({
			description: "Per catalog frame slug: the moulding's price per foot.",
		}),
	}),
	mats: z.strictObject({
		tiers: z
			.array(
				z.strictObject({
					max_united_inches: z.number().positive().max(B.unitedInches).nullable(),
					cents_per_layer: cents(B.pieceCents),
				}),
			)
			.min(1)
			.max(B.matTiers)
			.refine(
				(tiers) =>
					tiers.every((tier, index) => (index === tiers.length - 1) === (tier.max_united_inches === null)) &&
					tiers.every(
						(tier, index) =>
							index === 0 ||
							(tier.max_united_inches ?? Number.POSITIVE_INFINITY) > (tiers[index - 1]?.max_united_inches ?? 0),
					),
				"tiers must rise in size and the last one (only) must have max_united_inches null",
			),
	}),
	glazing: z.strictObject({ mills_per_sq_in: slugRates(B.millsPerSquareInch) }),
	backing: z.strictObject({ mills_per_sq_in: mills(B.millsPerSquareInch) }),
	assembly: z.strictObject({ cents_per_framed_piece: cents(B.pieceCents) }),
	shipping: z.strictObject({
		zones: z.strictObject(
			Object.fromEntries(SHIPPING_ZONES.map((zone) => [zone, ZoneRatesSchema])) as Record<
				(typeof SHIPPING_ZONES)[number],
				typeof ZoneRatesSchema
			>,
		),
		oversize_cents: cents(B.packageCents),
		oversize_above_in: lengthPlusGirth,
		freight_above_in: lengthPlusGirth,
		dimensional_divisor: z.number().int().min(B.dimensionalDivisor.min).max(B.dimensionalDivisor.max),
		production_days: z.strictObject({ framed: days, unframed: days }),
	}),
};

/** The rates of a book, without its version and date: what is stored as a version's JSON. */
const PriceBookRates = z.strictObject(rateFields);
/** A book's rates, as an admin sends them and as stored. */
export type PriceBookInput = z.infer<typeof PriceBookRates>;

/**
 * The book an admin publishes: every rate, the mat tiers and the shipping tables. A book read with
 * GET may be sent back whole: its `version` and `published_at` are taken only as what it was read
 * from, which must still be the book in force.
 */
export const PriceBookBody = z
	.strictObject({
		...rateFields,
		version: z.number().int().min(1).optional().openapi({
			description:
				"Read-only, and may be left out. Sent back as read, it must be the version in force: a book published since is a 409, so an edit is not made to an out-of-date book.",
		}),
		published_at: dateTime().optional().openapi({
			description: "Read-only, and may be left out. Sent back as read, it must be the version in force's.",
		}),
	})
	.openapi("PriceBookBody");
/** A book as an admin sends it, perhaps with the version and date it was read with. */
export type PriceBookBodyInput = z.infer<typeof PriceBookBody>;

/** A published book: its version and when it was published, with every rate. */
// Spread rather than `.extend`: the document would show it as PriceBookBody (closed to other
// properties) and more, which no answer could satisfy.
export const PriceBookSchema = z
	.strictObject({
		...rateFields,
		version: z.number().int().min(1),
		published_at: dateTime(),
	})
	.openapi("PriceBook");
/** A published book. */
export type PriceBook = z.infer<typeof PriceBookSchema>;

/** The shipping tables of a book, for the shipping module. */
export function shippingTablesOf(book: PriceBookInput): ShippingTables {
	const zones = book.shipping.zones;
	const rates = Object.fromEntries(
		SHIPPING_ZONES.map((zone) => [
			zone,
			Object.fromEntries(
				SHIPPING_METHODS.flatMap((method) => {
					const rate = zones[zone][method];
					return rate === undefined
						? []
						: [
								[
									method,
									{
										packageCents: rate.package_cents,
										perPoundCents: rate.per_lb_cents,
										transitDays: rate.transit_days,
									},
								],
							];
				}),
			),
		]),
	) as ShippingTables["rates"];
	return {
		rates,
		oversizeCents: book.shipping.oversize_cents,
		oversizeAboveIn: book.shipping.oversize_above_in,
		freightAboveIn: book.shipping.freight_above_in,
		dimensionalDivisor: book.shipping.dimensional_divisor,
		productionDays: book.shipping.production_days,
	};
}

/** The book's mat tiers as the unit-price module takes them. */
export function matTiersOf(book: Pick<PriceBookInput, "mats">): MatTier[] {
	return book.mats.tiers.map((tier) => ({ maxUnitedInches: tier.max_united_inches, cents: tier.cents_per_layer }));
}

/** The rates of one piece from the book: null for a slug the book does not price (the order holds instead). */
export function pieceRatesOf(
	book: PriceBookInput,
	choice: { paper: string; frame: string | null; glazing: string; matLayers: number; discountPercent: number },
): PieceRates | null {
	const paper = book.print.paper_mills_per_sq_in[choice.paper];
	const frame = choice.frame === null ? null : book.frames.mills_per_foot[choice.frame];
	const glazing = choice.frame === null ? 0 : book.glazing.mills_per_sq_in[choice.glazing];
	if (paper === undefined || frame === undefined || glazing === undefined) return null;
	return {
		printMinimumCents: book.print.minimum_cents,
		paperMillsPerSquareInch: paper,
		frameMillsPerFoot: frame,
		matLayers: choice.matLayers,
		matTiers: matTiersOf(book),
		glazingMillsPerSquareInch: glazing,
		backingMillsPerSquareInch: book.backing.mills_per_sq_in,
		assemblyCents: book.assembly.cents_per_framed_piece,
		discountPercent: choice.discountPercent,
	};
}
