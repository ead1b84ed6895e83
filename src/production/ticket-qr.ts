/**
 * The work ticket's QR code as inline SVG: `uqr` encodes the text (a small, maintained encoder that
 * runs in Workers), and the dark modules are drawn as one path of unit squares, a row's neighbouring
 * modules joined into one run, on a grid with the standard four-module quiet zone.
 */
import { encode } from "uqr";

/** The quiet zone around the code, in modules, as the QR standard asks. */
const QUIET_ZONE = 4;

/** The SVG of `text` as a QR code (medium error correction: a smudged ticket still scans). */
export function qrCodeSvg(text: string): string {
	const { data } = encode(text, { ecc: "M", border: 0 });
	const size = data.length + 2 * QUIET_ZONE;
	const runs: string[] = [];
	data.forEach((row, y) => {
		let x = 0;
		while (x < row.length) {
			if (row[x] !== true) {
				x += 1;
				continue;
			}
			const start = x;
			while (row[x] === true) x += 1;
			runs.push(`M${start + QUIET_ZONE} ${y + QUIET_ZONE}h${x - start}v1h-${x - start}z`);
		}
	});
	return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path fill="#000" d="${runs.join("")}"/></svg>`;
}
