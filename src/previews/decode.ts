import type { ByteSource } from "../print-files/byte-source.ts";
import type { ImageFormat } from "../print-files/image-types.ts";
import { decodeJpegDc } from "./jpeg-dc-decoder.ts";
import { decodePng } from "./png-decoder.ts";
import type { Decoded, RasterSink } from "./raster.ts";
import { decodeTiff } from "./tiff-decoder.ts";

/**
 * The one place a format picks its decoder: the image's rows, streamed into `sink`. A JPEG is read at
 * 1/8 scale from its DC coefficients (a thumbnail of 1024 px needs no more of any image above 8192 px).
 */
export function decodeImage(format: ImageFormat, source: ByteSource, sink: RasterSink): Promise<Decoded> {
	switch (format) {
		case "jpeg":
			return decodeJpegDc(source, sink);
		case "png":
			return decodePng(source, sink);
		case "tiff":
			return decodeTiff(source, sink);
	}
}
