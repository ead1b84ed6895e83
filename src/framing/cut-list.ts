/**
 * What the framer cuts for one piece, from the dimensions module: the print and
 * its paper; each mat's outer size, opening and borders (and a double mat's reveal); the glazing and
 * the backing; the four moulding rails with their long points, cut at 45°; and the hardware. Pure:
 * the work ticket draws and lists it, and its numbers are the dimensions module's, nothing else.
 */
import {
	MAT_OVERLAP_IN,
	mouldingCut,
	type PieceDimensions,
	pieceDimensions,
	SIXTEENTHS,
	type Size,
	toSixteenths,
} from "./dimensions.ts";
import { type FramingSpec, pieceSpecOf } from "./spec.ts";

/** A mat's borders from its opening's edge to the board's edge (the sides always equal the top). */
export type MatBorders = { top_in: number; sides_in: number; bottom_in: number };

/** One mat board as cut: its outer size, its bevelled opening and the borders around that opening. */
export type MatCut = {
	layer: "top" | "inner";
	slug: string;
	outer: Size;
	opening: Size;
	/** From the opening's edge to the board's edge. */
	borders: MatBorders;
};

/**
 * Each mat's borders from its opening, top mat first (empty without a mat): the ordered border plus the
 * 1/8 in the mat overlaps the print, less the reveal on a double mat's top board. What the framer cuts
 * and the buyer sees; every floor page says the borders from these.
 */
export function matBordersAtOpening(spec: FramingSpec): { layer: "top" | "inner"; borders: MatBorders }[] {
	const border = spec.mat_border_in;
	const bottom = spec.mat_bottom_border_in;
	if (spec.mat === null || border === null || bottom === null) return [];
	// The mat overlaps the print by 1/8 in each side, so each border of the opening is 1/8 in wider.
	const overlap = MAT_OVERLAP_IN;
	const reveal = spec.inner_mat === null ? 0 : (spec.inner_mat_reveal_in ?? 0);
	const inner = { top_in: border + overlap, sides_in: border + overlap, bottom_in: bottom + overlap };
	const top = {
		top_in: minus(inner.top_in, reveal),
		sides_in: minus(inner.sides_in, reveal),
		bottom_in: minus(inner.bottom_in, reveal),
	};
	return spec.inner_mat === null
		? [{ layer: "top", borders: top }]
		: [
				{ layer: "top", borders: top },
				{ layer: "inner", borders: inner },
			];
}

/** A moulding rail: its side, its long point (the outside length), both ends mitred at 45°. */
export type RailCut = { side: "top" | "bottom" | "left" | "right"; long_point_in: number; short_point_in: number };

/** The cut list of one piece. */
export type CutList = {
	print: Size;
	paper: string;
	fit: FramingSpec["fit"];
	/** Top mat first; empty without a mat. */
	mats: MatCut[];
	/** How much of the inner mat shows inside the top mat's opening; null without a double mat. */
	reveal_in: number | null;
	glazing: { slug: string; size: Size } | null;
	backing: Size | null;
	frame: { slug: string; width_in: number; rails: RailCut[]; footage_ft: number } | null;
	outside: Size;
	united_inches: number;
	hardware: string[];
};

/** The hanging hardware for a framed piece of this many united inches (a house rule; docs/operator-console.md lists it). */
export function hardwareFor(framed: boolean, unitedInches: number): string[] {
	if (!framed) return ["None: the print ships flat in a sleeve, between boards"];
	const bumpers = "4 clear wall bumpers";
	if (unitedInches <= 60) return ["2 D-rings (1 hole)", "Picture wire, 20 lb", bumpers];
	if (unitedInches <= 100) return ["2 D-rings (2 hole)", "Braided wire, 30 lb", bumpers];
	return ["2 heavy-duty D-rings (3 hole)", "Braided wire, 50 lb", "2 security hangers", bumpers];
}

function minus(a: number, b: number): number {
	return (toSixteenths(a) - toSixteenths(b)) / SIXTEENTHS;
}

/**
 * The cut list of a piece `print` inches with `spec`, in a moulding `frameWidthIn` wide (null
 * unframed), or null when its size is not whole sixteenths or its mat would leave no opening (it
 * could not be built anyway).
 */
export function cutList(
	print: { width_in: number; height_in: number },
	spec: FramingSpec,
	frameWidthIn: number | null,
): CutList | null {
	let dimensions: PieceDimensions;
	const piece = pieceSpecOf(print.width_in, print.height_in, spec, spec.frame === null ? null : frameWidthIn);
	try {
		dimensions = pieceDimensions(piece);
	} catch {
		return null;
	}
	// A print smaller than the mat's overlap would have an opening of nothing or less: no such piece.
	const sizes = [dimensions.print, dimensions.mat_opening, dimensions.top_mat_opening, dimensions.outside];
	if (sizes.some((part) => part !== null && (part.width_in <= 0 || part.height_in <= 0))) return null;
	const mats: MatCut[] = [];
	const outer = dimensions.mat_outer;
	const [topMat, innerMat] = matBordersAtOpening(spec);
	if (spec.mat !== null && outer !== null && dimensions.mat_opening !== null && topMat !== undefined) {
		mats.push({
			layer: "top",
			slug: spec.mat,
			outer,
			opening: dimensions.top_mat_opening ?? dimensions.mat_opening,
			borders: topMat.borders,
		});
		if (spec.inner_mat !== null && innerMat !== undefined) {
			const opening = dimensions.mat_opening;
			mats.push({ layer: "inner", slug: spec.inner_mat, outer, opening, borders: innerMat.borders });
		}
	}
	const cut = mouldingCut(piece);
	const framed = spec.frame !== null && frameWidthIn !== null && cut !== null;
	const inner = dimensions.glazing;
	return {
		print: dimensions.print,
		paper: spec.paper,
		fit: spec.fit,
		mats,
		reveal_in: spec.inner_mat === null ? null : spec.inner_mat_reveal_in,
		glazing: framed && inner !== null && spec.glazing !== "none" ? { slug: spec.glazing, size: inner } : null,
		backing: framed ? inner : null,
		frame:
			framed && spec.frame !== null && frameWidthIn !== null && cut !== null
				? {
						slug: spec.frame,
						width_in: frameWidthIn,
						rails: cut.rails.map((rail) => ({
							...rail,
							short_point_in: minus(rail.long_point_in, 2 * frameWidthIn),
						})),
						footage_ft: Math.ceil((cut.footage.numerator / cut.footage.denominator) * 100) / 100,
					}
				: null,
		outside: dimensions.outside,
		united_inches: dimensions.united_inches,
		hardware: hardwareFor(framed, dimensions.united_inches),
	};
}
