/**
 * The inflater (PNG's image data, Deflate TIFF strips and tiles) and the TIFF LZW and PackBits decoders
 * are paced by their consumer: data that expands a thousandfold is decoded a bounded piece at a time, as
 * it is taken, never ahead into a buffer the size of the image. Run in workerd, whose own
 * DecompressionStream takes its whole input without waiting for its output to be read.
 */
import { describe, expect, it } from "vitest";
import { INFLATE_BUFFER_BYTES, INFLATE_PIECE_BYTES, inflate } from "../../src/imaging/inflate.ts";
import { CODED_PIECE_BYTES, LzwDecoder, PackBitsDecoder } from "../../src/imaging/lzw.ts";
import { thumbnailReasonOf } from "./decode-helpers.ts";
import { concat } from "./fixtures/bytes.ts";
import { lzwEncode, packBitsEncode } from "./fixtures/tiff-pixels.ts";

/** zlib data (CompressionStream's) of `size` bytes made by `fill`, a MiB at a time: the raw bytes never exist whole. */
async function zlibOf(size: number, fill: (piece: Uint8Array, offset: number) => void): Promise<Uint8Array> {
	let offset = 0;
	const raw = new ReadableStream<Uint8Array>({
		pull(controller) {
			if (offset >= size) {
				controller.close();
				return;
			}
			const piece = new Uint8Array(Math.min(1024 * 1024, size - offset));
			fill(piece, offset);
			offset += piece.length;
			controller.enqueue(piece);
		},
	});
	return new Uint8Array(await new Response(raw.pipeThrough(new CompressionStream("deflate"))).arrayBuffer());
}

/** `bytes` as an async iterable of `size`-byte pieces, counting what has been pulled. */
function pieces(bytes: Uint8Array, size: number): AsyncIterable<Uint8Array> & { pulled: number } {
	const source = {
		pulled: 0,
		async *[Symbol.asyncIterator]() {
			for (let at = 0; at < bytes.length; at += size) {
				const piece = bytes.subarray(at, at + size);
				source.pulled += piece.length;
				yield piece;
			}
		},
	};
	return source;
}

/** Everything `inflate` hands out, joined. */
async function inflated(zlib: Uint8Array, pieceSize: number, expected: number): Promise<Uint8Array> {
	const out: Uint8Array[] = [];
	for await (const piece of inflate(pieces(zlib, pieceSize), expected)) out.push(piece.slice());
	return concat(...out);
}

/** The reason inflating `zlib` gives up with, or "inflated". */
async function inflateOutcome(zlib: Uint8Array, expected: number): Promise<string> {
	try {
		await inflated(zlib, 1024, expected);
		return "inflated";
	} catch (error) {
		return thumbnailReasonOf(error);
	}
}

/** Bytes with short and long repeats, runs and noise: every kind of block and match deflate writes. */
function mixed(size: number, seed: number): Uint8Array {
	const bytes = new Uint8Array(size);
	let state = seed;
	for (let at = 0; at < size; at++) {
		state = (state * 1103515245 + 12345) >>> 0;
		const region = (at >> 12) % 4;
		bytes[at] =
			region === 0
				? state >>> 24
				: region === 1
					? (at >> 5) & 0xff
					: region === 2
						? 7
						: (bytes[at - 300] ?? 0) ^ (at & 1);
	}
	return bytes;
}

describe("inflate", () => {
	it("inflates data that expands a thousandfold only as its output is taken, never pulling input ahead of it", async () => {
		// 64 MiB of a flat image's rows (the Up filter makes them zeros) compress to about 64 KB.
		const size = 64 * 1024 * 1024;
		const zlib = await zlibOf(size, () => {});
		const ratio = size / zlib.length;
		expect(ratio).toBeGreaterThan(1000);
		const source = pieces(zlib, 1024);
		let taken = 0;
		let largest = 0;
		let worstAhead = 0;
		for await (const piece of inflate(source, size)) {
			taken += piece.length;
			largest = Math.max(largest, piece.length);
			// What the compressed bytes pulled but not yet inflated would still make.
			worstAhead = Math.max(worstAhead, source.pulled * ratio - taken);
			// A consumer that takes its time: nothing may be inflated meanwhile.
			if (taken <= 4 * INFLATE_PIECE_BYTES) await new Promise((resolve) => setTimeout(resolve, 10));
		}
		expect(taken).toBe(size);
		// The inflater keeps at most 2 KiB of compressed input ahead, 2 MiB at this ratio.
		expect(worstAhead).toBeLessThan(4 * 1024 * 1024);
		expect(largest).toBeLessThanOrEqual(INFLATE_BUFFER_BYTES);
	}, 60_000);

	it("gives back exactly the bytes deflated, whatever the blocks (stored, fixed, dynamic) and however the input is cut", async () => {
		for (const size of [0, 1, 100, 70_000, 400_000]) {
			const raw = mixed(size, size + 1);
			const zlib = await zlibOf(size, (piece, offset) => piece.set(raw.subarray(offset, offset + piece.length)));
			for (const pieceSize of [1, 7, 1000, 1024 * 1024]) {
				if (pieceSize < 1000 && size > 100_000) continue;
				expect(await inflated(zlib, pieceSize, size), `${size} bytes in pieces of ${pieceSize}`).toEqual(raw);
			}
		}
	}, 30_000);

	it("stops at the bytes expected: more in the stream is not inflated", async () => {
		const raw = mixed(300_000, 3);
		const zlib = await zlibOf(raw.length, (piece, offset) => piece.set(raw.subarray(offset, offset + piece.length)));
		expect(await inflated(zlib, 1024, 5000)).toEqual(raw.subarray(0, 5000));
	});

	it("gives up on damaged or cut data as corrupt: header, block type, distance, checksum, end", async () => {
		const raw = mixed(50_000, 9);
		const zlib = await zlibOf(raw.length, (piece, offset) => piece.set(raw.subarray(offset, offset + piece.length)));
		expect(await inflateOutcome(zlib, raw.length)).toBe("inflated");
		const badHeader = zlib.slice();
		badHeader[0] = 0x79;
		expect(await inflateOutcome(badHeader, raw.length)).toBe("corrupt");
		const badChecksum = zlib.slice();
		badChecksum[badChecksum.length - 1] = (badChecksum.at(-1) ?? 0) ^ 1;
		expect(await inflateOutcome(badChecksum, raw.length)).toBe("corrupt");
		expect(await inflateOutcome(zlib.subarray(0, zlib.length - 9), raw.length)).toBe("corrupt");
		// A final block of the reserved type 3.
		expect(await inflateOutcome(Uint8Array.of(0x78, 0x9c, 0x07, 0, 0, 0, 0, 1), 10)).toBe("corrupt");
		// A fixed block whose first symbol is a match: a distance before the start.
		expect(await inflateOutcome(Uint8Array.of(0x78, 0x9c, 0x03, 0x02, 0, 0, 0, 0, 1), 10)).toBe("corrupt");
		// A stored block whose length and its complement disagree.
		expect(await inflateOutcome(Uint8Array.of(0x78, 0x01, 0x01, 5, 0, 5, 0, 1, 2, 3, 4, 5), 5)).toBe("corrupt");
	});
});

describe("the TIFF LZW and PackBits decoders", () => {
	it("hand out data that expands a thousandfold a bounded piece at a time, as it is taken", () => {
		// A flat strip: LZW's strings grow a byte a code, about 1,300 times smaller than the strip.
		const strip = new Uint8Array(8 * 1024 * 1024).fill(200);
		const lzw = lzwEncode(strip);
		expect(strip.length / lzw.length).toBeGreaterThan(1000);
		const decoder = new LzwDecoder();
		let made = 0;
		let largest = 0;
		for (let at = 0; at < lzw.length; at += 4096) {
			decoder.push(lzw.subarray(at, at + 4096));
			for (let out = decoder.next(); out.length > 0; out = decoder.next()) {
				made += out.length;
				largest = Math.max(largest, out.length);
				if (out.some((value) => value !== 200)) throw new Error(`wrong bytes near ${made}`);
			}
		}
		expect(made).toBe(strip.length);
		expect(decoder.ended).toBe(true);
		expect(largest).toBeLessThanOrEqual(CODED_PIECE_BYTES + 4096);

		const packBits = new PackBitsDecoder();
		packBits.push(packBitsEncode(strip.subarray(0, 1024 * 1024)));
		let runs = 0;
		for (let out = packBits.next(); out.length > 0; out = packBits.next()) {
			runs += out.length;
			expect(out.length).toBeLessThanOrEqual(CODED_PIECE_BYTES + 128);
		}
		expect(runs).toBe(1024 * 1024);
	});
});
