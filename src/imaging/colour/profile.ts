/**
 * An ICC profile parsed for conversion: what the header says, and the tags a matrix-and-curve (or grey)
 * profile is converted with. The parser is icc.ts; the conversion to sRGB is convert.ts.
 */

/** A CIE XYZ triple (the profile connection space's D50-relative values). */
export type Xyz = readonly [number, number, number];

/** A tone curve from device value (0 to 1) to linear value (0 to 1). */
export type Curve =
	| { kind: "identity" }
	| { kind: "gamma"; gamma: number }
	/** `curv` with 2 or more entries: evenly spaced samples from 0 to 1, linearly interpolated. */
	| { kind: "table"; values: Float64Array }
	/** `para`: ICC function type 0 to 4 with its parameters (g, a, b, c, d, e, f as the type has them). */
	| { kind: "parametric"; type: 0 | 1 | 2 | 3 | 4; params: readonly number[] };

/** A parsed profile: the header's facts, its description, and the tags conversion needs (null where absent). */
export type IccProfile = {
	size: number;
	colourSpace: string;
	deviceClass: string;
	pcs: string;
	version: string;
	description: string | null;
	/** The red, green and blue colorants (rXYZ, gXYZ, bXYZ), PCS-relative (D50). */
	colorants: { red: Xyz; green: Xyz; blue: Xyz } | null;
	/** The media white point (wtpt). */
	whitePoint: Xyz | null;
	/** The chromatic adaptation matrix (chad), row-major 3 × 3. */
	adaptation: readonly number[] | null;
	/** rTRC, gTRC, bTRC. */
	rgbCurves: readonly [Curve, Curve, Curve] | null;
	/** kTRC. */
	greyCurve: Curve | null;
	/** Whether it carries lookup tables (A2B0 or B2A0). */
	hasLuts: boolean;
};
