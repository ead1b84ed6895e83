/**
 * The first price book's numbers. Migration 0009 stores this book
 * as version 1, with each catalog frame's price per foot; a test holds the two equal. Rates in mills
 * (tenths of a cent) per square inch or per foot, prices in cents.
 */
import { matTiersOf, type PriceBookInput, shippingTablesOf } from "./book.ts";
import type { ShippingTables } from "./shipping.ts";

const days = (min: number, max: number) => ({ min, max });

/** The seed book, but for the frames' rates, which come from the catalog's mouldings. */
export const SEED_BOOK: Omit<PriceBookInput, "frames"> = {
	currency: "USD",
	print: { minimum_cents: 400, paper_mills_per_sq_in: { "archival-matte": 20, "photo-lustre": 18, "cotton-rag": 35 } },
	mats: {
		tiers: [
			{ max_united_inches: 40, cents_per_layer: 600 },
			{ max_united_inches: 60, cents_per_layer: 900 },
			{ max_united_inches: 80, cents_per_layer: 1_400 },
			{ max_united_inches: null, cents_per_layer: 2_000 },
		],
	},
	glazing: { mills_per_sq_in: { acrylic: 12, "uv-acrylic": 22, "museum-acrylic": 60, none: 0 } },
	backing: { mills_per_sq_in: 4 },
	assembly: { cents_per_framed_piece: 800 },
	shipping: {
		zones: {
			US: {
				budget: { package_cents: 700, per_lb_cents: 65, transit_days: days(5, 8) },
				standard: { package_cents: 900, per_lb_cents: 85, transit_days: days(3, 5) },
				express: { package_cents: 2_400, per_lb_cents: 190, transit_days: days(1, 2) },
				freight: { package_cents: 15_000, per_lb_cents: 150, transit_days: days(7, 14) },
			},
			north_america: {
				standard: { package_cents: 2_200, per_lb_cents: 210, transit_days: days(6, 10) },
				express: { package_cents: 4_800, per_lb_cents: 420, transit_days: days(2, 4) },
				freight: { package_cents: 30_000, per_lb_cents: 300, transit_days: days(10, 20) },
			},
			europe: {
				standard: { package_cents: 3_500, per_lb_cents: 380, transit_days: days(7, 12) },
				express: { package_cents: 7_000, per_lb_cents: 760, transit_days: days(3, 5) },
				freight: { package_cents: 45_000, per_lb_cents: 450, transit_days: days(14, 28) },
			},
			world: {
				standard: { package_cents: 4_500, per_lb_cents: 500, transit_days: days(10, 20) },
				express: { package_cents: 9_000, per_lb_cents: 1_000, transit_days: days(4, 7) },
				freight: { package_cents: 45_000, per_lb_cents: 450, transit_days: days(14, 28) },
			},
		},
		oversize_cents: 5_000,
		oversize_above_in: 130,
		freight_above_in: 165,
		dimensional_divisor: 139,
		production_days: { framed: 3, unframed: 1 },
	},
};

/** The seed book's piece rates, as the unit-price module takes them. */
export const SEED_PIECE_RATES = {
	printMinimumCents: SEED_BOOK.print.minimum_cents,
	paperMillsPerSquareInch: SEED_BOOK.print.paper_mills_per_sq_in,
	matTiers: matTiersOf(SEED_BOOK),
	glazingMillsPerSquareInch: SEED_BOOK.glazing.mills_per_sq_in,
	backingMillsPerSquareInch: SEED_BOOK.backing.mills_per_sq_in,
	assemblyCents: SEED_BOOK.assembly.cents_per_framed_piece,
};

/** The seed book's shipping tables, as the shipping module takes them. */
export const SEED_SHIPPING: ShippingTables = shippingTablesOf({ ...SEED_BOOK, frames: { mills_per_foot: {} } });
