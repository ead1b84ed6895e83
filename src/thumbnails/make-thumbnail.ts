import UPNG from "upng-js";
import { AreaReducer, type Thumbnail } from "../imaging/area-reducer.ts";
import type { ByteSource } from "../imaging/byte-source.ts";
import { decodeImage } from "../imaging/decode.ts";
import type { ImageFormat } from "../imaging/formats.ts";

declare module "upng-js" {
	/** upng-js's own sixth parameter, missing from its published types: true never writes a palette. */
	function encode(
		imgs: ArrayBuffer[],
		w: number,
		h: number,
		cnum: number,
		dels: number[],
		forbidPlte: boolean,
	): ArrayBuffer;
}

/** A thumbnail ready to store: the PNG's bytes and its size. */
export type ThumbnailPng = { png: Uint8Array; width: number; height: number };

/**
 * A file's thumbnail: its rows streamed through the decoder into an area average, turned to the image's
 * orientation and encoded as an 8-bit RGB PNG. Throws ImageFault for a file the decoder cannot read.
 */
export async function makeThumbnail(format: ImageFormat, source: ByteSource): Promise<ThumbnailPng> {
	const reducer = new AreaReducer();
	const { orientation } = await decodeImage(format, source, reducer);
	const thumbnail = reducer.finish(orientation);
	return { png: encodeRgbPng(thumbnail), width: thumbnail.width, height: thumbnail.height };
}

/** An 8-bit RGB PNG (colour type 2, never a palette) of a thumbnail, by upng-js. */
function encodeRgbPng(thumbnail: Thumbnail): Uint8Array {
	// upng-js takes RGBA; opaque alpha and no palette make it write colour type 2.
	const { width, height, rgb } = thumbnail;
	const rgba = new Uint8Array(width * height * 4);
	for (let from = 0, to = 0; from < rgb.length; from += 3, to += 4) {
		rgba[to] = rgb[from] ?? 0;
		rgba[to + 1] = rgb[from + 1] ?? 0;
		rgba[to + 2] = rgb[from + 2] ?? 0;
		rgba[to + 3] = 255;
	}
	return new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0, [], true));
}
