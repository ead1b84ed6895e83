import { AreaReducer } from "../imaging/area-reducer.ts";
import type { ByteSource } from "../imaging/byte-source.ts";
import type { ContentStats } from "../imaging/content-stats.ts";
import { ContentStatsSink } from "../imaging/content-stats-sink.ts";
import { decodeImage } from "../imaging/decode.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import { encodeRgbPng } from "../imaging/png/encode.ts";
import { teeSink } from "../imaging/raster.ts";

/** A thumbnail ready to store: the PNG's bytes and its size, and what the file's pixels say. */
export type ThumbnailPng = { png: Uint8Array; width: number; height: number; contentStats: ContentStats };

/**
 * A file's thumbnail: its rows streamed through the decoder into an area average, turned to the image's
 * orientation and encoded as an 8-bit RGB PNG; the same rows are measured for the content's statistics
 * (the mean colour is the thumbnail's). Throws ImageFault for a file the decoder cannot read.
 */
export async function makeThumbnail(format: ImageFormat, source: ByteSource): Promise<ThumbnailPng> {
	const reducer = new AreaReducer();
	const measure = new ContentStatsSink();
	const { orientation } = await decodeImage(format, source, teeSink(reducer, measure));
	const { width, height, rgb } = reducer.finish(orientation);
	return { png: encodeRgbPng(rgb, width, height), width, height, contentStats: measure.finish(rgb) };
}
