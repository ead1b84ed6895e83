import type { ByteSource } from "../print-files/byte-source.ts";
import type { ImageFormat } from "../print-files/image-types.ts";
import { THUMBNAIL_LONGEST_SIDE } from "./area-reducer.ts";
import { decodeJpeg } from "./jpeg-decoder.ts";
import { decodePng } from "./png-decoder.ts";
import type { Decoded, RasterSink } from "./raster.ts";
import { decodeTiff } from "./tiff-decoder.ts";

/**
 * The one place a format picks its decoder: the image's rows, streamed into `sink`. A baseline JPEG is
 * read at the coarsest scale (1/8 from its DC coefficients, 1/4, 1/2 or whole) that still gives a
 * thumbnail's longest side; a progressive JPEG only to the end of its DC scans, at 1/8 (the rest of its
 * file, its AC scans, is never read: its thumbnail is 1/8 of its size when that is under 1024 px).
 */
export function decodeImage(format: ImageFormat, source: ByteSource, sink: RasterSink): Promise<Decoded> {
	switch (format) {
		case "jpeg":
			return decodeJpeg(source, sink, { minLongSide: THUMBNAIL_LONGEST_SIDE, progressiveDcOnly: true });
		case "png":
			return decodePng(source, sink);
		case "tiff":
			return decodeTiff(source, sink);
	}
}
