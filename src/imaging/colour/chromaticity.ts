/**
 * RGB spaces as matrices: from CIE xy primaries and white to an RGB-to-XYZ matrix, adapted to the ICC's
 * D50 connection space by Bradford (as ICC profiles of sRGB, Adobe RGB and Display P3 carry their
 * colorants), and sRGB's own D50 matrix, which every conversion to sRGB ends with.
 */

/** Three numbers: an XYZ triple, or an RGB one. */
export type Vector3 = readonly [number, number, number];
/** A 3 × 3 matrix, row by row. */
export type Matrix3 = readonly [Vector3, Vector3, Vector3];
/** CIE xy. */
export type Chromaticity = readonly [number, number];
/** An RGB space's primaries and white, as CIE xy. */
export type Primaries = { red: Chromaticity; green: Chromaticity; blue: Chromaticity; white: Chromaticity };

/** The ICC connection space's white (D50), as profiles' headers carry it. */
export const D50: Vector3 = [0.9642, 1, 0.8249];

/** sRGB's (and Rec. 709's) primaries, D65 white. */
export const SRGB_PRIMARIES: Primaries = {
	red: [0.64, 0.33],
	green: [0.3, 0.6],
	blue: [0.15, 0.06],
	white: [0.3127, 0.329],
};

const BRADFORD: Matrix3 = [
	[0.8951, 0.2664, -0.1614],
	[-0.7502, 1.7135, 0.0367],
	[0.0389, -0.0685, 1.0296],
];

/** The product `a × b`. */
export function multiply(a: Matrix3, b: Matrix3): Matrix3 {
	const [b0, b1, b2] = b;
	const row = ([x, y, z]: Vector3): Vector3 => [
		x * b0[0] + y * b1[0] + z * b2[0],
		x * b0[1] + y * b1[1] + z * b2[1],
		x * b0[2] + y * b1[2] + z * b2[2],
	];
	return [row(a[0]), row(a[1]), row(a[2])];
}

/** `m × v`. */
export function apply(m: Matrix3, v: Vector3): Vector3 {
	const [r0, r1, r2] = m;
	return [
		r0[0] * v[0] + r0[1] * v[1] + r0[2] * v[2],
		r1[0] * v[0] + r1[1] * v[1] + r1[2] * v[2],
		r2[0] * v[0] + r2[1] * v[1] + r2[2] * v[2],
	];
}

/** The inverse of `m`; a singular matrix gives non-finite values, which callers check. */
export function invert(m: Matrix3): Matrix3 {
	const [[a, b, c], [d, e, f], [g, h, i]] = m;
	const det = a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g);
	return [
		[(e * i - f * h) / det, (c * h - b * i) / det, (b * f - c * e) / det],
		[(f * g - d * i) / det, (a * i - c * g) / det, (c * d - a * f) / det],
		[(d * h - e * g) / det, (b * g - a * h) / det, (a * e - b * d) / det],
	];
}

/** The matrix whose columns are `red`, `green` and `blue`: an RGB-to-XYZ matrix from its colorants. */
export function fromColumns(red: Vector3, green: Vector3, blue: Vector3): Matrix3 {
	return [
		[red[0], green[0], blue[0]],
		[red[1], green[1], blue[1]],
		[red[2], green[2], blue[2]],
	];
}

/** The XYZ of chromaticity `xy` at luminance 1. */
export function xyzOfChromaticity([x, y]: Chromaticity): Vector3 {
	return [x / y, 1, (1 - x - y) / y];
}

/** Bradford's chromatic adaptation from white `from` to white `to` (both XYZ). */
export function bradford(from: Vector3, to: Vector3): Matrix3 {
	const source = apply(BRADFORD, from);
	const target = apply(BRADFORD, to);
	const scale: Matrix3 = [
		[target[0] / source[0], 0, 0],
		[0, target[1] / source[1], 0],
		[0, 0, target[2] / source[2]],
	];
	return multiply(invert(BRADFORD), multiply(scale, BRADFORD));
}

/**
 * The linear-RGB-to-XYZ matrix of an RGB space, adapted to D50 by Bradford: its columns are the
 * colorants an ICC profile of that space carries (rXYZ, gXYZ, bXYZ), and RGB (1, 1, 1) maps to D50.
 */
export function rgbToD50(primaries: Primaries): Matrix3 {
	const red = xyzOfChromaticity(primaries.red);
	const green = xyzOfChromaticity(primaries.green);
	const blue = xyzOfChromaticity(primaries.blue);
	const white = xyzOfChromaticity(primaries.white);
	const unscaled = fromColumns(red, green, blue);
	const [sr, sg, sb] = apply(invert(unscaled), white);
	const scaled = fromColumns(
		[red[0] * sr, red[1] * sr, red[2] * sr],
		[green[0] * sg, green[1] * sg, green[2] * sg],
		[blue[0] * sb, blue[1] * sb, blue[2] * sb],
	);
	return multiply(bradford(white, D50), scaled);
}

/** XYZ (D50) to linear sRGB: the inverse of sRGB's D50-adapted colorants. */
export const D50_TO_LINEAR_SRGB: Matrix3 = invert(rgbToD50(SRGB_PRIMARIES));
