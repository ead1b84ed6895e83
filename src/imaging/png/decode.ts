/**
 * The PNG decoder's entry point, `decodePng`: walks the chunks (chunks.ts), inflates the image data as
 * it arrives and hands each scanline, unfiltered and as RGB (scanlines.ts), to the sink, or an
 * interlaced image's passes to the thumbnail's sums (interlace-sums.ts).
 */
import type { ByteSource } from "../byte-source.ts";
import { ImageFault } from "../fault.ts";
import { inflate } from "../inflate.ts";
import { BEST_RATIO, checkAgainstFile, checkDimensions } from "../limits.ts";
import type { Decoded, RasterSink } from "../raster.ts";
import { type ByteCursor, ByteReader, DECODER_READING } from "../reader.ts";
import { channelsOf, type Header, imageData, nextChunk, readHeaderChunk } from "./chunks.ts";
import { InterlaceSums } from "./interlace-sums.ts";
import { type Colours, canBeTransparent, coloursOf, Scanlines, toRgb } from "./scanlines.ts";

/** Adam7's passes: x start, y start, x step, y step. */
export const ADAM7 = [
	[0, 0, 8, 8],
	[4, 0, 8, 8],
	[0, 4, 4, 8],
	[2, 0, 4, 4],
	[0, 2, 2, 4],
	[1, 0, 2, 2],
	[0, 1, 1, 2],
] as const;

/**
 * Decodes a PNG of any colour type and depth, interlaced or not, handing `sink` its rows in order
 * with transparency composited on white, and their alpha to a sink that takes it (an interlaced PNG's
 * averaged like its colour). Holds two scanlines (an interlaced PNG: the thumbnail's sums instead),
 * never the image.
 */
export async function decodePng(source: ByteSource, sink: RasterSink): Promise<Decoded> {
	const reader = new ByteReader(source, DECODER_READING).cursor();
	const header = await readHeaderChunk(reader);
	checkDimensions("png", header.width, header.height);
	let palette: Uint8Array | null = null;
	let transparency: Uint8Array | null = null;
	for (;;) {
		const { type, length } = await nextChunk(reader);
		if (type === "IDAT") {
			const colours = coloursOf(header, palette, transparency);
			await decodeImageData(reader, length, colours, sink, source.size);
			return { orientation: 1 };
		}
		if (type === "IEND") throw new ImageFault("corrupt_header", "The PNG has no image data (IDAT).");
		if ((type === "PLTE" || type === "tRNS") && length <= 768) {
			const data = await reader.take(length, `the PNG's ${type} chunk`);
			if (type === "PLTE") palette = data.slice();
			else transparency = data.slice();
			reader.skip(4);
		} else {
			reader.skip(length + 4);
		}
	}
}

/** Bytes of one scanline (without its filter byte) of a `width`-pixel row. */
function lineBytes(header: Header, width: number): number {
	return Math.ceil((width * channelsOf(header.colorType) * header.depth) / 8);
}

async function decodeImageData(
	reader: ByteCursor,
	firstLength: number,
	colours: Colours,
	sink: RasterSink,
	fileBytes: number,
): Promise<void> {
	const { header } = colours;
	const passes = header.interlaced
		? ADAM7.map(([x0, y0, dx, dy]) => ({
				x0,
				y0,
				dx,
				dy,
				width: Math.ceil(Math.max(0, header.width - x0) / dx),
				height: Math.ceil(Math.max(0, header.height - y0) / dy),
			})).filter((pass) => pass.width > 0 && pass.height > 0)
		: [{ x0: 0, y0: 0, dx: 1, dy: 1, width: header.width, height: header.height }];
	const expected = passes.reduce((sum, pass) => sum + pass.height * (1 + lineBytes(header, pass.width)), 0);
	checkAgainstFile(expected, fileBytes, BEST_RATIO.deflate);
	const bytesPerPixel = Math.max(1, (channelsOf(header.colorType) * header.depth) / 8);
	const lines = new Scanlines(bytesPerPixel);
	const rgb = new Uint8Array(header.width * 3);
	const alpha = sink.alpha !== undefined && canBeTransparent(colours) ? new Uint8Array(header.width) : null;
	const sums = header.interlaced ? new InterlaceSums(header.width, header.height, alpha !== null) : null;
	if (sums === null) sink.start(header.width, header.height);
	let passIndex = 0;
	let row = 0;
	let pass = passes[0];
	if (pass === undefined) return;
	lines.reset(lineBytes(header, pass.width));
	for await (const piece of inflate(imageData(reader, firstLength), expected)) {
		let at = 0;
		while (at < piece.length && pass !== undefined) {
			at += lines.fill(piece, at);
			const line = lines.complete();
			if (line === null) continue;
			toRgb(colours, line, pass.width, rgb, alpha);
			if (sums !== null) sums.add(pass, row, rgb, alpha);
			else {
				if (alpha !== null) sink.alpha?.(row, 1, alpha);
				sink.rows(row, 1, rgb);
			}
			row++;
			if (row === pass.height) {
				passIndex++;
				pass = passes[passIndex];
				row = 0;
				if (pass !== undefined) lines.reset(lineBytes(header, pass.width));
			}
		}
	}
	if (pass !== undefined) throw new ImageFault("truncated", "The PNG's image data ends before its last row.");
	sums?.deliver(sink);
}
