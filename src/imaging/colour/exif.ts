/**
 * EXIF's ColorSpace tag (0xA001 in the Exif IFD): 1 says sRGB, 0xFFFF uncalibrated (often Adobe RGB
 * with the profile left out). Read from a TIFF structure (a JPEG's APP1 body, or a TIFF file itself)
 * by two small directory reads, every offset checked against where the structure ends.
 */

/** Reads `length` bytes at `offset` of the TIFF structure (relative to its byte-order mark). */
export type StructureRead = (offset: number, length: number) => Promise<Uint8Array>;

/** The Exif IFD's pointer in IFD0. */
export const EXIF_IFD_TAG = 0x8769;
const COLOUR_SPACE_TAG = 0xa001;
/** Most entries an IFD read here may claim. */
const MAX_ENTRIES = 512;

/** The entries of the IFD at `at`: each tag's type, count and 4-byte value field. */
async function entriesAt(
	read: StructureRead,
	end: number,
	little: boolean,
	at: number,
): Promise<Map<number, { type: number; count: number; value: DataView }>> {
	const entries = new Map<number, { type: number; count: number; value: DataView }>();
	if (at < 8 || at + 2 > end) return entries;
	const head = await read(at, 2);
	if (head.length < 2) return entries;
	const count = new DataView(head.buffer, head.byteOffset, 2).getUint16(0, little);
	if (count === 0 || count > MAX_ENTRIES || at + 2 + 12 * count > end) return entries;
	const bytes = await read(at + 2, 12 * count);
	if (bytes.length < 12 * count) return entries;
	const data = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	for (let index = 0; index < count; index++) {
		const start = 12 * index;
		const tag = data.getUint16(start, little);
		if (entries.has(tag)) continue;
		entries.set(tag, {
			type: data.getUint16(start + 2, little),
			count: data.getUint32(start + 4, little),
			value: new DataView(bytes.buffer, bytes.byteOffset + start + 8, 4),
		});
	}
	return entries;
}

/** The colour space an Exif IFD at `exifAt` states, or null without the tag. */
export async function exifColourSpaceAt(
	read: StructureRead,
	end: number,
	little: boolean,
	exifAt: number,
): Promise<"srgb" | "uncalibrated" | null> {
	const exif = await entriesAt(read, end, little, exifAt);
	const entry = exif.get(COLOUR_SPACE_TAG);
	if (entry === undefined || entry.type !== 3 || entry.count !== 1) return null;
	const value = entry.value.getUint16(0, little);
	return value === 1 ? "srgb" : value === 0xffff ? "uncalibrated" : null;
}

/** The colour space of a whole TIFF structure (a JPEG's APP1 after "Exif\0\0"): IFD0, then its Exif IFD. */
export async function exifColourSpace(read: StructureRead, end: number): Promise<"srgb" | "uncalibrated" | null> {
	if (end < 8) return null;
	const head = await read(0, 8);
	if (head.length < 8) return null;
	const order = String.fromCharCode(head[0] ?? 0, head[1] ?? 0);
	if (order !== "II" && order !== "MM") return null;
	const little = order === "II";
	const data = new DataView(head.buffer, head.byteOffset, 8);
	if (data.getUint16(2, little) !== 42) return null;
	const ifd0 = await entriesAt(read, end, little, data.getUint32(4, little));
	const pointer = ifd0.get(EXIF_IFD_TAG);
	if (pointer === undefined || pointer.count !== 1 || (pointer.type !== 4 && pointer.type !== 13)) return null;
	return exifColourSpaceAt(read, end, little, pointer.value.getUint32(0, little));
}
