/**
 * The TIFF decoder's entry point, `decodeTiff`: reads the first directory (directory.ts, the probe's
 * own), checks the image is a variant it reads, and hands its strips or tiles (strips-tiles.ts) on as
 * rows of RGB (samples.ts).
 */
import type { ByteSource } from "../byte-source.ts";
import { ImageFault } from "../fault.ts";
import { BEST_RATIO, checkAgainstFile, checkDimensions } from "../limits.ts";
import type { Decoded, RasterSink } from "../raster.ts";
import { ByteReader, DECODER_READING } from "../reader.ts";
import { imageSize, pieceArrays, readFirstDirectory, TAG, valuesOf } from "./directory.ts";
import { COLOUR_CHANNELS, type Pixels } from "./samples.ts";
import { readStrips, readTiles } from "./strips-tiles.ts";

/** Compressions read: none, LZW, Deflate (Adobe's and the old code), PackBits. */
const COMPRESSIONS = new Set([1, 5, 8, 32946, 32773]);

/**
 * Decodes the first page of a TIFF (strips or tiles, samples together or in separate planes;
 * uncompressed, LZW with or without the horizontal predictor, Deflate, PackBits; 8 or 16 bits;
 * gray, RGB or CMYK; either byte order; BigTIFF), handing `sink` its rows in order. Holds a strip's row or a band of tiles, never the image.
 */
export async function decodeTiff(source: ByteSource, sink: RasterSink): Promise<Decoded> {
	const reader = new ByteReader(source, DECODER_READING);
	const directory = await readFirstDirectory(reader);
	const { layout, entries } = directory;
	const one = async (tag: number, fallback?: number): Promise<number> => {
		const entry = entries.get(tag);
		if (entry === undefined) {
			if (fallback === undefined) throw new ImageFault("corrupt_header", `The TIFF lacks the required tag ${tag}.`);
			return fallback;
		}
		const [value] = await valuesOf(reader, layout, entry, 0, 1);
		return value ?? fallback ?? 0;
	};
	const { widthPx: width, heightPx: height } = imageSize(directory);
	checkDimensions("tiff", width, height);
	const arrays = pieceArrays(directory);
	const samples = await one(TAG.samplesPerPixel, 1);
	const compression = await one(TAG.compression, 1);
	const photometric = await one(TAG.photometric);
	const planar = await one(TAG.planarConfig, 1);
	const predictor = await one(TAG.predictor, 1);
	const sampleFormat = await one(TAG.sampleFormat, 1);
	const orientation = await one(TAG.orientation, 1);
	const inkSet = await one(TAG.inkSet, 1);
	const channels = COLOUR_CHANNELS[photometric];
	if (channels === undefined || (photometric === 5 && inkSet !== 1)) {
		throw new ImageFault("unsupported_variant", `TIFF photometric interpretation ${photometric} is not read.`);
	}
	if (samples < channels || samples > 8) {
		throw new ImageFault("corrupt_header", `The TIFF has ${samples} samples per pixel for ${channels} channels.`);
	}
	const depthEntry = entries.get(TAG.bitsPerSample);
	const depths = depthEntry === undefined ? [1] : await valuesOf(reader, layout, depthEntry, 0, samples);
	const depth = depths[0] ?? 1;
	if ((depth !== 8 && depth !== 16) || depths.some((value) => value !== depth)) {
		throw new ImageFault("unsupported_variant", `TIFF samples of ${depths.join("/")} bits are not read.`);
	}
	if (!COMPRESSIONS.has(compression)) {
		throw new ImageFault("unsupported_variant", `TIFF compression ${compression} is not read.`);
	}
	if (planar !== 1 && planar !== 2) throw new ImageFault("corrupt_header", `TIFF planar configuration ${planar}.`);
	if (sampleFormat !== 1) throw new ImageFault("unsupported_variant", "TIFFs of signed or float samples are not read.");
	if (predictor !== 1 && predictor !== 2) {
		throw new ImageFault("unsupported_variant", `TIFF predictor ${predictor} is not read.`);
	}
	const extra = samples > channels ? await one(TAG.extraSamples, 0) : 0;
	const pixels: Pixels = {
		width,
		samples,
		bytesPerSample: depth / 8,
		photometric,
		alpha:
			samples > channels && extra === 1 ? "associated" : samples > channels && extra === 2 ? "unassociated" : "none",
		littleEndian: layout.littleEndian,
		predictor,
		planes: planar === 2 ? samples : 1,
	};
	const ratio =
		compression === 1
			? BEST_RATIO.none
			: compression === 5
				? BEST_RATIO.lzw
				: compression === 32773
					? BEST_RATIO.packBits
					: BEST_RATIO.deflate;
	checkAgainstFile(width * height * samples * pixels.bytesPerSample, source.size, ratio);
	const read = { reader, layout, arrays, compression, pixels, height, sink };
	if (arrays.tiled) await readTiles(read, await one(TAG.tileWidth), await one(TAG.tileLength));
	else await readStrips(read, Math.min(await one(TAG.rowsPerStrip, height), height));
	return { orientation: orientation >= 1 && orientation <= 8 ? orientation : 1 };
}
