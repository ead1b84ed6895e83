import UPNG from "upng-js";
import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { crc32 } from "../../../src/imaging/png/chunks.ts";
import { probeFormat, probeImage } from "../../../src/imaging/probe.ts";
import { ByteReader } from "../../../src/imaging/reader.ts";
import { concat, cut } from "../fixtures/bytes.ts";
import { buildPng, encodePng, largePng, patchIhdr, pngChunk } from "../fixtures/png.ts";
import { sparseSource } from "../fixtures/sparse-file.ts";

function inspect(bytes: Uint8Array) {
	return probeFormat("png", new ByteReader(memorySource(bytes)));
}

/** A copy of a PNG with IHDR bytes changed and its CRC recomputed, so only the change is wrong. */
function withIhdrBytes(png: Uint8Array, changes: Record<number, number>): Uint8Array {
	const out = png.slice();
	for (const [at, value] of Object.entries(changes)) out[Number(at)] = value;
	new DataView(out.buffer).setUint32(29, crc32(out.subarray(12, 29)));
	return out;
}

describe("probePng", () => {
	it("reads width, height, bit depth and colour type from IHDR of upng-js files", async () => {
		expect(await inspect(encodePng(40, 30))).toMatchObject({
			ok: true,
			format: "png",
			widthPx: 40,
			heightPx: 30,
			detail: "PNG 8-bit RGBA",
		});
		expect(await inspect(encodePng(33, 17, { opaque: true }))).toMatchObject({
			widthPx: 33,
			heightPx: 17,
			detail: "PNG 8-bit RGB",
		});
	});

	it("reads 16-bit, interlaced, grayscale and indexed PNGs written chunk by chunk", async () => {
		const cases = [
			{ options: { width: 21, height: 13, bitDepth: 16, colorType: 6 }, detail: "PNG 16-bit RGBA" },
			{
				options: { width: 37, height: 29, bitDepth: 8, colorType: 6, interlaced: true },
				detail: "PNG 8-bit RGBA, interlaced",
			},
			{
				options: { width: 9, height: 11, bitDepth: 16, colorType: 0, interlaced: true },
				detail: "PNG 16-bit grayscale, interlaced",
			},
			{ options: { width: 15, height: 7, bitDepth: 4, colorType: 3 }, detail: "PNG 4-bit indexed" },
			{ options: { width: 5, height: 3, bitDepth: 16, colorType: 4 }, detail: "PNG 16-bit grayscale + alpha" },
		];
		for (const { options, detail } of cases) {
			const png = await buildPng(options);
			// The hand-written files are real PNGs: a full decoder takes them.
			const decoded = UPNG.decode(png.slice().buffer);
			expect([decoded.width, decoded.height, decoded.depth]).toEqual([options.width, options.height, options.bitDepth]);
			expect(await inspect(png)).toMatchObject({
				ok: true,
				format: "png",
				widthPx: options.width,
				heightPx: options.height,
				detail,
			});
		}
	});

	it("a file cut anywhere after IHDR is truncated: it no longer ends with IEND", async () => {
		const png = encodePng(40, 30);
		for (const keep of [33, 60, png.length - 12, png.length - 1]) {
			expect(await inspect(cut(png, keep))).toEqual({
				ok: false,
				format: "png",
				reason: "truncated",
				message: "The PNG ends before its IEND chunk: the file is truncated.",
			});
		}
	});

	it("a file cut inside its signature or IHDR is truncated", async () => {
		const png = encodePng(40, 30);
		expect(await inspect(cut(png, 6))).toMatchObject({ ok: false, reason: "truncated" });
		expect(await inspect(cut(png, 32))).toMatchObject({
			ok: false,
			reason: "truncated",
			message: "The PNG ends inside its IHDR chunk: the file is truncated.",
		});
	});

	it("tolerates a little junk after IEND, but not more than 1 KiB of it", async () => {
		const png = encodePng(40, 30);
		expect(await inspect(concat(png, new Uint8Array(1000).fill(0x20)))).toMatchObject({ ok: true });
		expect(await inspect(concat(png, new Uint8Array(1100).fill(0x20)))).toMatchObject({
			ok: false,
			reason: "truncated",
		});
	});

	it("a damaged header is corrupt: signature, chunk order, checksum, depth/colour and methods", async () => {
		const png = encodePng(40, 30);
		const damagedSignature = png.slice();
		damagedSignature[4] = 0x0a; // \r\n became \n\n
		const textChunkFirst = concat(
			png.subarray(0, 8),
			pngChunk("tEXt", new TextEncoder().encode("a\0b")),
			png.subarray(8),
		);
		const badCrc = png.slice();
		badCrc[31] = (badCrc[31] ?? 0) ^ 0xff;
		const cases: [string, Uint8Array, string][] = [
			["damaged signature", damagedSignature, "The PNG signature is damaged"],
			["IHDR not first", textChunkFirst, "does not start with a 13-byte IHDR chunk"],
			["IHDR checksum", badCrc, "fails its checksum"],
			["RGB at 4 bits", withIhdrBytes(png, { 24: 4, 25: 2 }), "colour type 2 at 4 bits"],
			["colour type 5", withIhdrBytes(png, { 25: 5 }), "colour type 5 at 8 bits"],
			["interlace method 2", withIhdrBytes(png, { 28: 2 }), "unknown compression, filter or interlace method"],
			["compression method 1", withIhdrBytes(png, { 26: 1 }), "unknown compression, filter or interlace method"],
		];
		for (const [, bytes, message] of cases) {
			const inspection = await inspect(bytes);
			expect(inspection).toMatchObject({ ok: false, format: "png", reason: "corrupt_header" });
			expect(inspection.ok ? "" : inspection.message).toContain(message);
		}
	});

	it("reports what IHDR says; probeImage then refuses 100000 × 100000 as too many pixels", async () => {
		const huge = patchIhdr(encodePng(40, 30), { width: 100_000, height: 100_000 });
		expect(await inspect(huge)).toMatchObject({ ok: true, widthPx: 100_000, heightPx: 100_000 });
		expect(await probeImage(memorySource(huge))).toEqual({
			ok: false,
			format: "png",
			reason: "too_many_pixels",
			message: "The PNG header gives 100,000 × 100,000 pixels, more than the limit of 1,000,000,000 pixels.",
		});
	});

	it("a 100 MB PNG costs two small reads: IHDR at the start, IEND at the end", async () => {
		const source = sparseSource(largePng(100_000_000, 12_000, 8_000));
		expect(await probeImage(source)).toMatchObject({ ok: true, widthPx: 12_000, heightPx: 8_000 });
		console.info(`100 MB PNG: ${source.bytesRead} bytes in ${source.reads} reads`);
		expect(source.bytesRead).toBeLessThan(256 * 1024);
		expect(source.reads).toBe(2);
	});

	it("a 100 MB PNG cut short costs the same two reads and is truncated", async () => {
		const file = largePng(100_000_000, 12_000, 8_000);
		const source = sparseSource({ size: 60_000_000, pieces: file.pieces.slice(0, 1) });
		expect(await probeImage(source)).toMatchObject({ ok: false, reason: "truncated" });
		expect(source.reads).toBe(2);
	});
});
