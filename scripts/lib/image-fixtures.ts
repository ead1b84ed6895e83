/**
 * Print files of any size for benchmarks, built in memory. Only the headers are real: the parsers
 * under test never decode pixels, so the bodies are filler.
 */
import { crc32, deflateSync } from "node:zlib";

/**
 * A baseline RGB TIFF, little-endian, one strip of `bodyBytes` right after the header, the IFD at the
 * end; with `profile`, that ICC profile (tag 34675) lies between the strip and the IFD.
 */
export function tiffWithIfdAtEnd(width: number, height: number, bodyBytes: number, profile?: Uint8Array): Uint8Array {
	const profileAt = 8 + bodyBytes;
	const profileBytes = profile?.byteLength ?? 0;
	const entries: Array<[tag: number, type: number, value: number, count?: number]> = [
		[256, 4, width],
		[257, 4, height],
		[258, 3, 8],
		[259, 3, 1],
		[262, 3, 2],
		[273, 4, 8],
		[277, 3, 3],
		[278, 4, height],
		[279, 4, bodyBytes],
		...(profile === undefined ? [] : [[34675, 7, profileAt, profileBytes] as [number, number, number, number]]),
	];
	const ifdOffset = profileAt + profileBytes + (profileBytes % 2);
	const ifdSize = 2 + entries.length * 12 + 4;
	const file = new Uint8Array(ifdOffset + ifdSize);
	const view = new DataView(file.buffer);
	file.set([0x49, 0x49, 42, 0]);
	view.setUint32(4, ifdOffset, true);
	if (profile !== undefined) file.set(profile, profileAt);
	view.setUint16(ifdOffset, entries.length, true);
	entries.forEach(([tag, type, value, count = 1], index) => {
		const at = ifdOffset + 2 + index * 12;
		view.setUint16(at, tag, true);
		view.setUint16(at + 2, type, true);
		view.setUint32(at + 4, count, true);
		if (type === 3) view.setUint16(at + 8, value, true);
		else view.setUint32(at + 8, value, true);
	});
	return file;
}

/**
 * A JPEG: SOI, with `profile` that ICC profile in APP2 pieces of up to 65,519 bytes, `appBytes` of APP1
 * segments, a baseline SOF0, a scan of filler bytes, EOI.
 */
export function jpegWithAppSegments(
	width: number,
	height: number,
	appBytes: number,
	totalBytes: number,
	profile?: Uint8Array,
): Uint8Array {
	const parts: Uint8Array[] = [Uint8Array.of(0xff, 0xd8)];
	if (profile !== undefined) parts.push(...iccSegments(profile));
	let remaining = appBytes;
	while (remaining > 0) {
		const payload = Math.min(65_533, remaining);
		const segment = new Uint8Array(4 + payload).fill(0x41);
		segment.set([0xff, 0xe1, (payload + 2) >> 8, (payload + 2) & 0xff]);
		parts.push(segment);
		remaining -= payload;
	}
	parts.push(
		Uint8Array.of(
			0xff,
			0xc0,
			0,
			17,
			8,
			height >> 8,
			height & 0xff,
			width >> 8,
			width & 0xff,
			3,
			1,
			0x22,
			0,
			2,
			0x11,
			1,
			3,
			0x11,
			1,
		),
		Uint8Array.of(0xff, 0xda, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 63, 0),
	);
	const headerBytes = parts.reduce((sum, part) => sum + part.byteLength, 0);
	parts.push(new Uint8Array(Math.max(0, totalBytes - headerBytes - 2)).fill(0x55), Uint8Array.of(0xff, 0xd9));
	return Buffer.concat(parts);
}

/** An ICC profile as the APP2 segments a JPEG carries it in: "ICC_PROFILE\0", sequence number, count, piece. */
function iccSegments(profile: Uint8Array): Uint8Array[] {
	const pieceBytes = 65_519;
	const count = Math.ceil(profile.byteLength / pieceBytes);
	return Array.from({ length: count }, (_, index) => {
		const piece = profile.subarray(index * pieceBytes, (index + 1) * pieceBytes);
		const segment = new Uint8Array(4 + 14 + piece.byteLength);
		const length = 2 + 14 + piece.byteLength;
		segment.set([0xff, 0xe2, length >> 8, length & 0xff]);
		segment.set(new TextEncoder().encode("ICC_PROFILE\0"), 4);
		segment.set([index + 1, count], 16);
		segment.set(piece, 18);
		return segment;
	});
}

/** One PNG chunk: length, type, data and CRC. */
export function pngChunk(type: string, data: Uint8Array): Uint8Array {
	const chunk = new Uint8Array(12 + data.byteLength);
	const view = new DataView(chunk.buffer);
	view.setUint32(0, data.byteLength);
	chunk.set(new TextEncoder().encode(type), 4);
	chunk.set(data, 8);
	view.setUint32(8 + data.byteLength, crc32(chunk.subarray(4, 8 + data.byteLength)));
	return chunk;
}

/** A PNG: signature, IHDR, with `profile` an iCCP chunk of it, one IDAT of `idatBytes`, IEND. */
export function pngOfSize(width: number, height: number, idatBytes: number, profile?: Uint8Array): Uint8Array {
	const ihdr = new Uint8Array(13);
	const view = new DataView(ihdr.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	ihdr.set([8, 2, 0, 0, 0], 8);
	return Buffer.concat([
		Uint8Array.of(0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a),
		pngChunk("IHDR", ihdr),
		...(profile === undefined
			? []
			: [pngChunk("iCCP", Buffer.concat([new TextEncoder().encode("ICC\0\0"), deflateSync(profile)]))]),
		pngChunk("IDAT", new Uint8Array(idatBytes)),
		pngChunk("IEND", new Uint8Array(0)),
	]);
}
