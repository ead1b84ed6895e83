/**
 * A file's colour facts from what its format's probe found (the model, bits, alpha, where any ICC
 * profile lies, PNG's colour chunks, EXIF's colour space), and the whole profile for the thumbnail's
 * conversion. The probes find the parts; this reads the profile's facts and says how the file is
 * tagged and how its colours are brought to sRGB.
 */

import { ImageFault } from "../fault.ts";
import type { ByteReader } from "../reader.ts";
import { isSrgbByGamma } from "./convert.ts";
import type { ColourFacts, ColourModel, ColourTagging, Conversion, PngColourChunks, ProfileFacts } from "./facts.ts";
import { MAX_PROFILE_BYTES, type ProfileSource, profileFactsOf, unreadableProfile } from "./icc.ts";

/** What a format's probe finds of a file's colour. */
export type ColourParts = {
	model: ColourModel;
	bitsPerSample: number;
	alpha: boolean;
	/** The embedded profile's bytes, `unreadable` when one is there but cannot be put together, or null. */
	profile: ProfileSource | "unreadable" | null;
	png: PngColourChunks | null;
	exifColourSpace: ColourFacts["exif_colour_space"];
};

/** A profile held in memory (an inflated iCCP, or one read whole). */
export function memoryProfile(bytes: Uint8Array): ProfileSource {
	return {
		size: bytes.length,
		read: (offset, length) => Promise.resolve(bytes.subarray(offset, offset + length)),
	};
}

/**
 * A profile lying in pieces of a file, in order (a JPEG's APP2 segments; a TIFF's one range), read
 * through `reader` by the ranges asked for, never whole unless asked.
 */
export function piecedProfile(reader: ByteReader, pieces: readonly { at: number; length: number }[]): ProfileSource {
	const size = pieces.reduce((sum, piece) => sum + piece.length, 0);
	return {
		size,
		async read(offset, length) {
			const end = Math.min(size, offset + Math.max(0, length));
			if (end <= offset) return new Uint8Array(0);
			const out = new Uint8Array(end - offset);
			let pieceStart = 0;
			for (const piece of pieces) {
				const pieceEnd = pieceStart + piece.length;
				const from = Math.max(offset, pieceStart);
				const to = Math.min(end, pieceEnd);
				if (from < to) out.set(await reader.read(piece.at + (from - pieceStart), to - from), from - offset);
				pieceStart = pieceEnd;
				if (pieceStart >= end) break;
			}
			return out;
		},
	};
}

/** The facts of a profile the probe found; a fault in it (other than storage failing) makes it unreadable, never the file. */
async function profileFacts(profile: ProfileSource | "unreadable"): Promise<ProfileFacts> {
	if (profile === "unreadable") return unreadableProfile(0);
	try {
		return await profileFactsOf(profile);
	} catch (error) {
		if (error instanceof ImageFault && error.reason === "read_failed") throw error;
		if (!(error instanceof ImageFault) && !(error instanceof RangeError)) throw error;
		return unreadableProfile(profile.size);
	}
}

/** How a file is tagged: its profile first, then PNG's sRGB, then PNG's gamma, then EXIF's sRGB. */
function taggingOf(parts: ColourParts): ColourTagging {
	if (parts.profile !== null) return "icc_profile";
	if (parts.png?.srgb_intent != null) return "png_srgb";
	if (parts.png?.gamma != null) return "png_gamma";
	if (parts.exifColourSpace === "srgb") return "exif_srgb";
	return "untagged";
}

/** How the file's colours reach sRGB. */
function conversionOf(
	model: ColourModel,
	tagging: ColourTagging,
	profile: ProfileFacts | null,
	png: PngColourChunks | null,
): Conversion {
	if (model === "cmyk") return "approximate";
	switch (tagging) {
		case "icc_profile":
			if (profile === null) return "approximate";
			if (profile.known_space === "srgb") return "none";
			return profile.kind === "matrix_trc" || profile.kind === "grey_trc" ? "exact" : "approximate";
		case "png_srgb":
		case "exif_srgb":
			return "none";
		case "png_gamma":
			return png?.gamma != null && isSrgbByGamma(png.gamma, png.chromaticities) ? "none" : "exact";
		case "untagged":
			return "assumed_srgb";
	}
}

/** The colour facts of a probed file. */
export async function factsOfColourParts(parts: ColourParts): Promise<ColourFacts> {
	const tagging = taggingOf(parts);
	const profile = parts.profile === null ? null : await profileFacts(parts.profile);
	return {
		model: parts.model,
		bits_per_sample: parts.bitsPerSample,
		alpha: parts.alpha,
		tagging,
		profile,
		png: parts.png,
		exif_colour_space: parts.exifColourSpace,
		conversion: conversionOf(parts.model, tagging, profile, parts.png),
	};
}

/** The whole of a profile the probe found, for the conversion: null when there is none, it does not read or it is too large. */
export async function wholeProfile(parts: ColourParts | null): Promise<Uint8Array | null> {
	const profile = parts?.profile ?? null;
	if (profile === null || profile === "unreadable" || profile.size > MAX_PROFILE_BYTES) return null;
	const bytes = await profile.read(0, profile.size);
	return bytes.length === profile.size ? bytes : null;
}

/**
 * A format's colour parts, or null when reading them met a fault of the file's (a chunk or segment
 * cut short, say): the colour is then not known, and the file is judged as before. Storage failing is
 * not the file's fault and is thrown on.
 */
export async function colourOrNone(reading: Promise<ColourParts | null>): Promise<ColourParts | null> {
	try {
		return await reading;
	} catch (error) {
		if (error instanceof ImageFault && error.reason !== "read_failed") return null;
		throw error;
	}
}
