import { AreaReducer } from "../imaging/area-reducer.ts";
import type { ByteSource } from "../imaging/byte-source.ts";
import { decodeImage } from "../imaging/decode.ts";
import type { ImageFormat } from "../imaging/formats.ts";
import { encodeRgbPng } from "../imaging/png/encode.ts";

/** A thumbnail ready to store: the PNG's bytes and its size. */
export type ThumbnailPng = { png: Uint8Array; width: number; height: number };

/**
 * A file's thumbnail: its rows streamed through the decoder into an area average, turned to the image's
 * orientation and encoded as an 8-bit RGB PNG. Throws ImageFault for a file the decoder cannot read.
 */
export async function makeThumbnail(format: ImageFormat, source: ByteSource): Promise<ThumbnailPng> {
	const reducer = new AreaReducer();
	const { orientation } = await decodeImage(format, source, reducer);
	const { width, height, rgb } = reducer.finish(orientation);
	return { png: encodeRgbPng(rgb, width, height), width, height };
}
