/**
 * The first price book's numbers (product model, sections 4 and 5), from which the D1 price book is
 * seeded. Rates in mills (tenths of a cent) per square inch or per foot, prices in cents.
 */
import type { ShippingTables } from "./shipping.ts";
import type { MatTier } from "./unit-price.ts";

/** The price book's piece rates, by catalog slug where they depend on the choice. */
export type PieceRateBook = {
	printMinimumCents: number;
	paperMillsPerSquareInch: Record<string, number>;
	matTiers: MatTier[];
	glazingMillsPerSquareInch: Record<string, number>;
	backingMillsPerSquareInch: number;
	assemblyCents: number;
};

/** Section 4 of the product model. */
export const SEED_PIECE_RATES: PieceRateBook = {
	printMinimumCents: 400,
	paperMillsPerSquareInch: { "archival-matte": 20, "photo-lustre": 18, "cotton-rag": 35 },
	matTiers: [
		{ maxUnitedInches: 40, cents: 600 },
		{ maxUnitedInches: 60, cents: 900 },
		{ maxUnitedInches: 80, cents: 1_400 },
		{ maxUnitedInches: null, cents: 2_000 },
	],
	glazingMillsPerSquareInch: { acrylic: 12, "uv-acrylic": 22, "museum-acrylic": 60, none: 0 },
	backingMillsPerSquareInch: 4,
	assemblyCents: 800,
};

const days = (min: number, max: number) => ({ min, max });

/** Section 5 of the product model. */
export const SEED_SHIPPING: ShippingTables = {
	rates: {
		US: {
			budget: { packageCents: 700, perPoundCents: 65, transitDays: days(5, 8) },
			standard: { packageCents: 900, perPoundCents: 85, transitDays: days(3, 5) },
			express: { packageCents: 2_400, perPoundCents: 190, transitDays: days(1, 2) },
			freight: { packageCents: 15_000, perPoundCents: 150, transitDays: days(7, 14) },
		},
		north_america: {
			standard: { packageCents: 2_200, perPoundCents: 210, transitDays: days(6, 10) },
			express: { packageCents: 4_800, perPoundCents: 420, transitDays: days(2, 4) },
			freight: { packageCents: 30_000, perPoundCents: 300, transitDays: days(10, 20) },
		},
		europe: {
			standard: { packageCents: 3_500, perPoundCents: 380, transitDays: days(7, 12) },
			express: { packageCents: 7_000, perPoundCents: 760, transitDays: days(3, 5) },
			freight: { packageCents: 45_000, perPoundCents: 450, transitDays: days(14, 28) },
		},
		world: {
			standard: { packageCents: 4_500, perPoundCents: 500, transitDays: days(10, 20) },
			express: { packageCents: 9_000, perPoundCents: 1_000, transitDays: days(4, 7) },
			freight: { packageCents: 45_000, perPoundCents: 450, transitDays: days(14, 28) },
		},
	},
	oversizeCents: 5_000,
	oversizeAboveIn: 130,
	freightAboveIn: 165,
	dimensionalDivisor: 139,
	productionDays: { framed: 3, unframed: 1 },
};
