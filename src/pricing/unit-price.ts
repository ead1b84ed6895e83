/**
 * The unit price of one framed piece, in whole US cents. Rates are
 * integers in mills (tenths of a cent); each component is computed exactly from the piece's sizes in
 * sixteenths of an inch, rounded half up to a cent once, and the components are summed. Pure.
 */
import { innerSize, mouldingCut, type PieceSpec, SIXTEENTHS, toSixteenths } from "../framing/dimensions.ts";
import { roundHalfUp, safeProduct, safeSum } from "./money.ts";

/** Mills in a cent. */
const MILLS_PER_CENT = 10;
/** Square sixteenths in a square inch. */
const SQUARE_SIXTEENTHS = SIXTEENTHS * SIXTEENTHS;

/** A mat tier: up to `maxUnitedInches` (null: any size above the last), a layer costs `cents`. */
export type MatTier = { maxUnitedInches: number | null; cents: number };

/** The rates that price one piece, as the price book gives them for its paper, frame and glazing. */
export type PieceRates = {
	printMinimumCents: number;
	paperMillsPerSquareInch: number;
	/** The frame's moulding rate; null for an unframed print. */
	frameMillsPerFoot: number | null;
	/** 0 without a mat, 1 for a mat, 2 for a double mat. */
	matLayers: number;
	matTiers: readonly MatTier[];
	glazingMillsPerSquareInch: number;
	backingMillsPerSquareInch: number;
	assemblyCents: number;
	/** The account's discount, 0 to 50. */
	discountPercent: number;
};

/** A unit price by component, in cents; `total` is the sum of the others less `discount`. */
export type UnitPrice = {
	print: number;
	frame: number;
	mat: number;
	glazing: number;
	backing: number;
	assembly: number;
	discount: number;
	total: number;
};

/** The cost of a mat layer for a piece of `unitedInches`, from the tiers (sorted by size, the last open-ended). */
export function matLayerCents(unitedInches: number, tiers: readonly MatTier[]): number {
	const tier = tiers.find(
		(candidate) => candidate.maxUnitedInches === null || unitedInches <= candidate.maxUnitedInches,
	);
	if (tier === undefined) throw new RangeError(`no mat tier covers ${unitedInches} united inches`);
	return tier.cents;
}

/** The unit price of the piece `spec` at `rates`. */
export function unitPrice(spec: PieceSpec, rates: PieceRates): UnitPrice {
	const printArea = toSixteenths(spec.widthIn) * toSixteenths(spec.heightIn);
	const print = Math.max(
		rates.printMinimumCents,
		roundHalfUp(printArea * rates.paperMillsPerSquareInch, SQUARE_SIXTEENTHS * MILLS_PER_CENT),
	);
	const cut = mouldingCut(spec);
	let frame = 0;
	let glazing = 0;
	let backing = 0;
	let assembly = 0;
	let mat = 0;
	if (cut !== null && rates.frameMillsPerFoot !== null) {
		frame = roundHalfUp(cut.footage.numerator * rates.frameMillsPerFoot, cut.footage.denominator * MILLS_PER_CENT);
		const inner = innerSize(spec);
		const innerArea = inner.width * inner.height;
		glazing = roundHalfUp(innerArea * rates.glazingMillsPerSquareInch, SQUARE_SIXTEENTHS * MILLS_PER_CENT);
		backing = roundHalfUp(innerArea * rates.backingMillsPerSquareInch, SQUARE_SIXTEENTHS * MILLS_PER_CENT);
		assembly = rates.assemblyCents;
		mat = safeProduct(rates.matLayers, matLayerCents((inner.width + inner.height) / SIXTEENTHS, rates.matTiers), "mat");
	}
	const sum = safeSum([print, frame, mat, glazing, backing, assembly], "unit price");
	const discount = roundHalfUp(sum * rates.discountPercent, 100);
	return { print, frame, mat, glazing, backing, assembly, discount, total: sum - discount };
}
