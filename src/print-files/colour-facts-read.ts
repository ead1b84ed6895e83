/**
 * A print file's stored colour facts (`print_files.colour_facts`, JSON written by the inspection) read
 * back into their shape. A column that is empty, not JSON, or not the shape reads as null: the facts are
 * then unknown, as for a file inspected before they were read, and nothing is warned about them.
 */
import { z } from "@hono/zod-openapi";
import { parsedJson } from "../http/stored-json.ts";
import {
	COLOUR_MODELS,
	COLOUR_TAGGINGS,
	CONVERSIONS,
	type ColourFacts,
	KNOWN_SPACES,
} from "../imaging/colour/facts.ts";

const xy = z.tuple([z.number(), z.number()]);

/** ColourFacts as stored (and as `preflight.colour` answers them). */
export const ColourFactsSchema = z
	.object({
		model: z.enum(COLOUR_MODELS),
		bits_per_sample: z.number().int(),
		alpha: z.boolean(),
		tagging: z.enum(COLOUR_TAGGINGS),
		profile: z
			.object({
				description: z.string().nullable(),
				colour_space: z.string(),
				device_class: z.string(),
				version: z.string(),
				size_bytes: z.number().int(),
				kind: z.enum(["matrix_trc", "grey_trc", "lut", "unreadable"]),
				known_space: z.enum(KNOWN_SPACES).nullable(),
			})
			.nullable(),
		png: z
			.object({
				srgb_intent: z.number().int().nullable(),
				gamma: z.number().nullable(),
				chromaticities: z.object({ white: xy, red: xy, green: xy, blue: xy }).nullable(),
			})
			.nullable(),
		exif_colour_space: z.enum(["srgb", "uncalibrated"]).nullable(),
		conversion: z.enum(CONVERSIONS),
	})
	.openapi("PrintFileColour", {
		example: {
			model: "rgb",
			bits_per_sample: 16,
			alpha: false,
			tagging: "icc_profile",
			profile: {
				description: "Adobe RGB (1998)",
				colour_space: "RGB",
				device_class: "mntr",
				version: "2.1.0",
				size_bytes: 560,
				kind: "matrix_trc",
				known_space: "adobe_rgb_1998",
			},
			png: null,
			exif_colour_space: null,
			conversion: "exact",
		},
		description:
			"What the file's headers say of its colour: model, bits, alpha, how it is tagged (ICC profile, PNG sRGB or gamma chunks, EXIF colour space, or untagged), the profile's header and description, and how previews bring it to sRGB.",
	}) satisfies z.ZodType<ColourFacts>;

/** The stored colour facts, or null when none were recorded or they do not read. */
export function colourFactsOf(stored: string | null): ColourFacts | null {
	return stored === null ? null : parsedJson(stored, ColourFactsSchema);
}
