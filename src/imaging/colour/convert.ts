/**
 * Decoded rows brought to sRGB, for the thumbnail and so for every preview drawn from it.
 *
 * Exact, for a matrix-and-curve RGB profile (Adobe RGB, Display P3, ProPhoto and the like), a grey
 * profile, or PNG's gAMA (with cHRM, or sRGB's primaries without): each channel through its curve to
 * linear light, the colorants to XYZ in the ICC's D50 connection space, XYZ to linear sRGB by sRGB's
 * D50-adapted (Bradford) matrix, then sRGB's curve. The rendering is relative colorimetric: the
 * source's white becomes sRGB's white. Colours sRGB cannot show are
 * clipped per channel to 0..255 (no gamut mapping). A grey profile's curve gives luminance, encoded
 * with sRGB's curve as a neutral grey.
 *
 * Approximate, for CMYK (with or without a profile) and profiles built on lookup tables: the decoders'
 * own RGB is kept. For CMYK that is R = 255 × (1 − C)(1 − K), G = 255 × (1 − M)(1 − K),
 * B = 255 × (1 − Y)(1 − K) (no press profile applied: press blacks and blues come out lighter and
 * brighter than they print).
 *
 * Nothing to do for sRGB (a profile with sRGB's colorants and curve, PNG's sRGB chunk, gAMA 1/2.2 with
 * sRGB's primaries or no cHRM, EXIF's sRGB) or an untagged file, whose samples are taken as sRGB.
 */
import type { RasterSink } from "../raster.ts";
import {
	D50_TO_LINEAR_SRGB,
	fromColumns,
	type Matrix3,
	multiply,
	type Primaries,
	rgbToD50,
	SRGB_PRIMARIES,
} from "./chromaticity.ts";
import type { ColourFacts, Conversion, PngColourChunks } from "./facts.ts";
import { knownSpaceOf } from "./icc.ts";
import type { Curve, IccProfile } from "./profile.ts";

/** Steps of the table that encodes linear light (0 to 1) as 8-bit sRGB: fine enough near black, where sRGB's curve is steepest. */
const ENCODE_STEPS = 16_384;

/** sRGB's curve, encoded value (0 to 1) to linear light. */
export function srgbToLinear(value: number): number {
	return value <= 0.04045 ? value / 12.92 : ((value + 0.055) / 1.055) ** 2.4;
}

/** sRGB's curve, linear light (0 to 1) to encoded value. */
export function linearToSrgb(value: number): number {
	return value <= 0.0031308 ? value * 12.92 : 1.055 * value ** (1 / 2.4) - 0.055;
}

/** Linear light to 8-bit sRGB, by table: index `round(linear × ENCODE_STEPS)`. */
const ENCODE = Uint8Array.from({ length: ENCODE_STEPS + 1 }, (_, index) =>
	Math.round(255 * linearToSrgb(index / ENCODE_STEPS)),
);

function clamp01(value: number): number {
	return value < 0 ? 0 : Math.min(value, 1);
}

function encode(linear: number): number {
	return ENCODE[Math.round(clamp01(linear) * ENCODE_STEPS)] ?? 0;
}

/** `base ^ exponent`, 0 for a base at or below 0 (a curve's segment that would go negative). */
function power(base: number, exponent: number): number {
	return base <= 0 ? 0 : base ** exponent;
}

/** A tone curve's linear value at device value `x` (0 to 1), clipped to 0..1 as ICC curves' outputs are. */
export function evaluateCurve(curve: Curve, x: number): number {
	switch (curve.kind) {
		case "identity":
			return x;
		case "gamma":
			return clamp01(power(x, curve.gamma));
		case "table": {
			const { values } = curve;
			const at = x * (values.length - 1);
			const below = Math.floor(at);
			const low = values[below] ?? 0;
			const high = values[Math.min(below + 1, values.length - 1)] ?? low;
			return clamp01(low + (high - low) * (at - below));
		}
		case "parametric": {
			const [g = 1, a = 1, b = 0, c = 0, d = 0, e = 0, f = 0] = curve.params;
			switch (curve.type) {
				case 0:
					return clamp01(power(x, g));
				case 1:
					return clamp01(x >= -b / a ? power(a * x + b, g) : 0);
				case 2:
					return clamp01(x >= -b / a ? power(a * x + b, g) + c : c);
				case 3:
					return clamp01(x >= d ? power(a * x + b, g) : c * x);
				case 4:
					return clamp01(x >= d ? power(a * x + b, g) + e : c * x + f);
			}
		}
	}
}

/** A curve's linear values at the 256 8-bit device values. */
function linearTable(toLinear: (x: number) => number): Float64Array {
	return Float64Array.from({ length: 256 }, (_, index) => toLinear(index / 255));
}

/**
 * Converts 8-bit RGB pixels to sRGB: `to` may be `from`. Tables are built once per file, so a pixel costs
 * three lookups, a 3 × 3 multiply and three more lookups.
 */
export class SrgbTransform {
	readonly #red: Float64Array;
	readonly #green: Float64Array;
	readonly #blue: Float64Array;
	readonly #matrix: Float64Array;

	private constructor(curves: readonly [Float64Array, Float64Array, Float64Array], matrix: Matrix3) {
		[this.#red, this.#green, this.#blue] = curves;
		this.#matrix = Float64Array.from(matrix.flat());
	}

	/** Curves to linear light, then `toXyzD50` (linear RGB to the connection space's XYZ), then sRGB. */
	static fromRgb(curves: readonly [Curve, Curve, Curve], toXyzD50: Matrix3): SrgbTransform {
		const tables = curves.map((curve) => linearTable((x) => evaluateCurve(curve, x)));
		const [red = new Float64Array(256), green = red, blue = red] = tables;
		return new SrgbTransform([red, green, blue], multiply(D50_TO_LINEAR_SRGB, toXyzD50));
	}

	/** A grey curve to luminance, then sRGB's curve; the decoders deliver grey as R = G = B. */
	static fromGrey(curve: Curve): SrgbTransform {
		const table = linearTable((x) => evaluateCurve(curve, x));
		return new SrgbTransform(
			[table, table, table],
			[
				[1, 0, 0],
				[0, 1, 0],
				[0, 0, 1],
			],
		);
	}

	/** `pixels` pixels of 8-bit RGB from `from` to `to`, converted. */
	convert(from: Uint8Array, to: Uint8Array, pixels: number): void {
		const red = this.#red;
		const green = this.#green;
		const blue = this.#blue;
		const [m0 = 0, m1 = 0, m2 = 0, m3 = 0, m4 = 0, m5 = 0, m6 = 0, m7 = 0, m8 = 0] = this.#matrix;
		for (let at = 0; at < pixels * 3; at += 3) {
			const r = red[from[at] ?? 0] ?? 0;
			const g = green[from[at + 1] ?? 0] ?? 0;
			const b = blue[from[at + 2] ?? 0] ?? 0;
			to[at] = encode(m0 * r + m1 * g + m2 * b);
			to[at + 1] = encode(m3 * r + m4 * g + m5 * b);
			to[at + 2] = encode(m6 * r + m7 * g + m8 * b);
		}
	}
}

/** How a file's rows reach sRGB: the conversion the facts name, and the transform (null: rows kept as decoded). */
export type SrgbPlan = { conversion: Conversion; transform: SrgbTransform | null };

/** How close a curve must stay to sRGB's (in linear light, at every 8-bit value) to count as sRGB's. */
const SRGB_CURVE_TOLERANCE = 0.001;

function isSrgbCurve(curve: Curve): boolean {
	for (let index = 0; index < 256; index++) {
		const x = index / 255;
		if (Math.abs(evaluateCurve(curve, x) - srgbToLinear(x)) > SRGB_CURVE_TOLERANCE) return false;
	}
	return true;
}

/** The plan for an RGB profile with colorants and curves: none when it is sRGB itself, else exact. */
function matrixPlan(profile: IccProfile, colorants: NonNullable<IccProfile["colorants"]>): SrgbPlan {
	const curves = profile.rgbCurves;
	if (curves === null) return { conversion: "approximate", transform: null };
	if (knownSpaceOf(colorants) === "srgb" && curves.every(isSrgbCurve)) return { conversion: "none", transform: null };
	const toXyz = fromColumns(colorants.red, colorants.green, colorants.blue);
	if (!toXyz.flat().every(Number.isFinite)) return { conversion: "approximate", transform: null };
	return { conversion: "exact", transform: SrgbTransform.fromRgb(curves, toXyz) };
}

/** The plan for a file with an embedded profile, read with the decoders' colour model. */
function profilePlan(profile: IccProfile): SrgbPlan {
	if (profile.colourSpace === "RGB" && profile.colorants !== null) return matrixPlan(profile, profile.colorants);
	if (profile.colourSpace === "GRAY" && profile.greyCurve !== null) {
		return { conversion: "exact", transform: SrgbTransform.fromGrey(profile.greyCurve) };
	}
	// CMYK, lookup-table profiles and anything else: the decoders' RGB, as stated above.
	return { conversion: "approximate", transform: null };
}

/** How close gAMA must be to 1/2.2 (0.45455), and cHRM's values to sRGB's, for the pair to mean sRGB. */
const SRGB_GAMMA_TOLERANCE = 0.0005;
const SRGB_CHROMATICITY_TOLERANCE = 0.001;

/**
 * Whether gAMA 1/2.2 with sRGB's primaries (or no cHRM) stands for sRGB, as libpng takes it and as the
 * colour facts say: ImageMagick writes exactly these for an sRGB image.
 */
export function isSrgbByGamma(gamma: number, chromaticities: PngColourChunks["chromaticities"]): boolean {
	if (Math.abs(gamma - 1 / 2.2) > SRGB_GAMMA_TOLERANCE) return false;
	if (chromaticities === null) return true;
	return (["white", "red", "green", "blue"] as const).every((key) =>
		chromaticities[key].every(
			(value, axis) => Math.abs(value - (SRGB_PRIMARIES[key][axis] ?? 0)) <= SRGB_CHROMATICITY_TOLERANCE,
		),
	);
}

/** The plan for PNG's gAMA, with cHRM's primaries when present (else sRGB's). */
function gammaPlan(gamma: number, chromaticities: PngColourChunks["chromaticities"]): SrgbPlan {
	if (isSrgbByGamma(gamma, chromaticities)) return { conversion: "none", transform: null };
	const primaries: Primaries = chromaticities ?? SRGB_PRIMARIES;
	const toXyz = rgbToD50(primaries);
	if (!(gamma > 0) || !toXyz.flat().every(Number.isFinite)) return { conversion: "assumed_srgb", transform: null };
	// gAMA is the exponent that encoded the samples: linear light is the sample to its inverse.
	const curve: Curve = { kind: "gamma", gamma: 1 / gamma };
	return { conversion: "exact", transform: SrgbTransform.fromRgb([curve, curve, curve], toXyz) };
}

/** What a file carries of its colour, for the plan: its parsed profile, PNG's chunks, the model decoded. */
export type ColourTags = {
	profile: IccProfile | null;
	png: PngColourChunks | null;
	model: ColourFacts["model"] | null;
	exifColourSpace: ColourFacts["exif_colour_space"];
};

/** Whether a profile is for the samples the file holds (unknown samples: assumed so). */
function profileFits(profile: IccProfile, model: ColourFacts["model"] | null): boolean {
	if (model === null) return true;
	if (profile.colourSpace === "GRAY") return model === "grey";
	if (profile.colourSpace === "RGB") return model === "rgb" || model === "palette";
	return true;
}

/**
 * How a file's decoded rows become sRGB, by the same order of strength as its tagging: an embedded
 * profile, PNG's sRGB chunk, PNG's gAMA (with cHRM), EXIF's sRGB, nothing. A CMYK file is approximate
 * whatever it carries; a profile whose colour space is not the file's is ignored, as viewers do.
 */
export function planSrgbConversion(tags: ColourTags): SrgbPlan {
	const { profile, png, model } = tags;
	if (model === "cmyk") return { conversion: "approximate", transform: null };
	if (profile !== null && profileFits(profile, model)) return profilePlan(profile);
	if (png?.srgb_intent != null) return { conversion: "none", transform: null };
	if (png?.gamma != null) return gammaPlan(png.gamma, png.chromaticities);
	if (tags.exifColourSpace === "srgb") return { conversion: "none", transform: null };
	return { conversion: "assumed_srgb", transform: null };
}

/**
 * A sink that converts each band of rows to sRGB before handing it to `next` (the thumbnail's area
 * average): the average is then taken of sRGB values, as ImageMagick's `-profile … -scale` takes it.
 */
export class SrgbConvertingSink implements RasterSink {
	readonly #next: RasterSink;
	readonly #transform: SrgbTransform;
	#width = 0;
	#buffer = new Uint8Array(0);

	/** The alpha passes through untouched, asked for only when the next sink takes it. */
	readonly alpha?: (y: number, count: number, values: Uint8Array) => void;

	constructor(next: RasterSink, transform: SrgbTransform) {
		this.#next = next;
		this.#transform = transform;
		const takesAlpha = next.alpha?.bind(next);
		if (takesAlpha !== undefined) this.alpha = takesAlpha;
	}

	start(width: number, height: number): void {
		this.#width = width;
		this.#next.start(width, height);
	}

	rows(y: number, count: number, rgb: Uint8Array): void {
		const bytes = this.#width * count * 3;
		// Converted into a buffer of its own: the decoder's rows are its to reuse, never written to.
		if (this.#buffer.length < bytes) this.#buffer = new Uint8Array(bytes);
		const converted = this.#buffer.subarray(0, bytes);
		this.#transform.convert(rgb, converted, this.#width * count);
		this.#next.rows(y, count, converted);
	}
}
