/**
 * `npm run sample-file -- [path]`: writes a real print file for an 8 × 10 in order: 2400 × 3000 px, 300 DPI at
 * that size. A path ending in `.png` gets a PNG, anything else an uncompressed baseline RGB TIFF (the default,
 * `.wrangler/print.tif`, 21.6 MB, inside a folder git ignores). Both open in any image viewer: a soft gradient, so it is plainly a sample.
 */
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import UPNG from "upng-js";
import { tiffWithIfdAtEnd } from "./lib/image-fixtures.ts";

const WIDTH = 2400;
const HEIGHT = 3000;

/** The sample's colour at a pixel: blue-grey at the top left to warm sand at the bottom right. */
function colourAt(x: number, y: number): [number, number, number] {
	const across = x / (WIDTH - 1);
	const down = y / (HEIGHT - 1);
	return [
		Math.round(120 + 110 * down),
		Math.round(140 + 60 * (across + down) * 0.5),
		Math.round(170 - 60 * down + 20 * across),
	];
}

/** Fills `pixels` (rows of `channels` bytes per pixel, from `offset`) with the gradient. */
function paint(pixels: Uint8Array, offset: number, channels: 3 | 4): void {
	for (let y = 0; y < HEIGHT; y++) {
		for (let x = 0; x < WIDTH; x++) {
			const at = offset + (y * WIDTH + x) * channels;
			pixels.set(colourAt(x, y), at);
			if (channels === 4) pixels[at + 3] = 255;
		}
	}
}

function tiff(): Uint8Array {
	const file = tiffWithIfdAtEnd(WIDTH, HEIGHT, WIDTH * HEIGHT * 3);
	// The helper puts the one strip right after the 8-byte header.
	paint(file, 8, 3);
	return file;
}

function png(): Uint8Array {
	const rgba = new Uint8Array(WIDTH * HEIGHT * 4);
	paint(rgba, 0, 4);
	return new Uint8Array(UPNG.encode([rgba.buffer], WIDTH, HEIGHT, 0));
}

// By default inside .wrangler/, which git ignores: a 21.6 MB sample never lands in a commit by accident.
const target = process.argv[2] ?? ".wrangler/print.tif";
const isPng = path.extname(target).toLowerCase() === ".png";
const bytes = isPng ? png() : tiff();
await mkdir(path.dirname(target), { recursive: true });
await writeFile(target, bytes);
console.log(
	`wrote ${target}: ${bytes.byteLength.toLocaleString("en-US")} bytes, ${WIDTH} × ${HEIGHT} px ${isPng ? "PNG" : "uncompressed RGB TIFF"} (300 DPI at 8 × 10 in; content_type ${isPng ? "image/png" : "image/tiff"})`,
);
