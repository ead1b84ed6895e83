/**
 * Conversion to sRGB against known values. The expected values are lcms's own (Little CMS 2.14's
 * `transicc -n -t 1` from each profile to colord's sRGB.icc, rounded and clipped to 0..255).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { rgbToD50, SRGB_PRIMARIES } from "../../../src/imaging/colour/chromaticity.ts";
import {
	evaluateCurve,
	linearToSrgb,
	planSrgbConversion,
	SrgbConvertingSink,
	type SrgbPlan,
	SrgbTransform,
	srgbToLinear,
} from "../../../src/imaging/colour/convert.ts";
import type { PngColourChunks } from "../../../src/imaging/colour/facts.ts";
import { parseIccProfile } from "../../../src/imaging/colour/icc.ts";
import type { Curve, IccProfile, Xyz } from "../../../src/imaging/colour/profile.ts";
import type { ImageFormat } from "../../../src/imaging/formats.ts";
import { readColourProfile } from "../../../src/imaging/probe.ts";

const FIXTURES = path.resolve(import.meta.dirname, "../fixtures/colour");

/** An RGB matrix-and-curve profile built by hand: what the parser would give for these tags. */
function rgbProfile(colorants: [Xyz, Xyz, Xyz], curve: Curve): IccProfile {
	const [red, green, blue] = colorants;
	return {
		size: 0,
		colourSpace: "RGB",
		deviceClass: "mntr",
		pcs: "XYZ",
		version: "4.4.0",
		description: null,
		colorants: { red, green, blue },
		whitePoint: [0.9642, 1, 0.8249],
		adaptation: null,
		rgbCurves: [curve, curve, curve],
		greyCurve: null,
		hasLuts: false,
	};
}

/** colord's AdobeRGB1998.icc: its colorants and its curve (parametric type 0, γ 563/256). */
const ADOBE_RGB = rgbProfile(
	[
		[0.60963, 0.31104, 0.01947],
		[0.2054, 0.62576, 0.0609],
		[0.14917, 0.06319, 0.74452],
	],
	{ kind: "parametric", type: 0, params: [2.19921875] },
);

const GREY_LINEAR: IccProfile = {
	...rgbProfile(
		[
			[0, 0, 0],
			[0, 0, 0],
			[0, 0, 0],
		],
		{ kind: "identity" },
	),
	colourSpace: "GRAY",
	colorants: null,
	rgbCurves: null,
	greyCurve: { kind: "gamma", gamma: 1 },
};

const UNTAGGED = { profile: null, png: null, model: "rgb", exifColourSpace: null } as const;

/** The transform of a plan that must have one. */
function transformOf(plan: SrgbPlan): SrgbTransform {
	if (plan.transform === null) throw new Error(`no transform (conversion ${plan.conversion})`);
	return plan.transform;
}

function convert(transform: SrgbTransform, rgb: [number, number, number]): number[] {
	const out = new Uint8Array(3);
	transform.convert(Uint8Array.from(rgb), out, 1);
	return Array.from(out);
}

/** Each of `pairs` (input, lcms's output) converts to within 1 of lcms's output. */
function expectPairs(transform: SrgbTransform, pairs: [[number, number, number], number[]][]): void {
	for (const [input, expected] of pairs) {
		const got = convert(transform, input);
		got.forEach((value, channel) => {
			expect(Math.abs(value - (expected[channel] ?? -9)), `${input} → ${got}, lcms ${expected}`).toBeLessThanOrEqual(1);
		});
	}
}

async function fixtureProfile(name: string, format: ImageFormat): Promise<IccProfile> {
	const bytes = await readColourProfile(format, memorySource(readFileSync(path.join(FIXTURES, name))));
	const profile = bytes === null ? null : parseIccProfile(bytes);
	if (profile === null) throw new Error(`${name} has no profile that parses`);
	return profile;
}

describe("planSrgbConversion and SrgbTransform", () => {
	it("Adobe RGB (1998) converts as lcms does: pure red clipped to sRGB red, mid grey to grey", () => {
		const plan = planSrgbConversion({ ...UNTAGGED, profile: ADOBE_RGB });
		expect(plan.conversion).toBe("exact");
		expectPairs(transformOf(plan), [
			[
				[255, 0, 0],
				[255, 0, 0],
			],
			[
				[0, 255, 0],
				[0, 255, 0],
			],
			[
				[0, 0, 255],
				[0, 0, 255],
			],
			[
				[128, 128, 128],
				[129, 129, 129],
			],
			[
				[255, 255, 255],
				[255, 255, 255],
			],
			[
				[0, 0, 0],
				[0, 0, 0],
			],
			[
				[200, 100, 50],
				[227, 100, 42],
			],
			[
				[30, 60, 90],
				[0, 57, 91],
			],
		]);
	});

	it("ProPhoto (the 16-bit TIFF fixture's own profile) converts as lcms does", async () => {
		const plan = planSrgbConversion({ ...UNTAGGED, profile: await fixtureProfile("prophoto-16.tif", "tiff") });
		expect(plan.conversion).toBe("exact");
		expectPairs(transformOf(plan), [
			[
				[255, 0, 0],
				[255, 0, 0],
			],
			[
				[128, 128, 128],
				[146, 146, 146],
			],
			[
				[255, 255, 255],
				[255, 255, 255],
			],
			[
				[200, 100, 50],
				[255, 80, 47],
			],
			[
				[30, 60, 90],
				[0, 83, 114],
			],
		]);
	});

	it("Display P3 (the PNG fixture's iCCP profile) converts as lcms does", async () => {
		const plan = planSrgbConversion({ ...UNTAGGED, profile: await fixtureProfile("display-p3.png", "png") });
		expect(plan.conversion).toBe("exact");
		expectPairs(transformOf(plan), [
			[
				[255, 0, 0],
				[255, 0, 0],
			],
			[
				[128, 128, 128],
				[128, 128, 128],
			],
			[
				[200, 100, 50],
				[215, 93, 31],
			],
			[
				[30, 60, 90],
				[17, 61, 93],
			],
		]);
	});

	it("a grey profile's curve gives luminance, encoded by sRGB's curve (a linear grey's 64 is sRGB's 137)", () => {
		const plan = planSrgbConversion({ ...UNTAGGED, model: "grey", profile: GREY_LINEAR });
		expect(plan.conversion).toBe("exact");
		expectPairs(transformOf(plan), [
			[
				[0, 0, 0],
				[0, 0, 0],
			],
			[
				[64, 64, 64],
				[137, 137, 137],
			],
			[
				[128, 128, 128],
				[188, 188, 188],
			],
			[
				[255, 255, 255],
				[255, 255, 255],
			],
		]);
	});

	it("sRGB's profile needs nothing; forced through the matrix path it is the identity within 1", () => {
		const srgb = parseIccProfile(new Uint8Array(readFileSync(path.join(FIXTURES, "sRGB.icc"))));
		expect(planSrgbConversion({ ...UNTAGGED, profile: srgb })).toEqual({ conversion: "none", transform: null });
		const curve: Curve = { kind: "parametric", type: 3, params: [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045] };
		const identity = SrgbTransform.fromRgb([curve, curve, curve], rgbToD50(SRGB_PRIMARIES));
		let worst = 0;
		for (let value = 0; value < 256; value++) {
			for (const rgb of [
				[value, value, value],
				[value, 0, 0],
				[0, value, 0],
				[0, 0, value],
				[value, 255 - value, (value * 7) % 256],
			] as [number, number, number][]) {
				convert(identity, rgb).forEach((got, channel) => {
					worst = Math.max(worst, Math.abs(got - (rgb[channel] ?? 0)));
				});
			}
		}
		expect(worst).toBeLessThanOrEqual(1);
	});

	it("PNG's gAMA with Adobe RGB's cHRM converts as the Adobe RGB profile does, within 1", () => {
		const plan = planSrgbConversion({
			...UNTAGGED,
			png: {
				srgb_intent: null,
				gamma: 0.45455,
				chromaticities: { white: [0.3127, 0.329], red: [0.64, 0.33], green: [0.21, 0.71], blue: [0.15, 0.06] },
			},
		});
		expect(plan.conversion).toBe("exact");
		const adobe = transformOf(planSrgbConversion({ ...UNTAGGED, profile: ADOBE_RGB }));
		for (const rgb of [
			[255, 0, 0],
			[128, 128, 128],
			[200, 100, 50],
			[30, 60, 90],
		] as [number, number, number][]) {
			const ours = convert(transformOf(plan), rgb);
			convert(adobe, rgb).forEach((value, channel) => {
				expect(Math.abs(value - (ours[channel] ?? -9))).toBeLessThanOrEqual(1);
			});
		}
	});

	it("PNG's gAMA alone uses sRGB's primaries: gamma 1/1.8's mid grey is lighter than sRGB's", () => {
		const plan = planSrgbConversion({ ...UNTAGGED, png: { srgb_intent: null, gamma: 1 / 1.8, chromaticities: null } });
		expect(plan.conversion).toBe("exact");
		expect(convert(transformOf(plan), [255, 0, 0])).toEqual([255, 0, 0]);
		const grey = convert(transformOf(plan), [100, 100, 100])[0] ?? 0;
		expect(grey).toBe(Math.round(255 * linearToSrgb((100 / 255) ** 1.8)));
		expect(grey).toBeGreaterThan(100);
	});

	it("gAMA 1/2.2 with sRGB's primaries, or with no cHRM, stands for sRGB: nothing to do", () => {
		const srgbChromaticities: PngColourChunks["chromaticities"] = {
			white: [0.3127, 0.329],
			red: [0.64, 0.33],
			green: [0.3, 0.6],
			blue: [0.15, 0.06],
		};
		for (const chromaticities of [null, srgbChromaticities]) {
			expect(planSrgbConversion({ ...UNTAGGED, png: { srgb_intent: null, gamma: 0.45455, chromaticities } })).toEqual({
				conversion: "none",
				transform: null,
			});
		}
	});

	it("CMYK, and lookup-table profiles, are approximate: the decoders' RGB is kept", async () => {
		const cmyk = await fixtureProfile("cmyk.jpg", "jpeg");
		expect(cmyk.colourSpace).toBe("CMYK");
		expect(planSrgbConversion({ ...UNTAGGED, model: "cmyk", profile: cmyk })).toEqual({
			conversion: "approximate",
			transform: null,
		});
		expect(planSrgbConversion({ ...UNTAGGED, model: null, profile: cmyk }).conversion).toBe("approximate");
		const lutOnly: IccProfile = { ...ADOBE_RGB, colorants: null, rgbCurves: null, hasLuts: true };
		expect(planSrgbConversion({ ...UNTAGGED, profile: lutOnly })).toEqual({
			conversion: "approximate",
			transform: null,
		});
	});

	it("untagged is taken as sRGB; PNG's sRGB chunk and EXIF's sRGB need nothing", () => {
		expect(planSrgbConversion(UNTAGGED)).toEqual({ conversion: "assumed_srgb", transform: null });
		expect(planSrgbConversion({ ...UNTAGGED, png: { srgb_intent: 0, gamma: 0.45455, chromaticities: null } })).toEqual({
			conversion: "none",
			transform: null,
		});
		expect(planSrgbConversion({ ...UNTAGGED, exifColourSpace: "srgb" })).toEqual({
			conversion: "none",
			transform: null,
		});
		expect(planSrgbConversion({ ...UNTAGGED, exifColourSpace: "uncalibrated" }).conversion).toBe("assumed_srgb");
	});

	it("a profile for other samples than the file's (a grey profile on RGB) is ignored", () => {
		expect(planSrgbConversion({ ...UNTAGGED, profile: GREY_LINEAR })).toEqual({
			conversion: "assumed_srgb",
			transform: null,
		});
		expect(planSrgbConversion({ ...UNTAGGED, model: "grey", profile: ADOBE_RGB }).conversion).toBe("assumed_srgb");
	});
});

describe("evaluateCurve", () => {
	it("evaluates ICC parametric types 0 to 4, tables and gammas as the ICC defines them", () => {
		const [g, a, b, c, d, e, f] = [2.4, 0.9, 0.1, 0.08, 0.05, 0.02, 0.01];
		const x = 0.5;
		const low = 0.02;
		const para = (type: 0 | 1 | 2 | 3 | 4, params: number[], at: number) =>
			evaluateCurve({ kind: "parametric", type, params }, at);
		expect(para(0, [g], x)).toBeCloseTo(x ** g, 12);
		expect(para(1, [g, a, b], x)).toBeCloseTo((a * x + b) ** g, 12);
		expect(para(1, [g, a, -0.2], 0.1)).toBe(0);
		expect(para(2, [g, a, b, c], x)).toBeCloseTo((a * x + b) ** g + c, 12);
		expect(para(3, [g, a, b, c, d], x)).toBeCloseTo((a * x + b) ** g, 12);
		expect(para(3, [g, a, b, c, d], low)).toBeCloseTo(c * low, 12);
		expect(para(4, [g, a, b, c, d, e, f], x)).toBeCloseTo((a * x + b) ** g + e, 12);
		expect(para(4, [g, a, b, c, d, e, f], low)).toBeCloseTo(c * low + f, 12);
		expect(evaluateCurve({ kind: "gamma", gamma: 1.8 }, x)).toBeCloseTo(x ** 1.8, 12);
		expect(evaluateCurve({ kind: "identity" }, x)).toBe(x);
		expect(evaluateCurve({ kind: "table", values: Float64Array.of(0, 0.2, 1) }, 0.25)).toBeCloseTo(0.1, 12);
		expect(evaluateCurve({ kind: "table", values: Float64Array.of(0, 0.2, 1) }, 1)).toBe(1);
	});

	it("sRGB's curve and its inverse agree", () => {
		for (let value = 0; value <= 255; value++) {
			expect(linearToSrgb(srgbToLinear(value / 255)) * 255).toBeCloseTo(value, 9);
		}
	});
});

describe("SrgbConvertingSink", () => {
	it("converts each band before the next sink, leaving the decoder's rows untouched", () => {
		const seen: { y: number; count: number; rgb: number[] }[] = [];
		let size: number[] = [];
		const sink = new SrgbConvertingSink(
			{
				start: (width, height) => {
					size = [width, height];
				},
				rows: (y, count, rgb) => {
					seen.push({ y, count, rgb: Array.from(rgb) });
				},
			},
			transformOf(planSrgbConversion({ ...UNTAGGED, profile: ADOBE_RGB })),
		);
		sink.start(2, 3);
		const band = Uint8Array.of(255, 0, 0, 128, 128, 128, 200, 100, 50, 0, 0, 0);
		sink.rows(0, 2, band);
		sink.rows(2, 1, Uint8Array.of(255, 255, 255, 30, 60, 90));
		expect(size).toEqual([2, 3]);
		expect(Array.from(band)).toEqual([255, 0, 0, 128, 128, 128, 200, 100, 50, 0, 0, 0]);
		expect(seen.map(({ y, count }) => [y, count])).toEqual([
			[0, 2],
			[2, 1],
		]);
		expect(seen[0]?.rgb.slice(0, 6)).toEqual([255, 0, 0, 129, 129, 129]);
		expect(seen[1]?.rgb.length).toBe(6);
		expect(seen[1]?.rgb.slice(0, 3)).toEqual([255, 255, 255]);
	});

	it("passes the alpha on untouched, and asks for it only when the next sink takes it", () => {
		const transform = transformOf(planSrgbConversion({ ...UNTAGGED, profile: ADOBE_RGB }));
		const plain = { start: () => {}, rows: () => {} };
		expect(new SrgbConvertingSink(plain, transform).alpha).toBeUndefined();
		const handed: number[][] = [];
		const sink = new SrgbConvertingSink(
			{ ...plain, alpha: (_y, _count, values) => handed.push(Array.from(values)) },
			transform,
		);
		sink.start(2, 1);
		sink.alpha?.(0, 1, Uint8Array.of(0, 200));
		expect(handed).toEqual([[0, 200]]);
	});
});
