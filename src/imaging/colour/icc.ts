/**
 * ICC profiles (ICC.1:2010 and its v2 predecessor): the header, the tag table, and the tags a preflight
 * names and a conversion uses (description, colorants, white point, adaptation, tone curves). Read two
 * ways: whole, for the thumbnail's conversion (`parseIccProfile`), and by the few ranges the facts need,
 * for the inspection (`profileFactsOf`). Every offset and count is checked against the profile's bytes;
 * a tag that does not read is left out, never guessed.
 */
import type { KnownSpace, ProfileFacts } from "./facts.ts";
import type { Curve, IccProfile, Xyz } from "./profile.ts";

/** A profile's bytes wherever they lie (one range of a TIFF, APP2 segments of a JPEG, an inflated iCCP). */
export interface ProfileSource {
	/** The profile's length in bytes, as stored. */
	readonly size: number;
	/** Bytes from `offset` within the profile; fewer only at its end. */
	read(offset: number, length: number): Promise<Uint8Array>;
}

/** A profile's fixed header. */
const HEADER_BYTES = 128;
/** Most tags a table may list; real profiles carry a dozen or two, so more is a corrupt count. */
const MAX_TAGS = 256;
/** Most bytes of a description tag read (the text is a line; a longer tag is cut). */
const MAX_DESCRIPTION_BYTES = 4096;
/** Most entries of a `curv` table kept. */
const MAX_CURVE_ENTRIES = 65_536;
/** Most bytes a whole profile may have to be parsed for conversion. */
export const MAX_PROFILE_BYTES = 4 * 1024 * 1024;

/** A tag table entry: the tag's signature, and where its data is within the profile. */
type TagEntry = { offset: number; size: number };

/** The header's fields. */
type Header = { size: number; deviceClass: string; colourSpace: string; pcs: string; version: string };

function ascii(bytes: Uint8Array, from: number, length: number): string {
	let text = "";
	for (let index = from; index < from + length && index < bytes.length; index++) {
		text += String.fromCharCode(bytes[index] ?? 0);
	}
	return text;
}

function view(bytes: Uint8Array): DataView {
	return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The header, or null when the bytes are not an ICC profile (no `acsp` signature, or too short). */
function headerOf(bytes: Uint8Array): Header | null {
	if (bytes.length < HEADER_BYTES || ascii(bytes, 36, 4) !== "acsp") return null;
	const data = view(bytes);
	const major = bytes[8] ?? 0;
	const minor = (bytes[9] ?? 0) >> 4;
	const bugfix = (bytes[9] ?? 0) & 15;
	return {
		size: data.getUint32(0),
		deviceClass: ascii(bytes, 12, 4).trim(),
		colourSpace: ascii(bytes, 16, 4).trim(),
		pcs: ascii(bytes, 20, 4).trim(),
		version: `${major}.${minor}.${bugfix}`,
	};
}

/** The tag table from its count's bytes on; entries pointing outside `size` are dropped. */
function tagTableOf(table: Uint8Array, size: number): Map<string, TagEntry> {
	const tags = new Map<string, TagEntry>();
	if (table.length < 4) return tags;
	const data = view(table);
	const count = Math.min(data.getUint32(0), MAX_TAGS, Math.floor((table.length - 4) / 12));
	for (let index = 0; index < count; index++) {
		const at = 4 + 12 * index;
		const signature = ascii(table, at, 4);
		const offset = data.getUint32(at + 4);
		const length = data.getUint32(at + 8);
		if (offset < HEADER_BYTES || length < 8 || offset + length > size || tags.has(signature)) continue;
		tags.set(signature, { offset, size: length });
	}
	return tags;
}

/** s15Fixed16Number at `at`. */
function fixed(data: DataView, at: number): number {
	return data.getInt32(at) / 65536;
}

/** An `XYZ ` tag's first value. */
function xyzOf(tag: Uint8Array): Xyz | null {
	if (tag.length < 20 || ascii(tag, 0, 4) !== "XYZ ") return null;
	const data = view(tag);
	return [fixed(data, 8), fixed(data, 12), fixed(data, 16)];
}

/** Parameters each `para` function type carries. */
const PARAMETRIC_COUNTS = [1, 3, 4, 5, 7] as const;

/** A `curv` or `para` tag as a curve, or null when it is neither or does not read. */
export function curveOf(tag: Uint8Array): Curve | null {
	if (tag.length < 12) return null;
	const data = view(tag);
	const type = ascii(tag, 0, 4);
	if (type === "curv") {
		const count = data.getUint32(8);
		if (count === 0) return { kind: "identity" };
		if (count === 1) {
			if (tag.length < 14) return null;
			const gamma = data.getUint16(12) / 256;
			return gamma > 0 ? { kind: "gamma", gamma } : null;
		}
		if (count > MAX_CURVE_ENTRIES || tag.length < 12 + 2 * count) return null;
		const values = new Float64Array(count);
		for (let index = 0; index < count; index++) values[index] = data.getUint16(12 + 2 * index) / 65535;
		return { kind: "table", values };
	}
	if (type === "para") {
		const functionType = data.getUint16(8);
		if (functionType > 4) return null;
		const count = PARAMETRIC_COUNTS[functionType] ?? 1;
		if (tag.length < 12 + 4 * count) return null;
		const params: number[] = [];
		for (let index = 0; index < count; index++) params.push(fixed(data, 12 + 4 * index));
		if (!params.every(Number.isFinite) || (params[0] ?? 0) <= 0) return null;
		return { kind: "parametric", type: functionType as 0 | 1 | 2 | 3 | 4, params };
	}
	return null;
}

/** An `sf32` tag of nine values (the chromatic adaptation matrix), or null. */
function matrixOf(tag: Uint8Array): number[] | null {
	if (tag.length < 44 || ascii(tag, 0, 4) !== "sf32") return null;
	const data = view(tag);
	return Array.from({ length: 9 }, (_, index) => fixed(data, 8 + 4 * index));
}

/** A UTF-16BE run as text. */
function utf16(bytes: Uint8Array, from: number, length: number): string {
	let text = "";
	for (let at = from; at + 1 < from + length && at + 1 < bytes.length; at += 2) {
		text += String.fromCharCode(((bytes[at] ?? 0) << 8) | (bytes[at + 1] ?? 0));
	}
	return text;
}

/**
 * The description: v2's `desc` (its ASCII part), v4's `mluc` (the en-US record, else any English, else
 * the first), or a plain `text`; trimmed, control characters dropped, null when nothing reads.
 */
export function descriptionOf(tag: Uint8Array): string | null {
	if (tag.length < 12) return null;
	const data = view(tag);
	const type = ascii(tag, 0, 4);
	let text: string | null = null;
	if (type === "desc") {
		const count = data.getUint32(8);
		text = ascii(tag, 12, Math.min(count, tag.length - 12));
	} else if (type === "text") {
		text = ascii(tag, 8, tag.length - 8);
	} else if (type === "mluc" && tag.length >= 16) {
		const records = data.getUint32(8);
		const recordSize = data.getUint32(12);
		if (recordSize < 12) return null;
		let chosen: { offset: number; length: number; rank: number } | null = null;
		for (let index = 0; index < records && 16 + (index + 1) * recordSize <= tag.length; index++) {
			const at = 16 + index * recordSize;
			const language = ascii(tag, at, 2);
			const country = ascii(tag, at + 2, 2);
			const rank = language === "en" ? (country === "US" ? 0 : 1) : 2;
			if (chosen === null || rank < chosen.rank) {
				chosen = { offset: data.getUint32(at + 8), length: data.getUint32(at + 4), rank };
			}
		}
		if (chosen !== null && chosen.offset + chosen.length <= tag.length) {
			text = utf16(tag, chosen.offset, chosen.length);
		}
	}
	if (text === null) return null;
	// biome-ignore lint/suspicious/noControlCharactersInRegex: a profile's text is shown to people: no control characters.
	const clean = text.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
	return clean === "" ? null : clean.slice(0, 200);
}

/**
 * The D50-adapted colorants of the RGB spaces previews know by name (Bradford adaptation, as the ICC's
 * own profiles of them carry). A profile is that space when each of its nine values is within 0.005.
 */
const KNOWN_COLORANTS: Record<KnownSpace, readonly [Xyz, Xyz, Xyz]> = {
	srgb: [
		[0.4361, 0.2225, 0.0139],
		[0.3851, 0.7169, 0.0971],
		[0.1431, 0.0606, 0.7141],
	],
	adobe_rgb_1998: [
		[0.6097, 0.3111, 0.0195],
		[0.2053, 0.6257, 0.0609],
		[0.1492, 0.0632, 0.7446],
	],
	display_p3: [
		[0.5151, 0.2412, -0.0011],
		[0.292, 0.6922, 0.0419],
		[0.1571, 0.0666, 0.7841],
	],
	prophoto_rgb: [
		[0.7977, 0.288, 0],
		[0.1352, 0.7119, 0],
		[0.0313, 0.0001, 0.8249],
	],
};

/** How close each colorant value must be to a known space's. */
const KNOWN_SPACE_TOLERANCE = 0.005;

/** The named RGB space whose colorants these are, or null. */
export function knownSpaceOf(colorants: IccProfile["colorants"]): KnownSpace | null {
	if (colorants === null) return null;
	const ours = [colorants.red, colorants.green, colorants.blue];
	for (const [space, theirs] of Object.entries(KNOWN_COLORANTS) as [KnownSpace, readonly [Xyz, Xyz, Xyz]][]) {
		const close = theirs.every((xyz, index) =>
			xyz.every((value, axis) => Math.abs(value - (ours[index]?.[axis] ?? Number.NaN)) <= KNOWN_SPACE_TOLERANCE),
		);
		if (close) return space;
	}
	return null;
}

/** What kind of conversion a profile allows, from the tags it has. */
function kindOf(
	colourSpace: string,
	has: (signature: string) => boolean,
	readable: { matrix: boolean; grey: boolean },
): ProfileFacts["kind"] {
	if (colourSpace === "RGB" && readable.matrix) return "matrix_trc";
	if (colourSpace === "GRAY" && readable.grey) return "grey_trc";
	if (has("A2B0") || has("A2B1") || has("B2A0")) return "lut";
	return "unreadable";
}

/** The tags a matrix-and-curve RGB profile needs. */
const MATRIX_TAGS = ["rXYZ", "gXYZ", "bXYZ", "rTRC", "gTRC", "bTRC"] as const;

/**
 * A whole profile parsed for conversion, or null when the bytes are not an ICC profile. Tags that do
 * not read are null; the conversion decides what it can do with the rest.
 */
export function parseIccProfile(bytes: Uint8Array): IccProfile | null {
	const header = headerOf(bytes);
	if (header === null) return null;
	const size = Math.min(header.size, bytes.length);
	const tags = tagTableOf(bytes.subarray(HEADER_BYTES, size), size);
	const tag = (signature: string): Uint8Array | null => {
		const entry = tags.get(signature);
		return entry === undefined ? null : bytes.subarray(entry.offset, entry.offset + entry.size);
	};
	const read = <T>(signature: string, parse: (data: Uint8Array) => T | null): T | null => {
		const data = tag(signature);
		return data === null ? null : parse(data);
	};
	const red = read("rXYZ", xyzOf);
	const green = read("gXYZ", xyzOf);
	const blue = read("bXYZ", xyzOf);
	const curves = [read("rTRC", curveOf), read("gTRC", curveOf), read("bTRC", curveOf)] as const;
	const [r, g, b] = curves;
	return {
		size: header.size,
		colourSpace: header.colourSpace,
		deviceClass: header.deviceClass,
		pcs: header.pcs,
		version: header.version,
		description: read("desc", descriptionOf),
		colorants: red !== null && green !== null && blue !== null ? { red, green, blue } : null,
		whitePoint: read("wtpt", xyzOf),
		adaptation: read("chad", matrixOf),
		rgbCurves: r !== null && g !== null && b !== null ? [r, g, b] : null,
		greyCurve: read("kTRC", curveOf),
		hasLuts: tags.has("A2B0") || tags.has("A2B1") || tags.has("B2A0"),
	};
}

/** The facts of a parsed profile, as the inspection reports them. */
export function factsOfProfile(profile: IccProfile): ProfileFacts {
	const matrix = profile.colorants !== null && profile.rgbCurves !== null;
	return {
		description: profile.description,
		colour_space: profile.colourSpace,
		device_class: profile.deviceClass,
		version: profile.version,
		size_bytes: profile.size,
		kind: kindOf(profile.colourSpace, () => profile.hasLuts, { matrix, grey: profile.greyCurve !== null }),
		known_space: profile.colourSpace === "RGB" ? knownSpaceOf(profile.colorants) : null,
	};
}

/** What a profile too damaged to read at all reports: its declared size, nothing else. */
export function unreadableProfile(size: number): ProfileFacts {
	return {
		description: null,
		colour_space: "",
		device_class: "",
		version: "",
		size_bytes: size,
		kind: "unreadable",
		known_space: null,
	};
}

/**
 * A profile's facts from the few ranges they need: the header, the tag table, the description and,
 * for an RGB or grey profile, the colorant and curve tags (a few hundred bytes between them). A large
 * lookup-table profile (a CMYK press profile runs to hundreds of KiB) costs no more than a small one.
 */
export async function profileFactsOf(source: ProfileSource): Promise<ProfileFacts> {
	const head = await source.read(0, HEADER_BYTES + 4);
	const header = headerOf(head);
	if (header === null) return unreadableProfile(source.size);
	const size = Math.min(header.size, source.size);
	const count = Math.min(view(head).getUint32(HEADER_BYTES), MAX_TAGS);
	const table = await source.read(HEADER_BYTES, 4 + 12 * count);
	const tags = tagTableOf(table, size);
	const readTag = async (signature: string, most: number): Promise<Uint8Array | null> => {
		const entry = tags.get(signature);
		if (entry === undefined) return null;
		return source.read(entry.offset, Math.min(entry.size, most));
	};
	const descriptionTag = await readTag("desc", MAX_DESCRIPTION_BYTES);
	let colorants: IccProfile["colorants"] = null;
	let matrix = false;
	let grey = false;
	if (header.colourSpace === "RGB" && MATRIX_TAGS.every((signature) => tags.has(signature))) {
		// One tag at a time: the reader shares its cached blocks between reads in turn, not between reads at once.
		const xyz: (Xyz | null)[] = [];
		for (const name of ["rXYZ", "gXYZ", "bXYZ"]) {
			const data = await readTag(name, 20);
			xyz.push(data === null ? null : xyzOf(data));
		}
		const [r, g, b] = xyz;
		if (r !== null && r !== undefined && g !== null && g !== undefined && b !== null && b !== undefined) {
			colorants = { red: r, green: g, blue: b };
		}
		// The curves are checked for their type only: a table's entries are the conversion's business.
		const curveHeads: (Uint8Array | null)[] = [];
		for (const name of ["rTRC", "gTRC", "bTRC"]) curveHeads.push(await readTag(name, 4));
		matrix = colorants !== null && curveHeads.every((data) => data !== null && isCurveType(data));
	} else if (header.colourSpace === "GRAY" && tags.has("kTRC")) {
		const data = await readTag("kTRC", 4);
		grey = data !== null && isCurveType(data);
	}
	return {
		description: descriptionTag === null ? null : descriptionOf(descriptionTag),
		colour_space: header.colourSpace,
		device_class: header.deviceClass,
		version: header.version,
		size_bytes: header.size,
		kind: kindOf(header.colourSpace, (signature) => tags.has(signature), { matrix, grey }),
		known_space: header.colourSpace === "RGB" ? knownSpaceOf(colorants) : null,
	};
}

function isCurveType(data: Uint8Array): boolean {
	const type = ascii(data, 0, 4);
	return type === "curv" || type === "para";
}
