import { describe, expect, it } from "vitest";
import { memorySource } from "../../../src/imaging/byte-source.ts";
import { probeFormat, probeImage } from "../../../src/imaging/probe.ts";
import { ByteReader } from "../../../src/imaging/reader.ts";
import { MAX_DIRECTORY_ENTRIES } from "../../../src/imaging/tiff/directory.ts";
import { cut } from "../fixtures/bytes.ts";
import { sparseSource } from "../fixtures/sparse-file.ts";
import { buildTiff, findTiffEntry, LONG, LONG8, SHORT, type TiffOptions, tiffFile } from "../fixtures/tiff.ts";

function inspect(bytes: Uint8Array) {
	return probeFormat("tiff", new ByteReader(memorySource(bytes)));
}

/** A copy of `bytes` changed through a DataView in the file's own byte order. */
function patched(bytes: Uint8Array, change: (view: DataView, littleEndian: boolean) => void): Uint8Array {
	const out = bytes.slice();
	change(new DataView(out.buffer), out[0] === 0x49);
	return out;
}

const small: TiffOptions = { order: "II", ifdAt: "start", layout: "strips", width: 30, height: 20, rowsPerStrip: 3 };

describe("probeTiff", () => {
	it.each([
		["II", false, "start", "strips", "TIFF little-endian, stripped (7 strips)"],
		["MM", false, "start", "strips", "TIFF big-endian, stripped (7 strips)"],
		["II", false, "end", "tiles", "TIFF little-endian, tiled (4 tiles)"],
		["MM", false, "end", "tiles", "TIFF big-endian, tiled (4 tiles)"],
		["II", true, "end", "strips", "TIFF little-endian BigTIFF, stripped (7 strips)"],
		["MM", true, "end", "strips", "TIFF big-endian BigTIFF, stripped (7 strips)"],
		["II", true, "start", "tiles", "TIFF little-endian BigTIFF, tiled (4 tiles)"],
		["MM", true, "start", "tiles", "TIFF big-endian BigTIFF, tiled (4 tiles)"],
	] as const)("%s BigTIFF=%s, IFD at the %s, %s: %s", async (order, bigTiff, ifdAt, layout, detail) => {
		const bytes = buildTiff({ order, bigTiff, ifdAt, layout, width: 30, height: 20, rowsPerStrip: 3 });
		expect(await inspect(bytes)).toMatchObject({ ok: true, format: "tiff", widthPx: 30, heightPx: 20, detail });
	});

	it("reads dimensions as SHORT, LONG or (in BigTIFF) LONG8", async () => {
		for (const [dimensionType, bigTiff] of [
			[SHORT, false],
			[LONG, false],
			[SHORT, true],
			[LONG, true],
			[LONG8, true],
		] as const) {
			const bytes = buildTiff({ ...small, order: "MM", width: 1_234, height: 5, dimensionType, bigTiff });
			expect(await inspect(bytes)).toMatchObject({ ok: true, widthPx: 1_234, heightPx: 5 });
		}
	});

	it("reads offset arrays inline or out of line, as SHORT, LONG or LONG8", async () => {
		// Classic: 2 SHORTs or 1 LONG fit in the entry; BigTIFF: 4 SHORTs, 2 LONGs or 1 LONG8.
		const cases: [TiffOptions, number][] = [
			[{ ...small, arrayType: SHORT, rowsPerStrip: 10 }, 2],
			[{ ...small, arrayType: SHORT, rowsPerStrip: 3 }, 7],
			[{ ...small, arrayType: LONG, rowsPerStrip: 20 }, 1],
			[{ ...small, arrayType: LONG, rowsPerStrip: 3 }, 7],
			[{ ...small, bigTiff: true, arrayType: SHORT, rowsPerStrip: 5 }, 4],
			[{ ...small, bigTiff: true, arrayType: LONG, rowsPerStrip: 10 }, 2],
			[{ ...small, bigTiff: true, arrayType: LONG8, rowsPerStrip: 20 }, 1],
			[{ ...small, bigTiff: true, arrayType: LONG8, rowsPerStrip: 1 }, 20],
		];
		for (const [options, strips] of cases) {
			const inspection = await inspect(buildTiff(options));
			expect(inspection).toMatchObject({ ok: true, widthPx: 30, heightPx: 20 });
			expect(inspection.ok ? inspection.detail : "").toContain(`(${strips} strip`);
		}
	});

	it("a file cut inside its pixel data is truncated: a strip or tile runs past the end", async () => {
		const strips = buildTiff(small);
		expect(await inspect(cut(strips, strips.length - 1))).toEqual({
			ok: false,
			format: "tiff",
			reason: "truncated",
			message: `The TIFF's strip 7 of 7 (bytes ${strips.length - 60} to ${strips.length}) runs past the end of the ${strips.length - 1}-byte file: the file is truncated.`,
		});
		const tiles = buildTiff({ ...small, layout: "tiles", order: "MM", bigTiff: true });
		expect(await inspect(cut(tiles, tiles.length - 100))).toMatchObject({
			ok: false,
			reason: "truncated",
			message: expect.stringContaining("tile 4 of 4"),
		});
	});

	it("a file with its IFD at the end, cut, is truncated: the IFD or its arrays are past the end", async () => {
		const bytes = buildTiff({ ...small, ifdAt: "end" });
		for (const keep of [bytes.length - 1, bytes.length - 100, 700, 9]) {
			expect(await inspect(cut(bytes, keep))).toMatchObject({ ok: false, format: "tiff", reason: "truncated" });
		}
		expect(await inspect(cut(bytes, 300))).toMatchObject({
			message: expect.stringContaining("beyond the end of the 300-byte file"),
		});
	});

	it("offsets that point outside the file are truncation, even in a complete file", async () => {
		const bytes = buildTiff(small);
		const stripOffsets = findTiffEntry(bytes, 273);
		const arrayOutside = patched(bytes, (view, le) => view.setUint32(stripOffsets.valueAt, 1_000_000, le));
		expect(await inspect(arrayOutside)).toMatchObject({
			ok: false,
			reason: "truncated",
			message: expect.stringContaining("StripOffsets array (7 values at byte 1000000)"),
		});
		const firstStripOutside = patched(bytes, (view, le) =>
			view.setUint32(view.getUint32(stripOffsets.valueAt, le), 2 ** 32 - 10, le),
		);
		expect(await inspect(firstStripOutside)).toMatchObject({
			ok: false,
			reason: "truncated",
			message: expect.stringContaining("strip 1 of 7"),
		});
		const ifdOutside = patched(bytes, (view, le) => view.setUint32(4, 50_000, le));
		expect(await inspect(ifdOutside)).toMatchObject({ ok: false, reason: "truncated" });
		const bigIfdOutside = patched(buildTiff({ ...small, bigTiff: true }), (view, le) =>
			view.setBigUint64(8, 2n ** 62n, le),
		);
		expect(await inspect(bigIfdOutside)).toMatchObject({ ok: false, reason: "truncated" });
	});

	it("a header that lies is corrupt", async () => {
		const bytes = buildTiff(small);
		const width = findTiffEntry(bytes, 256);
		const stripByteCounts = findTiffEntry(bytes, 279);
		const cases: [string, Uint8Array, string][] = [
			["no IFD", patched(bytes, (view, le) => view.setUint32(4, 0, le)), "points to no image directory"],
			["IFD in header", patched(bytes, (view, le) => view.setUint32(4, 4, le)), "points inside its header"],
			["version 44", patched(bytes, (view, le) => view.setUint16(2, 44, le)), "unknown version (44)"],
			[
				"BigTIFF with 4-byte offsets",
				patched(buildTiff({ ...small, bigTiff: true }), (view, le) => view.setUint16(4, 4, le)),
				"offset size other than 8 bytes",
			],
			["zero entries", patched(bytes, (view, le) => view.setUint16(8, 0, le)), "claims 0 entries"],
			[
				"more entries than the limit",
				patched(bytes, (view, le) => view.setUint16(8, MAX_DIRECTORY_ENTRIES + 1, le)),
				`claims ${MAX_DIRECTORY_ENTRIES + 1} entries`,
			],
			[
				"width as RATIONAL",
				patched(bytes, (view, le) => view.setUint16(width.typeAt, 5, le)),
				"ImageWidth is not a single whole number",
			],
			[
				"width with 2 values",
				patched(bytes, (view, le) => view.setUint32(width.countAt, 2, le)),
				"ImageWidth is not a single whole number",
			],
			[
				"LONG8 in classic TIFF",
				patched(bytes, (view, le) => view.setUint16(width.typeAt, LONG8, le)),
				"ImageWidth is not a single whole number",
			],
			["no width", patched(bytes, (view, le) => view.setUint16(width.typeAt - 2, 999, le)), "has no ImageWidth"],
			[
				"no byte counts",
				patched(bytes, (view, le) => view.setUint16(stripByteCounts.typeAt - 2, 999, le)),
				"has StripOffsets but no StripByteCounts",
			],
			[
				"counts mismatch",
				patched(bytes, (view, le) => view.setUint32(stripByteCounts.countAt, 6, le)),
				"7 StripOffsets but 6 StripByteCounts",
			],
			[
				"offsets as ASCII",
				patched(bytes, (view, le) => view.setUint16(findTiffEntry(bytes, 273).typeAt, 2, le)),
				"StripOffsets has field type 2",
			],
		];
		for (const [, bytes, message] of cases) {
			const inspection = await inspect(bytes);
			expect(inspection).toMatchObject({ ok: false, format: "tiff", reason: "corrupt_header" });
			expect(inspection.ok ? "" : inspection.message).toContain(message);
		}
	});

	it("a file with neither strips nor tiles is corrupt", async () => {
		const bytes = buildTiff(small);
		const noOffsets = patched(bytes, (view, le) => view.setUint16(findTiffEntry(bytes, 273).typeAt - 2, 999, le));
		expect(await inspect(noOffsets)).toMatchObject({
			ok: false,
			reason: "corrupt_header",
			message: "The TIFF's first IFD has neither StripOffsets nor TileOffsets.",
		});
	});

	it("zero or absurd dimensions are refused by probeImage", async () => {
		const zero = buildTiff({ ...small, width: 0 });
		expect(await probeImage(memorySource(zero))).toMatchObject({
			ok: false,
			format: "tiff",
			reason: "dimensions_out_of_range",
		});
		const wide = patched(buildTiff(small), (view, le) =>
			view.setUint32(findTiffEntry(buildTiff(small), 256).valueAt, 3_000_000, le),
		);
		expect(await probeImage(memorySource(wide))).toMatchObject({ reason: "dimensions_out_of_range" });
	});

	it("a 300 MB TIFF with its IFD at the end costs under 256 KiB of reads", async () => {
		// 10000 × 10000 RGB, one row per 8 KiB strip as libtiff writes it: 10000 strips, 80 KB of arrays.
		const file = tiffFile({
			order: "II",
			ifdAt: "end",
			layout: "strips",
			width: 10_000,
			height: 10_000,
			samplesPerPixel: 3,
		});
		expect(file.size).toBeGreaterThan(300_000_000);
		const source = sparseSource(file);
		expect(await probeImage(source)).toMatchObject({ ok: true, format: "tiff", widthPx: 10_000, heightPx: 10_000 });
		console.info(`300 MB TIFF, IFD at the end, 10000 strips: ${source.bytesRead} bytes in ${source.reads} reads`);
		expect(source.bytesRead).toBeLessThan(256 * 1024);
		expect(source.reads).toBeLessThanOrEqual(4);
	});

	it("a 300 MB tiled BigTIFF costs a few KiB of reads", async () => {
		const file = tiffFile({
			order: "MM",
			bigTiff: true,
			ifdAt: "end",
			layout: "tiles",
			width: 10_000,
			height: 10_000,
			samplesPerPixel: 3,
			tileSize: 256,
		});
		const source = sparseSource(file);
		expect(await probeImage(source)).toMatchObject({ ok: true, widthPx: 10_000, heightPx: 10_000 });
		console.info(`${file.size} byte tiled BigTIFF, IFD at the end: ${source.bytesRead} bytes in ${source.reads} reads`);
		expect(source.bytesRead).toBeLessThan(256 * 1024);
	});

	it("the same 300 MB TIFF cut to 200 MB is truncated, found from the IFD offset alone", async () => {
		const file = tiffFile({
			order: "II",
			ifdAt: "end",
			layout: "strips",
			width: 10_000,
			height: 10_000,
			samplesPerPixel: 3,
		});
		const source = sparseSource({ size: 200_000_000, pieces: file.pieces.slice(0, 1) });
		expect(await probeImage(source)).toMatchObject({ ok: false, reason: "truncated" });
		expect(source.reads).toBe(1);
	});
});
