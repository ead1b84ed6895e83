/**
 * What a print file's headers say of its colour, read by the inspection's bounded reads and stored with
 * the file: the colour model, bits per sample, alpha, and how the colours are tagged (an embedded ICC
 * profile, PNG's sRGB or gAMA/cHRM chunks, EXIF's colour space, or nothing). The same shape is stored
 * (as JSON on the file's row) and returned in the file's `preflight.colour`.
 */

/** How the samples are coded: RGB (JPEG's YCbCr included), grey, CMYK (JPEG's YCCK included), or a palette of RGB. */
export const COLOUR_MODELS = ["rgb", "grey", "cmyk", "palette"] as const;
/** One of COLOUR_MODELS. */
export type ColourModel = (typeof COLOUR_MODELS)[number];

/**
 * Where the colours' meaning comes from, strongest first: an embedded ICC profile (JPEG APP2, PNG iCCP,
 * TIFF tag 34675), PNG's sRGB chunk, PNG's gAMA (with cHRM or not), EXIF's ColorSpace tag saying sRGB,
 * or nothing at all (`untagged`, read as sRGB and warned about).
 */
export const COLOUR_TAGGINGS = ["icc_profile", "png_srgb", "png_gamma", "exif_srgb", "untagged"] as const;
/** One of COLOUR_TAGGINGS. */
export type ColourTagging = (typeof COLOUR_TAGGINGS)[number];

/** The RGB spaces told by their profile's primaries and white point, which previews convert exactly. */
export const KNOWN_SPACES = ["srgb", "adobe_rgb_1998", "display_p3", "prophoto_rgb"] as const;
/** One of KNOWN_SPACES. */
export type KnownSpace = (typeof KNOWN_SPACES)[number];

/**
 * How the thumbnail and framed previews are brought to sRGB: `none` (the file is sRGB already),
 * `exact` (a matrix-and-curve profile, a grey curve, or PNG's gamma and chromaticities), `approximate`
 * (a CMYK file, or a profile built on lookup tables: a stated formula instead), `assumed_srgb` (no
 * tagging: the samples are taken as sRGB).
 */
export const CONVERSIONS = ["none", "exact", "approximate", "assumed_srgb"] as const;
/** One of CONVERSIONS. */
export type Conversion = (typeof CONVERSIONS)[number];

/** An embedded ICC profile, as its header and description tag say. */
export type ProfileFacts = {
	/** The `desc` tag's English text (v2 `desc`, v4 `mluc`), or null when it has none that reads. */
	description: string | null;
	/** The header's data colour space: "RGB", "GRAY", "CMYK", "Lab" and so on (trailing spaces dropped). */
	colour_space: string;
	/** The header's profile class: "mntr", "scnr", "prtr", "spac", "link", "abst", "nmcl". */
	device_class: string;
	/** The header's version, e.g. "2.1.0" or "4.4.0". */
	version: string;
	/** The profile's size in bytes, as its header declares it. */
	size_bytes: number;
	/** `matrix_trc` (RGB primaries and curves), `grey_trc` (one grey curve), `lut` (lookup tables) or `unreadable`. */
	kind: "matrix_trc" | "grey_trc" | "lut" | "unreadable";
	/** The RGB space its primaries and white match (to 0.002 in XYZ), or null. */
	known_space: KnownSpace | null;
};

/** PNG's own colour chunks, when the file is a PNG that has any. */
export type PngColourChunks = {
	/** The sRGB chunk's rendering intent (0 to 3), or null without one. */
	srgb_intent: number | null;
	/** gAMA's value (e.g. 0.45455), or null without one. */
	gamma: number | null;
	/** cHRM's white point and primaries as CIE xy, or null without one. */
	chromaticities: {
		white: [number, number];
		red: [number, number];
		green: [number, number];
		blue: [number, number];
	} | null;
};

/** What the headers say of a file's colour. */
export type ColourFacts = {
	model: ColourModel;
	bits_per_sample: number;
	alpha: boolean;
	tagging: ColourTagging;
	profile: ProfileFacts | null;
	png: PngColourChunks | null;
	/** EXIF's ColorSpace tag (0xA001): 1 is `srgb`, 0xFFFF `uncalibrated`; null without the tag. */
	exif_colour_space: "srgb" | "uncalibrated" | null;
	conversion: Conversion;
};
