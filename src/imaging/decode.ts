import { THUMBNAIL_LONGEST_SIDE } from "./area-reducer.ts";
import type { ByteSource } from "./byte-source.ts";
import type { ImageFormat } from "./formats.ts";
import { decodeJpeg } from "./jpeg/decode.ts";
import { decodePng } from "./png/decode.ts";
import type { Decoded, RasterSink } from "./raster.ts";
import { decodeTiff } from "./tiff/decode.ts";

/**
 * The one place a format picks its decoder: the image's rows, streamed into `sink`. A JPEG, baseline or
 * progressive, is read at the coarsest scale (1/8 from its DC coefficients, 1/4, 1/2 or whole) that
 * still gives a thumbnail's longest side (or the image's own, when smaller). A progressive file keeps
 * its coefficients at that scale until its last scan, within a budget: one whose planes would pass it
 * is read at a coarser scale, down to 1/8, where only its DC scans are read. Throws ImageFault for a
 * file it cannot read.
 */
export function decodeImage(format: ImageFormat, source: ByteSource, sink: RasterSink): Promise<Decoded> {
	switch (format) {
		case "jpeg":
			return decodeJpeg(source, sink, { minLongSide: THUMBNAIL_LONGEST_SIDE });
		case "png":
			return decodePng(source, sink);
		case "tiff":
			return decodeTiff(source, sink);
	}
}
