/**
 * A real PNG logo drawn in code (upng-js): a dark disc with a light ring beside a bar in the accent
 * colour, on white. Small and decodable by any browser, for the demo and the browser tests' brand
 * profiles (a logo must be a PNG or JPEG of at most 2000 px on its long side).
 */
import UPNG from "upng-js";

/** An opaque RGB PNG of `width` × `height` px, drawn with `accent` (r, g, b). */
export function drawBrandLogo(width = 480, height = 160, accent: [number, number, number] = [196, 84, 44]): Uint8Array {
	const rgba = new Uint8Array(width * height * 4);
	const radius = height * 0.42;
	const centreX = height / 2;
	const centreY = height / 2;
	for (let y = 0; y < height; y++) {
		for (let x = 0; x < width; x++) {
			const distance = Math.hypot(x - centreX, y - centreY);
			let colour: [number, number, number] = [255, 255, 255];
			if (distance < radius)
				colour = distance > radius * 0.72 && distance < radius * 0.82 ? [245, 240, 230] : [34, 34, 40];
			const inBar = x > height * 1.1 && x < width - height * 0.2 && Math.abs(y - centreY) < height * 0.12;
			if (inBar) colour = accent;
			const offset = (y * width + x) * 4;
			rgba.set([...colour, 255], offset);
		}
	}
	return new Uint8Array(UPNG.encode([rgba.buffer], width, height, 0));
}
