/**
 * The warnings an item (on a quote or an order) and a print file's preflight carry: accepted, but worth
 * a look before it prints. Never a refusal or a hold, so not errors: the error catalog is error-catalog.ts.
 * docs/errors.md documents each one (a test holds the two in step).
 * A leaf: it imports nothing.
 */

/** A warning: what it means, and what the partner does about it (nothing needs an answer). */
type WarningEntry = { meaning: string; action: string };

/** Every warning, in the order an item lists them. */
export const WARNING_CODES = {
	low_resolution: {
		meaning: "the file gives 150 to 299 DPI at the item's size (300 is the aim)",
		action: "if the print matters, send a larger file with `PATCH` while it is still on hold, or accept it",
	},
	image_cropped: {
		meaning: 'with `fit: "fill"`, more than 2% of the image is cut off',
		action: 'send a file of the print\'s proportions, or use `fit: "fit"` to keep the whole image',
	},
	image_letterboxed: {
		meaning: 'with `fit: "fit"`, a white band wider than 1/4 in shows beside the image (a mat hides 1/8 in of it)',
		action: 'send a file of the print\'s proportions, or use `fit: "fill"` to cover the print',
	},
	cmyk_converted: {
		meaning: "the file is CMYK: it prints converted to RGB, and its colours may shift",
		action: "send an RGB file (sRGB or Adobe RGB with its profile) if the colours matter",
	},
	untagged_colour: {
		meaning: "the file has no ICC profile or colour tag: its colours are taken as sRGB",
		action: "export the file with its profile embedded if it is not sRGB",
	},
	near_uniform_image: {
		meaning: "the image is almost one flat colour: probably a blank or broken export",
		action: "look at the file's thumbnail; send the right file if it is not what should print",
	},
	mostly_transparent: {
		meaning: "most of the image is transparent, which prints as white paper",
		action: "flatten the image onto its background, or send the right file",
	},
	mostly_white: {
		meaning: "almost all of the image is white",
		action: "look at the file's thumbnail; send the right file if it is not what should print",
	},
	mostly_black: {
		meaning: "almost all of the image is black",
		action: "look at the file's thumbnail; send the right file if it is not what should print",
	},
} as const satisfies Record<string, WarningEntry>;

/** A warning's code, one of WARNING_CODES. */
export type WarningCode = keyof typeof WARNING_CODES;
