/**
 * The colour facts of files made by real tools (test/imaging/fixtures/colour/, made by
 * scripts/make-colour-fixtures.sh with ImageMagick, exiftool and libtiff): each names its model, depth,
 * alpha, tagging, profile and conversion as the tools that wrote it say (the folder's README).
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../src/imaging/byte-source.ts";
import type { ColourFacts } from "../../src/imaging/colour/facts.ts";
import { probeImage } from "../../src/imaging/probe.ts";

const FOLDER = path.join(import.meta.dirname, "fixtures", "colour");

type Expected = Pick<ColourFacts, "model" | "bits_per_sample" | "alpha" | "tagging" | "conversion"> & {
	profile: Partial<NonNullable<ColourFacts["profile"]>> | null;
};

const rgb8 = { model: "rgb", bits_per_sample: 8, alpha: false } as const;

const FILES: Record<string, Expected> = {
	"srgb.jpg": {
		...rgb8,
		tagging: "icc_profile",
		conversion: "none",
		profile: {
			description: "sRGB",
			colour_space: "RGB",
			device_class: "mntr",
			version: "4.4.0",
			kind: "matrix_trc",
			known_space: "srgb",
		},
	},
	"adobe-rgb.jpg": {
		...rgb8,
		tagging: "icc_profile",
		conversion: "exact",
		profile: {
			description: "Compatible with Adobe RGB (1998)",
			colour_space: "RGB",
			version: "4.4.0",
			kind: "matrix_trc",
			known_space: "adobe_rgb_1998",
		},
	},
	"display-p3.png": {
		...rgb8,
		tagging: "icc_profile",
		conversion: "exact",
		profile: { description: "Display P3", colour_space: "RGB", kind: "matrix_trc", known_space: "display_p3" },
	},
	"prophoto-16.tif": {
		model: "rgb",
		bits_per_sample: 16,
		alpha: false,
		tagging: "icc_profile",
		conversion: "exact",
		profile: {
			description: "ProPhoto RGB",
			colour_space: "RGB",
			size_bytes: 19_688,
			kind: "matrix_trc",
			known_space: "prophoto_rgb",
		},
	},
	"grey-linear.png": {
		model: "grey",
		bits_per_sample: 8,
		alpha: false,
		tagging: "icc_profile",
		conversion: "exact",
		profile: {
			description: "Gray",
			colour_space: "GRAY",
			version: "2.3.0",
			size_bytes: 420,
			kind: "grey_trc",
			known_space: null,
		},
	},
	"cmyk.jpg": {
		model: "cmyk",
		bits_per_sample: 8,
		alpha: false,
		tagging: "icc_profile",
		conversion: "approximate",
		profile: {
			description: "Artifex CMYK SWOP Profile",
			colour_space: "CMYK",
			device_class: "prtr",
			version: "2.1.0",
			kind: "lut",
		},
	},
	"cmyk.tif": {
		model: "cmyk",
		bits_per_sample: 8,
		alpha: false,
		tagging: "icc_profile",
		conversion: "approximate",
		profile: { description: "Artifex CMYK SWOP Profile", colour_space: "CMYK", size_bytes: 187_484, kind: "lut" },
	},
	"untagged.png": { ...rgb8, tagging: "untagged", conversion: "assumed_srgb", profile: null },
	"rgb-16.png": {
		model: "rgb",
		bits_per_sample: 16,
		alpha: false,
		tagging: "png_srgb",
		conversion: "none",
		profile: null,
	},
	"rgba.png": { model: "rgb", bits_per_sample: 8, alpha: true, tagging: "png_srgb", conversion: "none", profile: null },
	"gamma-chrm.png": { ...rgb8, tagging: "png_gamma", conversion: "exact", profile: null },
	"exif-srgb.jpg": { ...rgb8, tagging: "exif_srgb", conversion: "none", profile: null },
};

describe("colour facts of files made by ImageMagick, exiftool and libtiff", () => {
	it.each(Object.entries(FILES))("%s reads as its tools say", async (name, expected) => {
		const source = memorySource(new Uint8Array(readFileSync(path.join(FOLDER, name))));
		const inspection = await probeImage(source);
		expect(inspection.ok).toBe(true);
		const colour = inspection.ok ? inspection.colour : null;
		const { profile, ...rest } = expected;
		expect(colour).toMatchObject(rest);
		if (profile === null) expect(colour?.profile).toBeNull();
		else expect(colour?.profile).toMatchObject(profile);
	});

	it("the PNG chunks and EXIF tag are reported as written", async () => {
		const read = async (name: string) => {
			const inspection = await probeImage(memorySource(new Uint8Array(readFileSync(path.join(FOLDER, name)))));
			return inspection.ok ? inspection.colour : null;
		};
		expect((await read("gamma-chrm.png"))?.png).toEqual({
			srgb_intent: null,
			gamma: 0.45455,
			chromaticities: { white: [0.3127, 0.329], red: [0.64, 0.33], green: [0.21, 0.71], blue: [0.15, 0.06] },
		});
		expect((await read("rgb-16.png"))?.png).toMatchObject({ srgb_intent: 0 });
		expect((await read("exif-srgb.jpg"))?.exif_colour_space).toBe("srgb");
	});
});
