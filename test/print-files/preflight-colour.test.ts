/**
 * The preflight of files made by real tools (test/imaging/fixtures/colour/, made with ImageMagick,
 * exiftool and libtiff), uploaded through the API: each report names the file's colour model and
 * profile as its tools say, and the colour warnings reach each size's reasons in the catalog's words.
 */
import { describe, expect, it } from "vitest";
import { api, createPartner } from "../helpers.ts";
import adobeRgbJpeg from "../imaging/fixtures/colour/adobe-rgb.jpg?inline";
import cmykJpeg from "../imaging/fixtures/colour/cmyk.jpg?inline";
import cmykTiff from "../imaging/fixtures/colour/cmyk.tif?inline";
import displayP3Png from "../imaging/fixtures/colour/display-p3.png?inline";
import exifSrgbJpeg from "../imaging/fixtures/colour/exif-srgb.jpg?inline";
import greyPng from "../imaging/fixtures/colour/grey-linear.png?inline";
import prophotoTiff from "../imaging/fixtures/colour/prophoto-16.tif?inline";
import rgb16Png from "../imaging/fixtures/colour/rgb-16.png?inline";
import rgbaPng from "../imaging/fixtures/colour/rgba.png?inline";
import srgbJpeg from "../imaging/fixtures/colour/srgb.jpg?inline";
import untaggedPng from "../imaging/fixtures/colour/untagged.png?inline";
import { uploadImage } from "./upload-helpers.ts";

/** The bytes of a `data:` URL. */
function bytesOf(dataUrl: string): Uint8Array {
	const base64 = dataUrl.slice(dataUrl.indexOf(",") + 1);
	return Uint8Array.from(atob(base64), (char) => char.charCodeAt(0));
}

type Case = {
	file: string;
	type: string;
	model: string;
	bits: number;
	alpha: boolean;
	tagging: string;
	profile: string | null;
	knownSpace?: string | null;
	conversion: string;
	warning: string | null;
};

const CASES: Case[] = [
	{
		file: srgbJpeg,
		type: "image/jpeg",
		model: "rgb",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "sRGB",
		knownSpace: "srgb",
		conversion: "none",
		warning: null,
	},
	{
		file: adobeRgbJpeg,
		type: "image/jpeg",
		model: "rgb",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "Compatible with Adobe RGB (1998)",
		knownSpace: "adobe_rgb_1998",
		conversion: "exact",
		warning: null,
	},
	{
		file: displayP3Png,
		type: "image/png",
		model: "rgb",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "Display P3",
		knownSpace: "display_p3",
		conversion: "exact",
		warning: null,
	},
	{
		file: prophotoTiff,
		type: "image/tiff",
		model: "rgb",
		bits: 16,
		alpha: false,
		tagging: "icc_profile",
		profile: "ProPhoto RGB",
		knownSpace: "prophoto_rgb",
		conversion: "exact",
		warning: null,
	},
	{
		file: greyPng,
		type: "image/png",
		model: "grey",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "Gray",
		knownSpace: null,
		conversion: "exact",
		warning: null,
	},
	{
		file: cmykJpeg,
		type: "image/jpeg",
		model: "cmyk",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "Artifex CMYK SWOP Profile",
		conversion: "approximate",
		warning: "cmyk_converted",
	},
	{
		file: cmykTiff,
		type: "image/tiff",
		model: "cmyk",
		bits: 8,
		alpha: false,
		tagging: "icc_profile",
		profile: "Artifex CMYK SWOP Profile",
		conversion: "approximate",
		warning: "cmyk_converted",
	},
	{
		file: untaggedPng,
		type: "image/png",
		model: "rgb",
		bits: 8,
		alpha: false,
		tagging: "untagged",
		profile: null,
		conversion: "assumed_srgb",
		warning: "untagged_colour",
	},
	{
		file: rgb16Png,
		type: "image/png",
		model: "rgb",
		bits: 16,
		alpha: false,
		tagging: "png_srgb",
		profile: null,
		conversion: "none",
		warning: null,
	},
	{
		file: rgbaPng,
		type: "image/png",
		model: "rgb",
		bits: 8,
		alpha: true,
		tagging: "png_srgb",
		profile: null,
		conversion: "none",
		warning: null,
	},
	{
		file: exifSrgbJpeg,
		type: "image/jpeg",
		model: "rgb",
		bits: 8,
		alpha: false,
		tagging: "exif_srgb",
		profile: null,
		conversion: "none",
		warning: null,
	},
];

type Preflight = {
	colour: {
		model: string;
		bits_per_sample: number;
		alpha: boolean;
		tagging: string;
		conversion: string;
		profile: { description: string | null; known_space: string | null } | null;
	} | null;
	sizes: { verdict: string; reasons: { code: string; message: string }[] }[];
};

describe("the preflight of files made by ImageMagick, exiftool and libtiff", () => {
	it.each(CASES.map((entry) => [entry.profile ?? entry.tagging, entry.model, entry] as const))(
		"%s (%s): the report names the model and profile, with the colour warning where there is one",
		async (_name, _model, entry) => {
			const partner = await createPartner();
			const key = partner.keys.live.key;
			const id = await uploadImage(key, bytesOf(entry.file), entry.type);
			const response = await api(`/v1/print-files/${id}?size=4x6`, { key });
			expect(response.status).toBe(200);
			const { preflight } = (await response.json()) as { preflight: Preflight };
			expect(preflight.colour).toMatchObject({
				model: entry.model,
				bits_per_sample: entry.bits,
				alpha: entry.alpha,
				tagging: entry.tagging,
				conversion: entry.conversion,
			});
			expect(preflight.colour?.profile?.description ?? null).toBe(entry.profile);
			if (entry.knownSpace !== undefined) expect(preflight.colour?.profile?.known_space).toBe(entry.knownSpace);
			const codes = preflight.sizes[0]?.reasons.map((reason) => reason.code) ?? [];
			if (entry.warning === null) {
				expect(codes).not.toContain("cmyk_converted");
				expect(codes).not.toContain("untagged_colour");
			} else {
				// Beside the resolution's refusal: a 192 × 128 px fixture is 32 DPI at 4 × 6 in.
				expect(codes).toContain(entry.warning);
			}
		},
	);
});
