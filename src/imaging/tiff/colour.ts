/**
 * A TIFF's colour, from its first directory: the photometric interpretation, samples and bits, extra
 * samples (alpha), the ICC profile of tag 34675 (read later by the ranges its facts need) and EXIF's
 * colour space in the Exif IFD (tag 34665).
 */
import { EXIF_IFD_TAG, exifColourSpaceAt } from "../colour/exif.ts";
import type { ColourModel } from "../colour/facts.ts";
import { type ColourParts, piecedProfile } from "../colour/parts.ts";
import type { ByteReader } from "../reader.ts";
import { type Directory, type Entry, TAG, valuesOf } from "./directory.ts";

/** InterColorProfile: the embedded ICC profile, as UNDEFINED (or BYTE) values. */
export const ICC_PROFILE_TAG = 34675;

/** The colour model of each photometric interpretation read (0 and 1 grey, 2 RGB, 3 palette, 5 separated, 6 YCbCr). */
const MODELS: ReadonlyMap<number, ColourModel> = new Map([
	[0, "grey"],
	[1, "grey"],
	[2, "rgb"],
	[3, "palette"],
	[5, "cmyk"],
	[6, "rgb"],
]);

/** Colour channels of each model, before any extra samples. */
const CHANNELS: Record<ColourModel, number> = { grey: 1, rgb: 3, palette: 1, cmyk: 4 };

/** Where an entry's values are when they do not fit in its field: the offset the field holds. */
function pointedOffset(entry: Entry, directory: Directory): number {
	const { field } = entry;
	const data = new DataView(field.buffer, field.byteOffset, field.byteLength);
	const little = directory.layout.littleEndian;
	if (!directory.layout.bigTiff) return data.getUint32(0, little);
	const first = data.getUint32(0, little);
	const second = data.getUint32(4, little);
	return little ? second * 2 ** 32 + first : first * 2 ** 32 + second;
}

/** The TIFF's colour parts; null for a photometric interpretation without a model here (CIELab and the like). */
export async function tiffColour(reader: ByteReader, directory: Directory): Promise<ColourParts | null> {
	const { layout, entries } = directory;
	const first = async (tag: number, fallback: number): Promise<number> => {
		const entry = entries.get(tag);
		if (entry === undefined) return fallback;
		const [value] = await valuesOf(reader, layout, entry, 0, 1);
		return value ?? fallback;
	};
	const photometric = await first(TAG.photometric, -1);
	const model = MODELS.get(photometric);
	if (model === undefined) return null;
	const samples = await first(TAG.samplesPerPixel, 1);
	const extra = entries.get(TAG.extraSamples);
	const extraKinds = extra === undefined ? [] : await valuesOf(reader, layout, extra, 0, Math.min(extra.count, 8));
	const profileEntry = entries.get(ICC_PROFILE_TAG);
	let profile: ColourParts["profile"] = null;
	if (profileEntry !== undefined && (profileEntry.type === 7 || profileEntry.type === 1)) {
		const at = profileEntry.count > layout.wordSize ? pointedOffset(profileEntry, directory) : -1;
		profile =
			at >= 0 && at + profileEntry.count <= reader.size
				? piecedProfile(reader, [{ at, length: profileEntry.count }])
				: "unreadable";
	}
	const exifEntry = entries.get(EXIF_IFD_TAG);
	// A BigTIFF's Exif IFD has BigTIFF's wider entries, which the EXIF reader does not walk.
	const exifAt = exifEntry === undefined || layout.bigTiff ? null : await first(EXIF_IFD_TAG, 0);
	return {
		model,
		bitsPerSample: await first(TAG.bitsPerSample, 1),
		// Extra samples of kind 1 (associated) or 2 (unassociated) are alpha; a fourth RGB sample with none declared is taken as alpha too.
		alpha: extraKinds.some((kind) => kind === 1 || kind === 2) || (extra === undefined && samples > CHANNELS[model]),
		profile,
		png: null,
		exifColourSpace:
			exifAt === null || exifAt === 0
				? null
				: await exifColourSpaceAt(
						(offset, length) => reader.read(offset, length),
						reader.size,
						layout.littleEndian,
						exifAt,
					),
	};
}
