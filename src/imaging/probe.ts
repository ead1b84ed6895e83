import type { ByteSource } from "./byte-source.ts";
import type { ColourFacts } from "./colour/facts.ts";
import { factsOfColourParts, wholeProfile } from "./colour/parts.ts";
import { type HeaderFaultReason, ImageFault, isHeaderFault } from "./fault.ts";
import { detectFormat, FORMAT_NAMES, type ImageFormat, type ProbedHeader } from "./formats.ts";
import { probeJpeg } from "./jpeg/probe.ts";
import { checkDimensions } from "./limits.ts";
import { probePng } from "./png/probe.ts";
import { ByteReader, type ReaderOptions } from "./reader.ts";
import { probeTiff } from "./tiff/probe.ts";

/** What a probe says of a file: its format and pixel size, or why it is not a usable image. */
export type Inspection =
	| ({ ok: true; format: ImageFormat; colour: ColourFacts | null } & Omit<ProbedHeader, "colour">)
	| {
			ok: false;
			format: ImageFormat | null;
			reason: HeaderFaultReason;
			/** A sentence for the partner, e.g. "The PNG ends before its IEND chunk: the file is truncated." */
			message: string;
	  };

const PROBES: Record<ImageFormat, (reader: ByteReader) => Promise<ProbedHeader>> = {
	tiff: probeTiff,
	png: probePng,
	jpeg: probeJpeg,
};

/**
 * Probes a stored file from its header alone, with a few ranged reads. Never throws: anything that
 * goes wrong, down to a bug in a probe, is an invalid result with a reason.
 */
export async function probeImage(source: ByteSource, options: ReaderOptions = {}): Promise<Inspection> {
	if (source.size === 0) return { ok: false, format: null, reason: "empty_file", message: "The file is empty." };
	const reader = new ByteReader(source, options);
	let head: Uint8Array;
	try {
		head = await reader.read(0, 4);
	} catch (error) {
		return invalid(null, error);
	}
	const format = detectFormat(head);
	if (format === null) {
		return {
			ok: false,
			format: null,
			reason: "unsupported_format",
			message: "The file is not a TIFF, PNG or JPEG image: its first bytes match none of them.",
		};
	}
	const inspection = await probeFormat(format, reader);
	if (!inspection.ok) return inspection;
	try {
		checkDimensions(format, inspection.widthPx, inspection.heightPx);
		return inspection;
	} catch (error) {
		return invalid(format, error);
	}
}

/** One format's probe of a file (its size not yet checked against the limits), its fault turned into an invalid result. */
export async function probeFormat(format: ImageFormat, reader: ByteReader): Promise<Inspection> {
	try {
		const { colour, ...header } = await PROBES[format](reader);
		return { ok: true, format, ...header, colour: colour === null ? null : await factsOfColourParts(colour) };
	} catch (error) {
		return invalid(format, error);
	}
}

/** The invalid result for what a probe threw: its fault, or (anything else being a bug) a corrupt header. */
function invalid(format: ImageFormat | null, error: unknown): Inspection {
	if (error instanceof ImageFault && isHeaderFault(error.reason)) {
		return { ok: false, format, reason: error.reason, message: error.message };
	}
	const name = format === null ? "file" : FORMAT_NAMES[format];
	return {
		ok: false,
		format,
		reason: "corrupt_header",
		message: `The ${name} header could not be read: it is corrupt.`,
	};
}

/**
 * The whole ICC profile embedded in a file (JPEG APP2 pieces, PNG iCCP, TIFF tag 34675), found by the
 * format's probe, for the thumbnail's conversion to sRGB; null when it has none, or one that does not
 * read or passes MAX_PROFILE_BYTES. Throws ImageFault when the header itself does not read.
 */
export async function readColourProfile(format: ImageFormat, source: ByteSource): Promise<Uint8Array | null> {
	const reader = new ByteReader(source, { readLimit: Number.POSITIVE_INFINITY });
	const { colour } = await PROBES[format](reader);
	return wholeProfile(colour);
}
