/**
 * The dimensions of a framed piece: the print, the mat openings, the mat's
 * outer size (which is also the glazing's and the backing's, the frame's inner size), the outside of
 * the finished piece, united inches, moulding footage and the chop list. Pure and exact: every input
 * is a multiple of 1/16 in, so lengths are kept as whole sixteenths and nothing is rounded.
 * The quote, the order, the console and the floor's work tickets all take their numbers from here.
 */

/** Sixteenths of an inch in an inch. */
export const SIXTEENTHS = 16;

/** How far a mat's opening lies over the print on each side, in inches: what holds the print, and hides its edge. */
export const MAT_OVERLAP_IN = 1 / 8;

/** A length in whole sixteenths of an inch. */
export type Sixteenths = number;

/** A width and a height in inches, as the API shows them. */
export type Size = { width_in: number; height_in: number };

/** What the dimensions depend on: the print's size, the frame's moulding width, the mat's borders. */
export type PieceSpec = {
	widthIn: number;
	heightIn: number;
	/** The moulding's face width; null for an unframed print. */
	frameWidthIn: number | null;
	/** The mat's borders (sides and top, bottom) and, for a double mat, the inner mat's reveal; null without a mat. */
	mat: { borderIn: number; bottomBorderIn: number; innerRevealIn: number | null } | null;
};

/** A piece's dimensions: absent parts are null. */
export type PieceDimensions = {
	print: Size;
	/** What the buyer sees of the print: the innermost mat's opening, 1/8 in over the print on each side. */
	mat_opening: Size | null;
	/** A double mat's top opening, larger than the inner one by the reveal on each side. */
	top_mat_opening: Size | null;
	/** The mat's outer size, which the glazing and the backing share: the frame's inner size. */
	mat_outer: Size | null;
	glazing: Size | null;
	/** The finished piece: the frame's outer size, or the print when unframed. */
	outside: Size;
	/** Width plus height of the frame's inner size (the print's when unframed): the trade's measure of size. */
	united_inches: number;
};

/** The moulding a frame takes and how the framer cuts it. */
export type MouldingCut = {
	/** (2 × UI + 8 × frame width) / 12 ft, plus 10% for miter waste, as an exact fraction of a foot. */
	footage: Fraction;
	/** Four rails cut at 45°; each one's long point is the outside length of its side. */
	rails: { side: "top" | "bottom" | "left" | "right"; long_point_in: number }[];
};

/** An exact non-negative fraction. */
export type Fraction = { numerator: number; denominator: number };

/** Whole sixteenths of `inches`; throws for a length that is not a multiple of 1/16 in (the schema refuses those first). */
export function toSixteenths(inches: number): Sixteenths {
	const sixteenths = inches * SIXTEENTHS;
	if (!Number.isSafeInteger(sixteenths) || sixteenths < 0) {
		throw new RangeError(`${inches} in is not a whole number of sixteenths of an inch`);
	}
	return sixteenths;
}

function inches(sixteenths: Sixteenths): number {
	return sixteenths / SIXTEENTHS;
}

function size(width: Sixteenths, height: Sixteenths): Size {
	return { width_in: inches(width), height_in: inches(height) };
}

/** The frame's inner size G in sixteenths: the mat's outer size when matted, the print's when framed without a mat. */
export function innerSize(spec: PieceSpec): { width: Sixteenths; height: Sixteenths } {
	const width = toSixteenths(spec.widthIn);
	const height = toSixteenths(spec.heightIn);
	if (spec.mat === null) return { width, height };
	const border = toSixteenths(spec.mat.borderIn);
	const bottom = toSixteenths(spec.mat.bottomBorderIn);
	return { width: width + 2 * border, height: height + border + bottom };
}

/** The dimensions of one piece. */
export function pieceDimensions(spec: PieceSpec): PieceDimensions {
	const width = toSixteenths(spec.widthIn);
	const height = toSixteenths(spec.heightIn);
	const framed = spec.frameWidthIn !== null;
	const inner = innerSize(spec);
	// The mat overlaps the print by 1/8 in on each side: the opening is 1/4 in smaller each way.
	const overlap = 2 * MAT_OVERLAP_IN * SIXTEENTHS;
	const reveal = spec.mat?.innerRevealIn == null ? null : toSixteenths(spec.mat.innerRevealIn);
	const frameWidth = spec.frameWidthIn === null ? 0 : toSixteenths(spec.frameWidthIn);
	return {
		print: size(width, height),
		mat_opening: spec.mat === null ? null : size(width - overlap, height - overlap),
		top_mat_opening:
			spec.mat === null || reveal === null ? null : size(width - overlap + 2 * reveal, height - overlap + 2 * reveal),
		mat_outer: spec.mat === null ? null : size(inner.width, inner.height),
		glazing: framed ? size(inner.width, inner.height) : null,
		outside: framed ? size(inner.width + 2 * frameWidth, inner.height + 2 * frameWidth) : size(width, height),
		united_inches: inches(framed ? inner.width + inner.height : width + height),
	};
}

/** The moulding of a framed piece: footage with miter waste, exactly, and the four rails; null when unframed. */
export function mouldingCut(spec: PieceSpec): MouldingCut | null {
	if (spec.frameWidthIn === null) return null;
	const inner = innerSize(spec);
	const frameWidth = toSixteenths(spec.frameWidthIn);
	const unitedInches = inner.width + inner.height;
	// (2·UI + 8·fw) / 12 ft × 11/10, with lengths in sixteenths: over 16 × 12 × 10.
	const footage = { numerator: (2 * unitedInches + 8 * frameWidth) * 11, denominator: SIXTEENTHS * 12 * 10 };
	const outsideWidth = inches(inner.width + 2 * frameWidth);
	const outsideHeight = inches(inner.height + 2 * frameWidth);
	return {
		footage,
		rails: [
			{ side: "top", long_point_in: outsideWidth },
			{ side: "bottom", long_point_in: outsideWidth },
			{ side: "left", long_point_in: outsideHeight },
			{ side: "right", long_point_in: outsideHeight },
		],
	};
}

/** A fraction's value as a number, for showing (never for money: prices round the exact fraction once). */
export function fractionValue(fraction: Fraction): number {
	return fraction.numerator / fraction.denominator;
}
