import UPNG from "upng-js";

/** upng-js's encode with its last argument, which its type declaration leaves out: true forbids a palette. */
const encode = UPNG.encode as (
	frames: ArrayBuffer[],
	width: number,
	height: number,
	colours: number,
	delays: number[] | undefined,
	forbidPalette: boolean,
) => ArrayBuffer;

/**
 * An 8-bit RGB PNG (colour type 2) of `rgb`, `width * height * 3` bytes, by upng-js: it takes RGBA,
 * and writes colour type 2 for opaque pixels once a palette is forbidden (a picture of few colours,
 * as a preview's placeholder, would otherwise become an indexed PNG).
 */
export function encodeRgbPng(rgb: Uint8Array, width: number, height: number): Uint8Array<ArrayBuffer> {
	const rgba = new Uint8Array(width * height * 4);
	for (let pixel = 0, from = 0, to = 0; pixel < width * height; pixel++, from += 3, to += 4) {
		rgba[to] = rgb[from] ?? 0;
		rgba[to + 1] = rgb[from + 1] ?? 0;
		rgba[to + 2] = rgb[from + 2] ?? 0;
		rgba[to + 3] = 255;
	}
	return new Uint8Array(encode([rgba.buffer], width, height, 0, undefined, true));
}
