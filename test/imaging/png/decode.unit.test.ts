import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import { AreaReducer } from "../../../src/imaging/area-reducer.ts";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { ImageFault } from "../../../src/imaging/fault.ts";
import { PNG_SIGNATURE } from "../../../src/imaging/png/chunks.ts";
import { ADAM7, decodePng } from "../../../src/imaging/png/decode.ts";
import { decodedAlpha, decodeWithReads, undecodableReason } from "../decode-helpers.ts";
import { concat, u32be } from "../fixtures/bytes.ts";
import { buildPng, encodePng, patchIhdr, pngChunk } from "../fixtures/png.ts";

/** upng-js's own decoding of `png`, laid on white: the pixels the decoder must give. */
function upngOnWhite(png: Uint8Array): number[] {
	const image = UPNG.decode(png.slice().buffer);
	const rgba = new Uint8Array(UPNG.toRGBA8(image)[0] ?? new ArrayBuffer(0));
	const out: number[] = [];
	for (let i = 0; i < rgba.length; i += 4) {
		const alpha = rgba[i + 3] ?? 0;
		for (let c = 0; c < 3; c++) out.push(Math.round(((rgba[i + c] ?? 0) * alpha + 255 * (255 - alpha)) / 255));
	}
	return out;
}

/** upng-js's own decoding of `png`: each pixel's alpha. */
function upngAlpha(png: Uint8Array): number[] {
	const rgba = new Uint8Array(UPNG.toRGBA8(UPNG.decode(png.slice().buffer))[0] ?? new ArrayBuffer(0));
	return Array.from(rgba.filter((_, i) => i % 4 === 3));
}

/**
 * The pixels buildPng writes at 1, 2 or 4 bits (gray or indexed), worked out from its byte pattern:
 * upng-js misreads gray rows below 8 bits whose width leaves padding bits, so it cannot be the judge here.
 */
function patternPixels(width: number, height: number, depth: number, colorType: number, interlaced: boolean): number[] {
	const out = new Array<number>(width * height * 3).fill(0);
	const passes = interlaced ? ADAM7 : ([[0, 0, 1, 1]] as const);
	for (const [x0, y0, dx, dy] of passes) {
		const passWidth = Math.ceil((width - x0) / dx);
		const passHeight = Math.ceil((height - y0) / dy);
		if (passWidth <= 0 || passHeight <= 0) continue;
		for (let row = 0; row < passHeight; row++) {
			for (let i = 0; i < passWidth; i++) {
				const bit = i * depth;
				const byte = ((Math.floor(bit / 8) + 1) * 7 + row * 13) & 0xff;
				const sample = (byte >> (8 - depth - (bit % 8))) & ((1 << depth) - 1);
				// buildPng's palette holds the values 0, 1, 2, ... so entry k is (3k, 3k + 1, 3k + 2).
				const rgb =
					colorType === 3
						? [3 * sample, 3 * sample + 1, 3 * sample + 2]
						: Array(3).fill(Math.round((sample * 255) / ((1 << depth) - 1)));
				const at = ((y0 + row * dy) * width + x0 + i * dx) * 3;
				out.splice(at, 3, ...rgb);
			}
		}
	}
	return out;
}

async function decodeToPixels(png: Uint8Array): Promise<number[]> {
	const reducer = new AreaReducer();
	await decodePng(memorySource(png), reducer);
	return Array.from(reducer.finish().rgb);
}

/** Positions where two pixel arrays differ by more than `tolerance`. */
function differences(ours: number[], theirs: number[], tolerance: number): number[] {
	expect(ours.length).toBe(theirs.length);
	return ours.flatMap((value, i) => (Math.abs(value - (theirs[i] ?? 0)) > tolerance ? [i] : []));
}

const VARIANTS: [number, number][] = [
	[0, 1],
	[0, 2],
	[0, 4],
	[0, 8],
	[0, 16],
	[2, 8],
	[2, 16],
	[3, 1],
	[3, 2],
	[3, 4],
	[3, 8],
	[4, 8],
	[4, 16],
	[6, 8],
	[6, 16],
];

describe("decodePng", () => {
	for (const interlaced of [false, true]) {
		for (const [colorType, bitDepth] of VARIANTS) {
			it(`decodes colour type ${colorType} at ${bitDepth} bits${interlaced ? ", Adam7 interlaced," : ""} to the pixels it holds, on white`, async () => {
				const png = await buildPng({ width: 37, height: 23, bitDepth, colorType, interlaced });
				const expected = bitDepth < 8 ? patternPixels(37, 23, bitDepth, colorType, interlaced) : upngOnWhite(png);
				// upng-js keeps 16-bit samples' high byte where the decoder rounds: one level apart at most.
				expect(differences(await decodeToPixels(png), expected, bitDepth === 16 ? 1 : 0)).toEqual([]);
			});
		}
	}

	it("undoes every scanline filter of an encoder's output (upng-js filters each row)", async () => {
		const png = encodePng(61, 45);
		expect(differences(await decodeToPixels(png), upngOnWhite(png), 0)).toEqual([]);
	});

	it("lays a palette's transparency (tRNS) over white", async () => {
		const rgba = new Uint8Array(50 * 40 * 4).map((_, i) => (i % 4 === 3 ? (i * 7) % 256 : (i * 13) % 256));
		const png = new Uint8Array(UPNG.encode([rgba.buffer], 50, 40, 16));
		expect(png[25]).toBe(3);
		const pixels = await decodeToPixels(png);
		expect(differences(pixels, upngOnWhite(png), 0)).toEqual([]);
		expect(pixels.some((value) => value > 200)).toBe(true);
	});

	it("reads the file once, front to back, in pieces of at most 1 MiB, skipping a large ancillary chunk unread", async () => {
		const [width, height] = [1200, 900];
		const raw = new Uint8Array((width * 3 + 1) * height);
		for (let i = 0; i < raw.length; i += 65536) crypto.getRandomValues(raw.subarray(i, i + 65536));
		for (let y = 0; y < height; y++) raw[y * (width * 3 + 1)] = 0;
		const stream = new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"));
		const zlib = new Uint8Array(await new Response(stream).arrayBuffer());
		const idat = [0, 1, 2].map((part) =>
			pngChunk("IDAT", zlib.subarray((part * zlib.length) / 3, ((part + 1) * zlib.length) / 3)),
		);
		const ihdr = concat(u32be(width), u32be(height), Uint8Array.of(8, 2, 0, 0, 0));
		const skipped = pngChunk("prIv", new Uint8Array(3 * 1024 * 1024));
		const png = concat(PNG_SIGNATURE, pngChunk("IHDR", ihdr), skipped, ...idat, pngChunk("IEND", new Uint8Array(0)));
		const { reads, thumbnail } = await decodeWithReads(decodePng, png);
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 768]);
		expect(reads.every((read) => read.length <= 1024 * 1024)).toBe(true);
		const backwards = reads.filter((read, i) => read.offset < (reads[i - 1]?.end ?? 0));
		expect(backwards).toEqual([]);
		const total = reads.reduce((sum, read) => sum + read.length, 0);
		expect(total).toBeLessThanOrEqual(png.length - skipped.length + 1024 * 1024);
	});

	it("gives up on a file cut short as truncated", async () => {
		const png = encodePng(64, 64);
		expect(await undecodableReason(decodePng, png.subarray(0, png.length / 2))).toBe("truncated");
		expect(await undecodableReason(decodePng, png.subarray(0, 20))).toBe("truncated");
	});

	it("gives up on a header beyond the accepted sizes as too_large", async () => {
		const png = encodePng(40, 30);
		expect(await undecodableReason(decodePng, patchIhdr(png, { width: 2_000_000 }))).toBe("too_large");
		expect(await undecodableReason(decodePng, patchIhdr(png, { width: 100_000, height: 100_000 }))).toBe("too_large");
	});

	it("gives up on a header that claims more pixels than the file could hold, before allocating them", async () => {
		const png = patchIhdr(encodePng(40, 30), { width: 900_000, height: 1000 });
		expect(await undecodableReason(decodePng, png)).toBe("truncated");
	});

	it("gives up on a damaged file as corrupt: signature, missing palette, unknown filter, damaged zlib data", async () => {
		const png = encodePng(40, 30);
		const badSignature = png.slice();
		badSignature[1] = 0;
		expect(await undecodableReason(decodePng, badSignature)).toBe("corrupt");
		const indexedWithoutPalette = concat(
			PNG_SIGNATURE,
			pngChunk("IHDR", concat(u32be(4), u32be(4), Uint8Array.of(8, 3, 0, 0, 0))),
			pngChunk("IDAT", Uint8Array.of(0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01)),
			pngChunk("IEND", new Uint8Array(0)),
		);
		expect(await undecodableReason(decodePng, indexedWithoutPalette)).toBe("corrupt");
		const raw = Uint8Array.of(9, 1, 2, 3);
		const filtered = new Uint8Array(
			await new Response(new Blob([raw]).stream().pipeThrough(new CompressionStream("deflate"))).arrayBuffer(),
		);
		const unknownFilter = concat(
			PNG_SIGNATURE,
			pngChunk("IHDR", concat(u32be(1), u32be(1), Uint8Array.of(8, 2, 0, 0, 0))),
			pngChunk("IDAT", filtered),
			pngChunk("IEND", new Uint8Array(0)),
		);
		expect(await undecodableReason(decodePng, unknownFilter)).toBe("corrupt");
		const damaged = png.slice();
		const idatAt = png.findIndex(
			(_, i) => png[i] === 0x49 && png[i + 1] === 0x44 && png[i + 2] === 0x41 && png[i + 3] === 0x54,
		);
		damaged.fill(0xff, idatAt + 4, idatAt + 40);
		expect(await undecodableReason(decodePng, damaged)).toBe("corrupt");
	});

	it("throws only ImageFault for what it cannot read", async () => {
		await expect(decodePng(memorySource(new Uint8Array(3)), new AreaReducer())).rejects.toBeInstanceOf(ImageFault);
	});
});

describe("decodePng hands the alpha to a sink that takes it", () => {
	it("an RGBA PNG's alpha channel, each pixel's, just before its row", async () => {
		const png = encodePng(61, 45);
		expect(png[25]).toBe(6);
		expect(await decodedAlpha(decodePng, png)).toEqual(upngAlpha(png));
	});

	for (const [colorType, bitDepth] of [
		[4, 8],
		[4, 16],
		[6, 16],
	] as const) {
		it(`colour type ${colorType} (${colorType === 4 ? "grey + alpha" : "RGBA"}) at ${bitDepth} bits, as 8 bits`, async () => {
			const png = await buildPng({ width: 37, height: 23, bitDepth, colorType });
			const alpha = (await decodedAlpha(decodePng, png)) ?? [];
			// upng-js keeps a 16-bit sample's high byte where the decoder rounds: one level apart at most.
			expect(differences(alpha, upngAlpha(png), bitDepth === 16 ? 1 : 0)).toEqual([]);
			expect(alpha).toHaveLength(37 * 23);
		});
	}

	it("a palette's transparency (tRNS), entry by entry", async () => {
		const rgba = new Uint8Array(50 * 40 * 4).map((_, i) => (i % 4 === 3 ? (i * 7) % 256 : (i * 13) % 256));
		const png = new Uint8Array(UPNG.encode([rgba.buffer], 50, 40, 16));
		expect(png[25]).toBe(3);
		const alpha = await decodedAlpha(decodePng, png);
		expect(alpha).toEqual(upngAlpha(png));
		expect(new Set(alpha).size).toBeGreaterThan(2);
	});

	it("an interlaced RGBA PNG's alpha, averaged into the thumbnail's pixels like its colour", async () => {
		const png = await buildPng({ width: 37, height: 23, bitDepth: 8, colorType: 6, interlaced: true });
		// Smaller than a thumbnail: each pixel is its own average.
		expect(await decodedAlpha(decodePng, png)).toEqual(upngAlpha(png));
		const large = await buildPng({ width: 2048, height: 8, bitDepth: 8, colorType: 6, interlaced: true });
		const reduced = (await decodedAlpha(decodePng, large)) ?? [];
		const full = upngAlpha(large);
		expect(reduced).toHaveLength(1024 * 4);
		// Halved each way: each value is the mean of its 2 × 2 block.
		const block = (x: number, y: number) =>
			((full[2 * y * 2048 + 2 * x] ?? 0) +
				(full[2 * y * 2048 + 2 * x + 1] ?? 0) +
				(full[(2 * y + 1) * 2048 + 2 * x] ?? 0) +
				(full[(2 * y + 1) * 2048 + 2 * x + 1] ?? 0)) /
			4;
		const expected = Array.from({ length: 1024 * 4 }, (_, i) => block(i % 1024, Math.floor(i / 1024)));
		expect(differences(reduced, expected, 0.5)).toEqual([]);
	});

	it("an RGB PNG's colour key (tRNS): 0 for the keyed colour, 255 for the rest", async () => {
		const png = await buildPng({ width: 37, height: 23, bitDepth: 8, colorType: 2 });
		const key = pngChunk("tRNS", Uint8Array.of(0, 7, 0, 14, 0, 21));
		// The key is the first pixel's colour of the first row (buildPng's bytes 7, 14, 21); tRNS goes before IDAT.
		const idat = 8 + 25;
		const keyed = concat(png.subarray(0, idat), key, png.subarray(idat));
		const alpha = (await decodedAlpha(decodePng, keyed)) ?? [];
		expect(alpha[0]).toBe(0);
		expect(alpha.every((value) => value === 0 || value === 255)).toBe(true);
		expect(alpha.filter((value) => value === 255).length).toBeGreaterThan(37 * 23 - 10);
	});

	it("never for an opaque PNG, nor to a sink without an alpha method", async () => {
		expect(await decodedAlpha(decodePng, encodePng(61, 45, { opaque: true }))).toBeNull();
		expect(
			await decodedAlpha(decodePng, await buildPng({ width: 9, height: 9, bitDepth: 8, colorType: 0 })),
		).toBeNull();
		// The thumbnail's reducer takes no alpha: the decoder still lays it on white, as before.
		const png = encodePng(61, 45);
		expect(differences(await decodeToPixels(png), upngOnWhite(png), 0)).toEqual([]);
	});
});
