/**
 * The price book as published and stored (product model, sections 4 and 5): one zod schema serves
 * the admin's publishing, the stored JSON and `GET /v1/price-book`, and converts to the rates the
 * pure pricing and shipping modules take.
 */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { SHIPPING_METHODS, SHIPPING_ZONES, type ShippingTables } from "./shipping.ts";
import type { MatTier, PieceRates } from "./unit-price.ts";

const cents = z.number().int().min(0).max(10_000_000);
const mills = z.number().int().min(0).max(1_000_000);
const slugRates = z.record(z.string().regex(/^[a-z0-9][a-z0-9-]*$/), mills);

const RateSchema = z.strictObject({
	package_cents: cents,
	per_lb_cents: cents,
	transit_days: z
		.strictObject({ min: z.number().int().min(0).max(90), max: z.number().int().min(0).max(90) })
		.refine((days) => days.min <= days.max, "min must not exceed max"),
});

const ZoneRatesSchema = z.strictObject(
	Object.fromEntries(SHIPPING_METHODS.map((method) => [method, RateSchema.optional()])) as Record<
		(typeof SHIPPING_METHODS)[number],
		z.ZodOptional<typeof RateSchema>
	>,
);

/** The book an admin publishes: every rate, the mat tiers and the shipping tables. */
export const PriceBookBody = z
	.strictObject({
		currency: z.literal("USD"),
		print: z.strictObject({ minimum_cents: cents, paper_mills_per_sq_in: slugRates }),
		frames: z.strictObject({
			mills_per_foot: slugRates.openapi({ description: "Per catalog frame slug: the moulding's price per foot." }),
		}),
		mats: z.strictObject({
			tiers: z
				.array(z.strictObject({ max_united_inches: z.number().positive().nullable(), cents_per_layer: cents }))
				.min(1)
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
		glazing: z.strictObject({ mills_per_sq_in: slugRates }),
		backing: z.strictObject({ mills_per_sq_in: mills }),
		assembly: z.strictObject({ cents_per_framed_piece: cents }),
		shipping: z.strictObject({
			zones: z.strictObject(
				Object.fromEntries(SHIPPING_ZONES.map((zone) => [zone, ZoneRatesSchema])) as Record<
					(typeof SHIPPING_ZONES)[number],
					typeof ZoneRatesSchema
				>,
			),
			oversize_cents: cents,
			oversize_above_in: z.number().positive(),
			freight_above_in: z.number().positive(),
			dimensional_divisor: z.number().int().positive(),
			production_days: z.strictObject({ framed: z.number().int().min(0), unframed: z.number().int().min(0) }),
		}),
	})
	.openapi("PriceBookBody");
/** A book as an admin sends it. */
export type PriceBookInput = z.infer<typeof PriceBookBody>;

/** A published book: its version and when it was published, with every rate. */
// Spread rather than `.extend`: the document would show it as PriceBookInput (closed to other
// properties) and more, which no answer could satisfy.
export const PriceBookSchema = z
	.strictObject({
		...PriceBookBody.shape,
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
