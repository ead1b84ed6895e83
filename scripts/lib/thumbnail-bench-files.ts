/**
 * Print files for `npm run bench:thumbnail`. The large ones are written to disk a band of rows at a time
 * (never whole in memory): TIFF uncompressed and LZW, PNG, and JPEG baseline and progressive
 * (ImageMagick's `convert` from a generated PPM, sized from a small probe so that one large conversion
 * is enough). The small ones are ImageMagick's own: a smooth gradient as a PNG and as a one-strip
 * Deflate TIFF, whose data inflates about a thousandfold, and a 3000 px progressive JPEG.
 */
import { execFile } from "node:child_process";
import { randomFillSync } from "node:crypto";
import { createWriteStream, type WriteStream } from "node:fs";
import { stat } from "node:fs/promises";
import { promisify } from "node:util";
import { createDeflate } from "node:zlib";
import { pngChunk } from "./image-fixtures.ts";

const run = promisify(execFile);

/** Writes `bytes`, waiting when the stream's buffer is full. */
async function write(stream: WriteStream, bytes: Uint8Array): Promise<void> {
	if (!stream.write(bytes)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
}

async function close(stream: WriteStream): Promise<void> {
	await new Promise<void>((resolve, reject) =>
		stream.end((error?: Error | null) => (error ? reject(error) : resolve())),
	);
}

/** `count` rows of `width` RGB pixels from row `y`: a diagonal gradient with noise of ±`noise`, like a grainy photograph. */
function rgbRows(width: number, y: number, count: number, noise: number): Uint8Array {
	const rows = new Uint8Array(width * count * 3);
	randomFillSync(rows);
	for (let r = 0; r < count; r++) {
		for (let x = 0; x < width; x++) {
			const at = (r * width + x) * 3;
			const base = ((x + y + r) >> 4) & 0xff;
			for (let c = 0; c < 3; c++) {
				const jitter = ((rows[at + c] ?? 0) % (2 * noise + 1)) - noise;
				rows[at + c] = Math.max(0, Math.min(255, base + c * 40 + jitter));
			}
		}
	}
	return rows;
}

/** A classic little-endian TIFF header and first IFD (RGB, 8 bits, strips), the strips' offsets and counts placed after it. */
function tiffHeader(width: number, height: number, rowsPerStrip: number, compression: 1 | 5, stripBytes: number[]) {
	const strips = stripBytes.length;
	const entries: Array<[number, number, number, number]> = [
		[256, 4, 1, width],
		[257, 4, 1, height],
		[258, 3, 3, 0], // BitsPerSample: offset filled below
		[259, 3, 1, compression],
		[262, 3, 1, 2],
		[273, 4, strips, 0], // StripOffsets
		[277, 3, 1, 3],
		[278, 4, 1, rowsPerStrip],
		[279, 4, strips, 0], // StripByteCounts
		[284, 3, 1, 1],
	];
	const ifdAt = 8;
	const ifdBytes = 2 + entries.length * 12 + 4;
	const bitsAt = ifdAt + ifdBytes;
	const offsetsAt = bitsAt + 6;
	const countsAt = offsetsAt + strips * 4;
	const dataAt = countsAt + strips * 4;
	const header = new DataView(new ArrayBuffer(dataAt));
	header.setUint16(0, 0x4949, true);
	header.setUint16(2, 42, true);
	header.setUint32(4, ifdAt, true);
	header.setUint16(ifdAt, entries.length, true);
	entries.forEach(([tag, type, count, value], index) => {
		const at = ifdAt + 2 + index * 12;
		header.setUint16(at, tag, true);
		header.setUint16(at + 2, type, true);
		header.setUint32(at + 4, count, true);
		const pointed = tag === 258 ? bitsAt : tag === 273 ? offsetsAt : tag === 279 ? countsAt : undefined;
		if (pointed !== undefined) header.setUint32(at + 8, pointed, true);
		else if (type === 3) header.setUint16(at + 8, value, true);
		else header.setUint32(at + 8, value, true);
	});
	for (let c = 0; c < 3; c++) header.setUint16(bitsAt + c * 2, 8, true);
	let offset = dataAt;
	stripBytes.forEach((bytes, index) => {
		header.setUint32(offsetsAt + index * 4, offset, true);
		header.setUint32(countsAt + index * 4, bytes, true);
		offset += bytes;
	});
	return new Uint8Array(header.buffer);
}

/**
 * TIFF LZW of `raw` as literal codes only: a Clear code, then every byte as a 9-bit code, a Clear again
 * every 250 bytes (so codes stay 9 bits wide), and End of Information. Valid LZW that any reader
 * decodes, its size known in advance, and no dictionary search to make it.
 */
function lzwLiterals(raw: Uint8Array): Uint8Array {
	const codes = 1 + raw.length + Math.ceil(raw.length / 250) + 1;
	const out = new Uint8Array(Math.ceil((codes * 9) / 8));
	let bitAt = 0;
	const put = (code: number) => {
		for (let bit = 8; bit >= 0; bit--, bitAt++) {
			if ((code >> bit) & 1) out[bitAt >> 3] = (out[bitAt >> 3] ?? 0) | (0x80 >> (bitAt & 7));
		}
	};
	for (let i = 0; i < raw.length; i++) {
		if (i % 250 === 0) put(256);
		put(raw[i] ?? 0);
	}
	put(257);
	return out.subarray(0, Math.ceil(bitAt / 8));
}

/** The LZW size of a strip of `rawBytes` bytes, as lzwLiterals writes it. */
function lzwBytes(rawBytes: number): number {
	const codes = Math.ceil(rawBytes / 250) + rawBytes + 1;
	return Math.ceil((codes * 9) / 8);
}

/** An RGB TIFF of `width` × `height`, strips of 16 rows, uncompressed or LZW, written to `file`. */
export async function writeTiff(file: string, width: number, height: number, compression: 1 | 5): Promise<void> {
	const rowsPerStrip = 16;
	const strips = Math.ceil(height / rowsPerStrip);
	const stripBytes = Array.from({ length: strips }, (_, index) => {
		const raw = width * 3 * Math.min(rowsPerStrip, height - index * rowsPerStrip);
		return compression === 1 ? raw : lzwBytes(raw);
	});
	const stream = createWriteStream(file);
	await write(stream, tiffHeader(width, height, rowsPerStrip, compression, stripBytes));
	for (let index = 0; index < strips; index++) {
		const y = index * rowsPerStrip;
		const rows = rgbRows(width, y, Math.min(rowsPerStrip, height - y), 24);
		await write(stream, compression === 1 ? rows : lzwLiterals(rows));
	}
	await close(stream);
}

/** An 8-bit RGB PNG of `width` × `height` (noisy enough that deflate keeps it about its raw size), written to `file`. */
export async function writePng(file: string, width: number, height: number): Promise<void> {
	const stream = createWriteStream(file);
	await write(stream, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
	const ihdr = new Uint8Array(13);
	const view = new DataView(ihdr.buffer);
	view.setUint32(0, width);
	view.setUint32(4, height);
	ihdr.set([8, 2, 0, 0, 0], 8);
	await write(stream, pngChunk("IHDR", ihdr));
	const deflate = createDeflate({ level: 1 });
	const idat = (async () => {
		for await (const piece of deflate) await write(stream, pngChunk("IDAT", new Uint8Array(piece)));
	})();
	const band = 32;
	for (let y = 0; y < height; y += band) {
		const count = Math.min(band, height - y);
		const rows = rgbRows(width, y, count, 127);
		const filtered = new Uint8Array(count * (width * 3 + 1));
		for (let r = 0; r < count; r++)
			filtered.set(rows.subarray(r * width * 3, (r + 1) * width * 3), r * (width * 3 + 1) + 1);
		if (!deflate.write(filtered)) await new Promise<void>((resolve) => deflate.once("drain", () => resolve()));
	}
	deflate.end();
	await idat;
	await write(stream, pngChunk("IEND", new Uint8Array(0)));
	await close(stream);
}

/** A binary PPM of `width` × `height` (ImageMagick's input for the JPEGs). */
async function writePpm(file: string, width: number, height: number): Promise<void> {
	const stream = createWriteStream(file);
	await write(stream, new TextEncoder().encode(`P6 ${width} ${height} 255\n`));
	for (let y = 0; y < height; y += 64) await write(stream, rgbRows(width, y, Math.min(64, height - y), 48));
	await close(stream);
}

/**
 * A JPEG (baseline, or progressive with `-interlace Plane`) of about `targetBytes`, quality 98, 4:4:4:
 * a 1000 × 1000 probe gives the bytes per pixel, then one conversion at the size that should reach it.
 */
export async function writeJpeg(
	file: string,
	targetBytes: number,
	progressive: boolean,
): Promise<{ width: number; height: number }> {
	const options = ["-quality", "98", "-sampling-factor", "1x1", ...(progressive ? ["-interlace", "Plane"] : [])];
	const probe = `${file}.probe.ppm`;
	await writePpm(probe, 1000, 1000);
	await run("convert", [probe, ...options, `${file}.probe.jpg`]);
	const perPixel = (await stat(`${file}.probe.jpg`)).size / 1_000_000;
	const pixels = targetBytes / perPixel;
	const width = Math.round(Math.sqrt(pixels * 1.5));
	const height = Math.round(pixels / width);
	const source = `${file}.ppm`;
	await writePpm(source, width, height);
	await run("convert", [source, ...options, file], { maxBuffer: 1024 * 1024 });
	return { width, height };
}

/**
 * A `width` × `height` 8-bit RGB gradient from navy at the top to orange at the bottom, written by
 * ImageMagick as a PNG, or as a TIFF whose rows are one Deflate strip (as some writers store a whole
 * image): a few hundred kB that inflate about a thousandfold.
 */
export async function writeGradient(
	file: string,
	width: number,
	height: number,
	format: "png" | "tiff",
): Promise<void> {
	const options = format === "png" ? [] : ["-compress", "zip", "-define", `tiff:rows-per-strip=${height}`];
	await run("convert", ["-size", `${width}x${height}`, "gradient:navy-orange", "-depth", "8", ...options, file]);
}

/** A `width` × `height` progressive JPEG (4:2:0, quality 92, as web exports are) of a grainy photograph-like picture. */
export async function writeProgressiveJpeg(file: string, width: number, height: number): Promise<void> {
	const source = `${file}.ppm`;
	await writePpm(source, width, height);
	await run("convert", [source, "-quality", "92", "-sampling-factor", "2x2", "-interlace", "Plane", file]);
}
