import { colourOrNone } from "../colour/parts.ts";
import { ImageFault } from "../fault.ts";
import type { ProbedHeader } from "../formats.ts";
import type { ByteReader } from "../reader.ts";
import { tiffColour } from "./colour.ts";
import { checkPieceInFile, imageSize, pieceArrays, readFirstDirectory, valuesOf } from "./directory.ts";

/**
 * Width and height from the first IFD (wherever it is), and a check that every strip or tile lies
 * inside the file. Reads the header, the IFD and the offset and byte-count arrays, nothing else.
 */
export async function probeTiff(reader: ByteReader): Promise<ProbedHeader> {
	const directory = await readFirstDirectory(reader);
	const { widthPx, heightPx } = imageSize(directory);
	const arrays = pieceArrays(directory);
	const { layout } = directory;
	const offsets = await valuesOf(reader, layout, arrays.offsets, 0, arrays.offsets.count);
	// The colour's few values between the two arrays: they lie by the directory, where the offsets' read
	// has just been, and the counts' read would push those blocks out of the cache.
	const colour = await colourOrNone(tiffColour(reader, directory));
	const counts = await valuesOf(reader, layout, arrays.counts, 0, arrays.counts.count);
	const offsetsName = arrays.tiled ? "TileOffsets" : "StripOffsets";
	const countsName = arrays.tiled ? "TileByteCounts" : "StripByteCounts";
	if (offsets.length === 0 || offsets.length !== counts.length) {
		throw new ImageFault(
			"corrupt_header",
			`The TIFF has ${offsets.length} ${offsetsName} but ${counts.length} ${countsName}.`,
		);
	}
	for (const [index, offset] of offsets.entries())
		checkPieceInFile(arrays, index, offset, counts[index] ?? 0, reader.size);
	const order = layout.littleEndian ? "little-endian" : "big-endian";
	const plural = offsets.length === 1 ? "" : "s";
	const pieces = `${offsets.length} ${arrays.unit}${plural}`;
	const detail = `TIFF ${order}${layout.bigTiff ? " BigTIFF" : ""}, ${arrays.tiled ? "tiled" : "stripped"} (${pieces})`;
	return { widthPx, heightPx, detail, colour };
}
