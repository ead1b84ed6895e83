/**
 * The thumbnails the PNG and TIFF decoders make match ImageMagick's box-filtered reference: for files
 * ImageMagick itself writes in every variant the decoders read, the mean absolute error per channel
 * stays under 6 of 255. Runs in Node because it spawns Debian's ImageMagick (`convert`).
 */
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AreaReducer, type Thumbnail } from "../../src/imaging/area-reducer.ts";
import { memorySource } from "../../src/imaging/byte-source.ts";
import { decodePng } from "../../src/imaging/png/decode.ts";
import type { Decoded, RasterSink } from "../../src/imaging/raster.ts";
import { decodeTiff } from "../../src/imaging/tiff/decode.ts";

const run = promisify(execFile);
const BUDGET = 6 / 255;

let dir = "";

/** Runs ImageMagick's convert with `args`; its raw output when it writes to stdout. */
async function convert(...args: string[]): Promise<Buffer> {
	const { stdout } = await run("convert", args, { encoding: "buffer", maxBuffer: 64 * 1024 * 1024 });
	return stdout;
}

/** ImageMagick's reference thumbnail of `file` at the thumbnail's size, as 8-bit RGB. */
async function reference(file: string, thumbnail: Thumbnail, autoOrient = false): Promise<Buffer> {
	const size = `${thumbnail.width}x${thumbnail.height}!`;
	return convert(
		`${file}[0]`,
		...(autoOrient ? ["-auto-orient"] : []),
		...["-colorspace", "sRGB", "-background", "white", "-flatten", "-scale", size, "-depth", "8", "rgb:-"],
	);
}

/** Mean absolute difference per channel, as a fraction of 255. */
function meanAbsoluteError(ours: Uint8Array, theirs: Uint8Array): number {
	expect(theirs.length).toBe(ours.length);
	let sum = 0;
	for (let i = 0; i < ours.length; i++) sum += Math.abs((ours[i] ?? 0) - (theirs[i] ?? 0));
	return sum / ours.length / 255;
}

type Decoder = (source: ReturnType<typeof memorySource>, sink: RasterSink) => Promise<Decoded>;

/** Writes `name` from the test image with ImageMagick `options`, decodes it and compares it with the reference. */
async function compare(decode: Decoder, source: string, name: string, options: string[], autoOrient = false) {
	const file = path.join(dir, name);
	// An option ending in ":" is the output format ImageMagick writes (PNG8:), given before the file name.
	const format = options.at(-1)?.endsWith(":") === true ? (options.at(-1) ?? "") : "";
	await convert(path.join(dir, source), ...(format === "" ? options : options.slice(0, -1)), `${format}${file}`);
	const bytes = new Uint8Array(await readFile(file));
	const memory = memorySource(bytes);
	const reducer = new AreaReducer();
	const { orientation } = await decode(memory, reducer);
	const thumbnail = reducer.finish(orientation);
	const error = meanAbsoluteError(thumbnail.rgb, await reference(file, thumbnail, autoOrient));
	return { thumbnail, error, bytesRead: memory.bytesRead, size: bytes.length };
}

beforeAll(async () => {
	const { stdout } = await run("convert", ["-version"]);
	expect(stdout).toMatch(/^Version: ImageMagick/);
	dir = await mkdtemp(path.join(tmpdir(), "previews-reference-"));
	// A detailed test image (fractal noise with sharp colour edges) larger than a thumbnail, with
	// sides that do not divide evenly into 1024, and a small one that keeps its size.
	await convert("-seed", "7", "-size", "1531x1097", "plasma:red-blue", path.join(dir, "large.png"));
	await convert("-seed", "8", "-size", "301x187", "plasma:", path.join(dir, "small.png"));
	await convert(
		path.join(dir, "large.png"),
		...["-alpha", "set", "-channel", "A", "-fx", "0.2+0.8*i/w", "+channel"],
		path.join(dir, "large-alpha.png"),
	);
});

afterAll(async () => {
	if (dir !== "") await rm(dir, { recursive: true, force: true });
});

/** What a PNG case must really be: its IHDR's colour type, bit depth and interlace flag. */
type PngTraits = { colorType: number; depth: number; interlaced: boolean };

const PNG_CASES: [string, string, string[], PngTraits][] = [
	[
		"RGB 8-bit",
		"large.png",
		["-define", "png:color-type=2", "-depth", "8"],
		{ colorType: 2, depth: 8, interlaced: false },
	],
	[
		"RGB 16-bit",
		"large.png",
		["-define", "png:color-type=2", "-depth", "16"],
		{ colorType: 2, depth: 16, interlaced: false },
	],
	[
		"RGBA 8-bit, composited on white",
		"large-alpha.png",
		["-define", "png:color-type=6", "-depth", "8"],
		{ colorType: 6, depth: 8, interlaced: false },
	],
	[
		"RGBA 16-bit, composited on white",
		"large-alpha.png",
		["-define", "png:color-type=6", "-depth", "16"],
		{ colorType: 6, depth: 16, interlaced: false },
	],
	[
		"gray 1-bit",
		"large.png",
		["-colorspace", "Gray", "-depth", "1", "-define", "png:bit-depth=1", "-define", "png:color-type=0"],
		{ colorType: 0, depth: 1, interlaced: false },
	],
	[
		"gray 2-bit",
		"large.png",
		["-colorspace", "Gray", "-depth", "2", "-define", "png:bit-depth=2", "-define", "png:color-type=0"],
		{ colorType: 0, depth: 2, interlaced: false },
	],
	[
		"gray 4-bit",
		"large.png",
		["-colorspace", "Gray", "-depth", "4", "-define", "png:bit-depth=4", "-define", "png:color-type=0"],
		{ colorType: 0, depth: 4, interlaced: false },
	],
	[
		"gray 8-bit",
		"large.png",
		["-colorspace", "Gray", "-define", "png:color-type=0", "-depth", "8"],
		{ colorType: 0, depth: 8, interlaced: false },
	],
	[
		"gray 16-bit",
		"large.png",
		["-colorspace", "Gray", "-define", "png:color-type=0", "-depth", "16"],
		{ colorType: 0, depth: 16, interlaced: false },
	],
	[
		"gray + alpha 8-bit",
		"large-alpha.png",
		["-colorspace", "Gray", "-define", "png:color-type=4", "-depth", "8"],
		{ colorType: 4, depth: 8, interlaced: false },
	],
	[
		"gray + alpha 16-bit",
		"large-alpha.png",
		["-colorspace", "Gray", "-define", "png:color-type=4", "-depth", "16"],
		{ colorType: 4, depth: 16, interlaced: false },
	],
	[
		"palette 4-bit",
		"large.png",
		["-colors", "14", "-define", "png:color-type=3", "-define", "png:bit-depth=4"],
		{ colorType: 3, depth: 4, interlaced: false },
	],
	[
		"palette 8-bit with transparency (tRNS)",
		"large-alpha.png",
		["-colors", "200", "PNG8:"],
		{ colorType: 3, depth: 8, interlaced: false },
	],
	[
		"Adam7 interlaced RGB",
		"large.png",
		["-interlace", "PNG", "-define", "png:color-type=2", "-depth", "8"],
		{ colorType: 2, depth: 8, interlaced: true },
	],
	[
		"Adam7 interlaced RGBA 16-bit",
		"large-alpha.png",
		["-interlace", "PNG", "-depth", "16"],
		{ colorType: 6, depth: 16, interlaced: true },
	],
	[
		"Adam7 interlaced, smaller than a thumbnail",
		"small.png",
		["-interlace", "PNG", "-depth", "8"],
		{ colorType: 2, depth: 8, interlaced: true },
	],
	[
		"smaller than a thumbnail, kept at its size",
		"small.png",
		["-depth", "8"],
		{ colorType: 2, depth: 8, interlaced: false },
	],
];

describe("decodePng against ImageMagick", () => {
	for (const [variant, source, options, traits] of PNG_CASES) {
		it(`a ${variant} PNG's thumbnail is within 6/255 of ImageMagick's -scale`, async () => {
			const name = `${variant.replace(/\W+/g, "-")}.png`;
			const { thumbnail, error, bytesRead, size } = await compare(decodePng, source, name, options);
			const ihdr = await readFile(path.join(dir, name));
			expect({ colorType: ihdr[25], depth: ihdr[24], interlaced: ihdr[28] === 1 }).toEqual(traits);
			expect(Math.max(thumbnail.width, thumbnail.height)).toBe(source === "small.png" ? 301 : 1024);
			expect(error).toBeLessThan(BUDGET);
			expect(bytesRead).toBeLessThanOrEqual(size);
		});
	}
});

/** What a TIFF case must really be, read back from the file ImageMagick wrote (its options are easy to get wrong). */
type TiffTraits = {
	order?: "II" | "MM";
	big?: boolean;
	compression?: number;
	predictor?: number;
	photometric?: number;
	depth?: number;
	tiled?: boolean;
	planar?: number;
};

const NO_PREDICTOR = ["-define", "tiff:predictor=1"];
const PREDICTOR = ["-define", "tiff:predictor=2"];
const TIFF_CASES: [string, string, string[], TiffTraits][] = [
	["uncompressed RGB", "large.png", ["-compress", "None"], { compression: 1, photometric: 2, tiled: false }],
	["LZW RGB without a predictor", "large.png", ["-compress", "LZW", ...NO_PREDICTOR], { compression: 5, predictor: 1 }],
	[
		"LZW RGB with the horizontal predictor",
		"large.png",
		["-compress", "LZW", ...PREDICTOR],
		{ compression: 5, predictor: 2 },
	],
	[
		"Deflate RGB without a predictor",
		"large.png",
		["-compress", "Zip", ...NO_PREDICTOR],
		{ compression: 8, predictor: 1 },
	],
	[
		"Deflate 16-bit RGB with the predictor",
		"large.png",
		["-compress", "Zip", "-depth", "16", ...PREDICTOR],
		{ compression: 8, predictor: 2, depth: 16 },
	],
	["PackBits RGB", "large.png", ["-compress", "RLE"], { compression: 32773 }],
	[
		"big-endian 16-bit LZW with the predictor",
		"large.png",
		["-define", "tiff:endian=msb", "-depth", "16", "-compress", "LZW", ...PREDICTOR],
		{ order: "MM", compression: 5, predictor: 2, depth: 16 },
	],
	[
		"tiled LZW RGB",
		"large.png",
		["-compress", "LZW", "-define", "tiff:tile-geometry=256x256"],
		{ compression: 5, tiled: true },
	],
	[
		"tiled uncompressed 16-bit gray",
		"large.png",
		["-colorspace", "Gray", "-depth", "16", "-compress", "None", "-define", "tiff:tile-geometry=128x64"],
		{ compression: 1, photometric: 1, depth: 16, tiled: true },
	],
	[
		"gray 8-bit, min-is-black",
		"large.png",
		["-colorspace", "Gray", "-depth", "8", "-compress", "Zip"],
		{ photometric: 1, depth: 8 },
	],
	[
		"gray 16-bit, min-is-white",
		"large.png",
		["-colorspace", "Gray", "-depth", "16", "-define", "quantum:polarity=min-is-white"],
		{ photometric: 0, depth: 16 },
	],
	["CMYK 8-bit", "large.png", ["-colorspace", "CMYK", "-depth", "8", "-compress", "LZW"], { photometric: 5, depth: 8 }],
	[
		"CMYK 16-bit",
		"large.png",
		["-colorspace", "CMYK", "-depth", "16", "-compress", "None"],
		{ photometric: 5, depth: 16 },
	],
	["RGBA (unassociated alpha), composited on white", "large-alpha.png", ["-compress", "Zip"], { photometric: 2 }],
	["BigTIFF little-endian", "large.png", ["-compress", "LZW", "TIFF64:"], { order: "II", big: true }],
	[
		"BigTIFF big-endian, tiled",
		"large.png",
		["-define", "tiff:endian=msb", "-define", "tiff:tile-geometry=256x128", "TIFF64:"],
		{ order: "MM", big: true, tiled: true },
	],
	[
		"separate planes (planar configuration 2), LZW RGB",
		"large.png",
		["-interlace", "plane", "-compress", "LZW"],
		{ planar: 2, compression: 5 },
	],
	[
		"separate planes, tiled 16-bit RGBA",
		"large-alpha.png",
		["-interlace", "plane", "-depth", "16", "-compress", "Zip", "-define", "tiff:tile-geometry=128x128"],
		{ planar: 2, tiled: true, depth: 16 },
	],
	["smaller than a thumbnail, kept at its size", "small.png", ["-compress", "LZW"], {}],
];

/** The traits of a TIFF's first directory, read with Node's Buffer (independently of the decoder). */
function traitsOf(bytes: Buffer): Required<TiffTraits> {
	const order = bytes.toString("latin1", 0, 2) === "MM" ? "MM" : "II";
	const le = order === "II";
	const u16 = (at: number) => (le ? bytes.readUInt16LE(at) : bytes.readUInt16BE(at));
	const u32 = (at: number) => (le ? bytes.readUInt32LE(at) : bytes.readUInt32BE(at));
	const u64 = (at: number) => Number(le ? bytes.readBigUInt64LE(at) : bytes.readBigUInt64BE(at));
	const big = u16(2) === 43;
	const ifd = big ? u64(8) : u32(4);
	const count = big ? u64(ifd) : u16(ifd);
	const tags = new Map<number, number>();
	let depth = 0;
	for (let i = 0; i < count; i++) {
		const at = ifd + (big ? 8 + i * 20 : 2 + i * 12);
		const type = u16(at + 2);
		const values = big ? u64(at + 4) : u32(at + 4);
		const valueAt = at + (big ? 12 : 8);
		tags.set(u16(at), type === 3 ? u16(valueAt) : u32(valueAt));
		// The first BitsPerSample value: in the entry when it fits, else where the entry points.
		if (u16(at) === 258) depth = values * 2 <= (big ? 8 : 4) ? u16(valueAt) : u16(big ? u64(valueAt) : u32(valueAt));
	}
	return {
		order,
		big,
		compression: tags.get(259) ?? 1,
		predictor: tags.get(317) ?? 1,
		photometric: tags.get(262) ?? -1,
		depth,
		tiled: tags.has(322),
		planar: tags.get(284) ?? 1,
	};
}

describe("decodeTiff against ImageMagick", () => {
	for (const [variant, source, options, traits] of TIFF_CASES) {
		it(`a ${variant} TIFF's thumbnail is within 6/255 of ImageMagick's -scale`, async () => {
			const name = `${variant.replace(/\W+/g, "-")}.tif`;
			const { thumbnail, error, bytesRead, size } = await compare(decodeTiff, source, name, options);
			expect(traitsOf(await readFile(path.join(dir, name)))).toMatchObject(traits);
			expect(Math.max(thumbnail.width, thumbnail.height)).toBe(source === "small.png" ? 301 : 1024);
			expect(error).toBeLessThan(BUDGET);
			expect(bytesRead).toBeLessThanOrEqual(size);
		});
	}

	it("a multi-page TIFF's thumbnail is its first page", async () => {
		await convert(
			path.join(dir, "large.png"),
			path.join(dir, "small.png"),
			"-compress",
			"LZW",
			path.join(dir, "pages.tif"),
		);
		const { thumbnail, error } = await compare(decodeTiff, "pages.tif", "first-page.tif", []);
		expect([thumbnail.width, thumbnail.height]).toEqual([1024, 734]);
		expect(error).toBeLessThan(BUDGET);
	});

	it("a TIFF's orientation tag turns the thumbnail as ImageMagick's -auto-orient does", async () => {
		const { thumbnail, error } = await compare(decodeTiff, "large.png", "right-top.tif", ["-orient", "RightTop"], true);
		expect([thumbnail.width, thumbnail.height]).toEqual([734, 1024]);
		expect(error).toBeLessThan(BUDGET);
	});
});
