/**
 * A PNG's colour, from IHDR and the chunks before its image data: the colour type and depth, a tRNS
 * chunk (alpha), and the colour chunks: sRGB, gAMA, cHRM and iCCP (its profile inflated here, bounded).
 * Only chunk heads are read on the way, and the bodies of those few chunks.
 */
import type { PngColourChunks } from "../colour/facts.ts";
import { MAX_PROFILE_BYTES } from "../colour/icc.ts";
import { type ColourParts, memoryProfile } from "../colour/parts.ts";
import { ImageFault } from "../fault.ts";
import { inflate } from "../inflate.ts";
import type { ByteCursor } from "../reader.ts";
import { type Header, nextChunk } from "./chunks.ts";

/** Most chunks walked before the image data; past them the colour chunks are taken as absent. */
const MAX_CHUNKS_BEFORE_IDAT = 64;
/** Most compressed bytes of an iCCP chunk read (a matrix profile compresses to a few hundred bytes). */
const MAX_ICCP_BYTES = 256 * 1024;

/** The colour model and alpha of a colour type. */
function modelOf(header: Header): Pick<ColourParts, "model" | "alpha"> {
	switch (header.colorType) {
		case 0:
			return { model: "grey", alpha: false };
		case 4:
			return { model: "grey", alpha: true };
		case 3:
			return { model: "palette", alpha: false };
		case 6:
			return { model: "rgb", alpha: true };
		default:
			return { model: "rgb", alpha: false };
	}
}

/** The profile of an iCCP body (name, NUL, method 0, zlib data), inflated; `unreadable` when it does not inflate. */
async function iccpProfile(body: Uint8Array): Promise<ColourParts["profile"]> {
	const nul = body.indexOf(0);
	if (nul < 1 || nul > 79 || body[nul + 1] !== 0) return "unreadable";
	const pieces: Uint8Array[] = [];
	let total = 0;
	try {
		for await (const piece of inflate(once(body.subarray(nul + 2)), MAX_PROFILE_BYTES)) {
			pieces.push(piece.slice());
			total += piece.length;
		}
	} catch (error) {
		if (error instanceof ImageFault) return "unreadable";
		throw error;
	}
	const bytes = new Uint8Array(total);
	let at = 0;
	for (const piece of pieces) {
		bytes.set(piece, at);
		at += piece.length;
	}
	return memoryProfile(bytes);
}

/** One piece of compressed data, as the inflater takes it. */
async function* once(piece: Uint8Array): AsyncGenerator<Uint8Array> {
	yield piece;
}

/** A cHRM body's eight values (hundred-thousandths) as xy pairs. */
function chromaticitiesOf(body: Uint8Array): PngColourChunks["chromaticities"] {
	const data = new DataView(body.buffer, body.byteOffset, body.byteLength);
	const pair = (at: number): [number, number] => [data.getUint32(at) / 100_000, data.getUint32(at + 4) / 100_000];
	return { white: pair(0), red: pair(8), green: pair(16), blue: pair(24) };
}

/**
 * The colour of a PNG whose cursor stands after IHDR: walks the chunks up to the first IDAT (or the
 * file's end), reading only the colour chunks' bodies.
 */
export async function pngColour(cursor: ByteCursor, header: Header): Promise<ColourParts> {
	const { model, alpha: ownAlpha } = modelOf(header);
	const chunks: PngColourChunks = { srgb_intent: null, gamma: null, chromaticities: null };
	let profile: ColourParts["profile"] = null;
	let transparency = false;
	for (let walked = 0; walked < MAX_CHUNKS_BEFORE_IDAT && cursor.offset + 12 <= cursor.size; walked++) {
		const { type, length } = await nextChunk(cursor);
		if (type === "IDAT" || type === "IEND") break;
		if (cursor.offset + length + 4 > cursor.size) break;
		if (type === "sRGB" && length === 1) {
			// Only one of each is allowed; should a file repeat one, the first counts.
			const intent = (await cursor.take(1, "the PNG's sRGB chunk"))[0] ?? 0;
			chunks.srgb_intent ??= intent;
			cursor.skip(4);
		} else if (type === "gAMA" && length === 4) {
			const body = await cursor.take(4, "the PNG's gAMA chunk");
			const gamma = new DataView(body.buffer, body.byteOffset, 4).getUint32(0) / 100_000;
			chunks.gamma = gamma > 0 ? gamma : null;
			cursor.skip(4);
		} else if (type === "cHRM" && length === 32) {
			chunks.chromaticities = chromaticitiesOf((await cursor.take(32, "the PNG's cHRM chunk")).slice());
			cursor.skip(4);
		} else if (type === "iCCP" && profile === null) {
			profile =
				length > MAX_ICCP_BYTES
					? "unreadable"
					: await iccpProfile((await cursor.take(length, "the PNG's iCCP chunk")).slice());
			if (length > MAX_ICCP_BYTES) cursor.skip(length);
			cursor.skip(4);
		} else {
			if (type === "tRNS") transparency = true;
			cursor.skip(length + 4);
		}
	}
	const anyChunk = chunks.srgb_intent !== null || chunks.gamma !== null || chunks.chromaticities !== null;
	return {
		model,
		bitsPerSample: header.depth,
		alpha: ownAlpha || transparency,
		profile,
		png: anyChunk ? chunks : null,
		exifColourSpace: null,
	};
}
