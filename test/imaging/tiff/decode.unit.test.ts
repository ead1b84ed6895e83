import { describe, expect, it } from "vitest";
import { decodeTiff } from "../../../src/imaging/tiff/decode.ts";
import { MAX_DIRECTORY_ENTRIES } from "../../../src/imaging/tiff/directory.ts";
import { decodedAlpha, decodeWithReads, undecodableReason } from "../decode-helpers.ts";
import { buildTiff, findTiffEntry } from "../fixtures/tiff.ts";
import { type PixelTiffOptions, pixelTiff, type SampleAt } from "../fixtures/tiff-pixels.ts";

const [WIDTH, HEIGHT] = [45, 29];

/** Samples with detail in every channel, so a mixed-up channel, row or predictor shows. */
function samplesFor(depth: 8 | 16): SampleAt {
	return depth === 8
		? (x, y, s) => (x * 31 + y * 17 + s * 71 + ((x * y) % 7)) & 0xff
		: (x, y, s) => (x * 997 + y * 4099 + s * 7919 + x * y * 13) & 0xffff;
}

/** The 8-bit RGB on white each pixel must become: the TIFF rules written out plainly. */
function expectedRgb(options: PixelTiffOptions, sampleAt: SampleAt): number[] {
	const max = options.depth === 8 ? 255 : 65535;
	const out: number[] = [];
	for (let y = 0; y < options.height; y++) {
		for (let x = 0; x < options.width; x++) {
			const v = (s: number) => sampleAt(x, y, s);
			let rgb: number[];
			if (options.photometric === 2) rgb = [v(0), v(1), v(2)];
			else if (options.photometric === 5) rgb = [0, 1, 2].map((s) => ((max - v(s)) * (max - v(3))) / max);
			else if (options.photometric === 0) rgb = Array(3).fill(max - v(0));
			else rgb = Array(3).fill(v(0));
			if (options.extraSample === 2) {
				const alpha = v(options.photometric === 2 ? 3 : 1);
				rgb = rgb.map((value) => (value * alpha) / max + (max - alpha));
			}
			out.push(...rgb.map((value) => Math.round((value * 255) / max)));
		}
	}
	return out;
}

const CASES: [string, Omit<PixelTiffOptions, "width" | "height">][] = [
	[
		"uncompressed 8-bit RGB strips, little-endian",
		{ order: "II", photometric: 2, samples: 3, depth: 8, compression: 1, rowsPerStrip: 4 },
	],
	[
		"uncompressed 8-bit RGB, big-endian",
		{ order: "MM", photometric: 2, samples: 3, depth: 8, compression: 1, rowsPerStrip: 7 },
	],
	["LZW 8-bit RGB", { order: "II", photometric: 2, samples: 3, depth: 8, compression: 5, rowsPerStrip: 8 }],
	[
		"LZW 8-bit RGB with the horizontal predictor",
		{ order: "MM", photometric: 2, samples: 3, depth: 8, compression: 5, predictor: 2, rowsPerStrip: 5 },
	],
	[
		"LZW 16-bit RGB with the predictor, big-endian",
		{ order: "MM", photometric: 2, samples: 3, depth: 16, compression: 5, predictor: 2 },
	],
	[
		"Deflate 8-bit gray (min-is-black)",
		{ order: "II", photometric: 1, samples: 1, depth: 8, compression: 8, rowsPerStrip: 3 },
	],
	[
		"Deflate 16-bit RGB with the predictor",
		{ order: "II", photometric: 2, samples: 3, depth: 16, compression: 8, predictor: 2, rowsPerStrip: 6 },
	],
	[
		"PackBits 8-bit gray (min-is-white)",
		{ order: "MM", photometric: 0, samples: 1, depth: 8, compression: 32773, rowsPerStrip: 2 },
	],
	["PackBits 16-bit gray (min-is-black)", { order: "II", photometric: 1, samples: 1, depth: 16, compression: 32773 }],
	["uncompressed 8-bit CMYK", { order: "II", photometric: 5, samples: 4, depth: 8, compression: 1 }],
	["LZW 16-bit CMYK", { order: "MM", photometric: 5, samples: 4, depth: 16, compression: 5, rowsPerStrip: 10 }],
	[
		"Deflate RGBA (unassociated alpha) on white",
		{ order: "II", photometric: 2, samples: 4, depth: 8, compression: 8, extraSample: 2 },
	],
	[
		"16-bit gray + alpha on white",
		{ order: "MM", photometric: 1, samples: 2, depth: 16, compression: 1, extraSample: 2 },
	],
	[
		"tiled LZW 8-bit RGB with partial edge tiles",
		{ order: "II", photometric: 2, samples: 3, depth: 8, compression: 5, tileSize: 16 },
	],
	[
		"tiled Deflate 16-bit gray, big-endian",
		{ order: "MM", photometric: 1, samples: 1, depth: 16, compression: 8, tileSize: 32, predictor: 2 },
	],
	[
		"BigTIFF LZW 8-bit RGB strips",
		{ order: "II", bigTiff: true, photometric: 2, samples: 3, depth: 8, compression: 5, rowsPerStrip: 9 },
	],
	[
		"BigTIFF big-endian tiled PackBits CMYK",
		{ order: "MM", bigTiff: true, photometric: 5, samples: 4, depth: 8, compression: 32773, tileSize: 16 },
	],
	[
		"separate planes (planar configuration 2), LZW 8-bit RGB with the predictor",
		{ order: "II", photometric: 2, samples: 3, depth: 8, compression: 5, predictor: 2, rowsPerStrip: 6, planar: 2 },
	],
	[
		"separate planes, Deflate 16-bit CMYK, big-endian",
		{ order: "MM", photometric: 5, samples: 4, depth: 16, compression: 8, planar: 2 },
	],
	[
		"separate planes, tiled PackBits RGBA on white",
		{ order: "II", photometric: 2, samples: 4, depth: 8, compression: 32773, tileSize: 16, planar: 2, extraSample: 2 },
	],
];

describe("decodeTiff", () => {
	for (const [variant, layout] of CASES) {
		it(`decodes ${variant} to the pixels it holds`, async () => {
			const options = { ...layout, width: WIDTH, height: HEIGHT };
			const sampleAt = samplesFor(options.depth);
			const tiff = await pixelTiff(options, sampleAt);
			const { thumbnail, reads } = await decodeWithReads(decodeTiff, tiff);
			expect([thumbnail.width, thumbnail.height]).toEqual([WIDTH, HEIGHT]);
			expect(Array.from(thumbnail.rgb)).toEqual(expectedRgb(options, sampleAt));
			expect(reads.every((read) => read.end <= tiff.length && read.length <= 1024 * 1024)).toBe(true);
		});
	}

	it("hands on the orientation tag for the thumbnail to apply", async () => {
		const options: PixelTiffOptions = {
			order: "II",
			width: 8,
			height: 4,
			photometric: 1,
			samples: 1,
			depth: 8,
			compression: 1,
			orientation: 6,
		};
		const { thumbnail, orientation } = await decodeWithReads(decodeTiff, await pixelTiff(options, (x) => x * 30));
		expect(orientation).toBe(6);
		expect([thumbnail.width, thumbnail.height]).toEqual([4, 8]);
	});

	it("reads a large uncompressed single-strip TIFF front to back in pieces of at most 1 MiB, each byte once", async () => {
		const tiff = buildTiff({
			order: "II",
			ifdAt: "start",
			layout: "strips",
			width: 2000,
			height: 1500,
			samplesPerPixel: 3,
			rowsPerStrip: 1500,
		});
		const { thumbnail, reads } = await decodeWithReads(decodeTiff, tiff);
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 768]);
		expect(reads.every((read) => read.length <= 1024 * 1024)).toBe(true);
		const pixelReads = reads.filter((read) => read.length > 4096);
		expect(pixelReads.length).toBeGreaterThanOrEqual(9);
		expect(pixelReads.filter((read, i) => i > 0 && read.offset !== pixelReads[i - 1]?.end)).toEqual([]);
		expect(reads.reduce((sum, read) => sum + read.length, 0)).toBeLessThanOrEqual(tiff.length);
	});

	it("gives up on variants it does not read as unsupported_variant: JPEG compression, 1-bit, palette, float predictor", async () => {
		const base: PixelTiffOptions = {
			order: "II",
			width: 8,
			height: 8,
			photometric: 2,
			samples: 3,
			depth: 8,
			compression: 1,
		};
		const tiff = await pixelTiff(base, () => 0);
		const patched = (tag: number, value: number) => patchEntry(tiff, tag, value);
		expect(await undecodableReason(decodeTiff, patched(259, 7))).toBe("unsupported_variant");
		expect(await undecodableReason(decodeTiff, patched(262, 3))).toBe("unsupported_variant");
		expect(await undecodableReason(decodeTiff, patched(317, 3))).toBe("unsupported_variant");
		const oneBit = await pixelTiff({ ...base, photometric: 1, samples: 1 }, () => 0);
		expect(await undecodableReason(decodeTiff, patchEntry(oneBit, 258, 1))).toBe("unsupported_variant");
	});

	it("gives up on a file cut short, or strips past its end, as truncated", async () => {
		const options: PixelTiffOptions = {
			order: "II",
			width: 40,
			height: 40,
			photometric: 2,
			samples: 3,
			depth: 8,
			compression: 5,
			rowsPerStrip: 4,
		};
		const tiff = await pixelTiff(options, samplesFor(8));
		// The directory sits after the pixels: cut the pixels instead by pointing the first strip past the end.
		expect(await undecodableReason(decodeTiff, patchEntry(tiff, 273, tiff.length + 10))).toBe("truncated");
		expect(await undecodableReason(decodeTiff, tiff.subarray(0, 6))).toBe("truncated");
	});

	it("gives up on sizes beyond the accepted ones as too_large, and on a size the file cannot hold as truncated", async () => {
		const tiff = await pixelTiff(
			{ order: "II", width: 8, height: 8, photometric: 1, samples: 1, depth: 8, compression: 1 },
			() => 0,
		);
		expect(await undecodableReason(decodeTiff, patchEntry(tiff, 256, 2_000_000))).toBe("too_large");
		expect(await undecodableReason(decodeTiff, patchEntry(tiff, 256, 900_000))).toBe("truncated");
	});

	it("gives up on a damaged header or LZW stream as corrupt", async () => {
		const notTiff = Uint8Array.of(0x49, 0x49, 0x2b, 0x00, 0, 0, 0, 0);
		expect(await undecodableReason(decodeTiff, notTiff)).toBe("corrupt");
		// The probe's directory parser, with its limit: a count past it is corrupt before anything is read.
		const gray: PixelTiffOptions = {
			order: "II",
			width: 4,
			height: 4,
			photometric: 1,
			samples: 1,
			depth: 8,
			compression: 1,
		};
		const tooManyEntries = (await pixelTiff(gray, () => 0)).slice();
		const view = new DataView(tooManyEntries.buffer);
		view.setUint16(view.getUint32(4, true), MAX_DIRECTORY_ENTRIES + 1, true);
		expect(await undecodableReason(decodeTiff, tooManyEntries)).toBe("corrupt");
		const options: PixelTiffOptions = {
			order: "II",
			width: 40,
			height: 40,
			photometric: 2,
			samples: 3,
			depth: 8,
			compression: 5,
		};
		const tiff = (await pixelTiff(options, samplesFor(8))).slice();
		// Codes far beyond the table right after the first: not an LZW stream any encoder writes.
		tiff.fill(0xff, 10, 40);
		expect(await undecodableReason(decodeTiff, tiff)).toBe("corrupt");
	});
});

/** A copy of `tiff` (classic) with the first value of `tag` set to `value`, in the entry or where it points. */
function patchEntry(tiff: Uint8Array, tag: number, value: number): Uint8Array {
	const out = tiff.slice();
	const view = new DataView(out.buffer);
	const le = out[0] === 0x49;
	const { typeAt, countAt, valueAt } = findTiffEntry(out, tag);
	const short = view.getUint16(typeAt, le) === 3;
	const at = view.getUint32(countAt, le) * (short ? 2 : 4) <= 4 ? valueAt : view.getUint32(valueAt, le);
	if (short) view.setUint16(at, value, le);
	else view.setUint32(at, value, le);
	return out;
}

/** The 8-bit alpha each pixel must hand on: its extra sample, scaled from the depth's range. */
function expectedAlpha(options: PixelTiffOptions, sampleAt: SampleAt): number[] {
	const max = options.depth === 8 ? 255 : 65535;
	const at = options.photometric === 2 ? 3 : options.photometric === 5 ? 4 : 1;
	return Array.from({ length: options.width * options.height }, (_, i) =>
		Math.round((sampleAt(i % options.width, Math.floor(i / options.width), at) * 255) / max),
	);
}

const ALPHA_CASES: [string, Omit<PixelTiffOptions, "width" | "height">][] = [
	[
		"Deflate RGBA strips (unassociated alpha)",
		{ order: "II", photometric: 2, samples: 4, depth: 8, compression: 8, extraSample: 2, rowsPerStrip: 5 },
	],
	[
		"16-bit gray + alpha, big-endian",
		{ order: "MM", photometric: 1, samples: 2, depth: 16, compression: 1, extraSample: 2 },
	],
	[
		"associated (premultiplied) alpha, LZW with the predictor",
		{ order: "II", photometric: 2, samples: 4, depth: 8, compression: 5, predictor: 2, extraSample: 1 },
	],
	[
		"separate planes, tiled PackBits RGBA with partial edge tiles",
		{ order: "II", photometric: 2, samples: 4, depth: 8, compression: 32773, tileSize: 16, planar: 2, extraSample: 2 },
	],
];

describe("decodeTiff hands the alpha (extra samples) to a sink that takes it", () => {
	for (const [variant, layout] of ALPHA_CASES) {
		it(`${variant}: each pixel's alpha, just before its rows`, async () => {
			const options = { ...layout, width: WIDTH, height: HEIGHT };
			const sampleAt = samplesFor(options.depth);
			const tiff = await pixelTiff(options, sampleAt);
			expect(await decodedAlpha(decodeTiff, tiff)).toEqual(expectedAlpha(options, sampleAt));
		});
	}

	it("never for a TIFF without alpha: no extra sample, or one that is not alpha (ExtraSamples 0)", async () => {
		const sampleAt = samplesFor(8);
		const rgb = await pixelTiff(
			{ order: "II", photometric: 2, samples: 3, depth: 8, compression: 1, width: WIDTH, height: HEIGHT },
			sampleAt,
		);
		const unspecified = await pixelTiff(
			{
				order: "II",
				photometric: 2,
				samples: 4,
				depth: 8,
				compression: 1,
				extraSample: 0,
				width: WIDTH,
				height: HEIGHT,
			},
			sampleAt,
		);
		expect(await decodedAlpha(decodeTiff, rgb)).toBeNull();
		expect(await decodedAlpha(decodeTiff, unspecified)).toBeNull();
	});
});
