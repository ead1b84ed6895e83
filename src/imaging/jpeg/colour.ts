/**
 * A JPEG's colour, from what its probe walks past: the frame's components and precision, the ICC profile split across APP2 segments ("ICC_PROFILE", each with its sequence
 * number and the count), and EXIF's colour space in APP1. Only each segment's head is read on the walk;
 * the profile's pieces and the EXIF directories are read afterwards by the ranges they need.
 */
import { exifColourSpace } from "../colour/exif.ts";
import { type ColourParts, piecedProfile } from "../colour/parts.ts";
import type { ByteReader } from "../reader.ts";
import type { Frame } from "./segments.ts";

/** An APP2 segment's head: "ICC_PROFILE\0", the sequence number and the count. */
export const ICC_HEAD_BYTES = 14;
/** An APP1 segment's EXIF head: "Exif\0\0". */
export const EXIF_HEAD_BYTES = 6;

/** One APP2 piece of a profile: its place in the sequence, and where its bytes are in the file. */
export type ProfilePiece = { sequence: number; count: number; at: number; length: number };

/** What the walk collects for the colour. */
export type JpegColourFinds = {
	pieces: ProfilePiece[];
	/** Where the first EXIF APP1's TIFF structure is in the file, and its length. */
	exif: { at: number; length: number } | null;
};

/** Whether an APP2 head is an ICC profile's; its sequence and count when it is. */
export function iccPieceHead(head: Uint8Array): { sequence: number; count: number } | null {
	if (head.length < ICC_HEAD_BYTES || String.fromCharCode(...head.subarray(0, 12)) !== "ICC_PROFILE\0") return null;
	return { sequence: head[12] ?? 0, count: head[13] ?? 0 };
}

/** Whether an APP1 head is EXIF's. */
export function isExifHead(head: Uint8Array): boolean {
	return head.length >= EXIF_HEAD_BYTES && String.fromCharCode(...head.subarray(0, 6)) === "Exif\0\0";
}

/** The profile's pieces in order, or `unreadable` when they do not make one whole (a gap, a repeat, counts that differ). */
function profileOf(reader: ByteReader, pieces: ProfilePiece[]): ColourParts["profile"] {
	if (pieces.length === 0) return null;
	const count = pieces[0]?.count ?? 0;
	const ordered = [...pieces].sort((a, b) => a.sequence - b.sequence);
	const whole =
		count === pieces.length && ordered.every((piece, index) => piece.count === count && piece.sequence === index + 1);
	return whole ? piecedProfile(reader, ordered) : "unreadable";
}

/** The JPEG's colour parts, from its frame, Adobe's transform and what the walk found. */
export async function jpegColour(reader: ByteReader, frame: Frame, finds: JpegColourFinds): Promise<ColourParts> {
	const components = frame.components.length;
	// Four components are CMYK whether coded so or as YCCK (Adobe's transform 2): the model is what prints.
	const model = components === 1 ? "grey" : components === 4 ? "cmyk" : "rgb";
	const exif = finds.exif;
	const exifColour =
		exif === null
			? null
			: await exifColourSpace(
					(offset, length) => reader.read(exif.at + offset, Math.max(0, Math.min(length, exif.length - offset))),
					exif.length,
				);
	return {
		model,
		bitsPerSample: frame.precision,
		alpha: false,
		profile: profileOf(reader, finds.pieces),
		png: null,
		exifColourSpace: exifColour,
	};
}
