import jsQR from "jsqr";
import { describe, expect, it } from "vitest";
import { qrCodeSvg } from "../../src/production/ticket-qr.ts";

/** Paints the SVG's squares (the path's `M x y h w v1 h-w z` runs) into RGBA pixels, `scale` per module. */
function paint(svg: string, scale: number): { rgba: Uint8ClampedArray; side: number } {
	const box = /viewBox="0 0 (\d+) (\d+)"/.exec(svg);
	const path = /<path fill="#000" d="([^"]*)"/.exec(svg);
	if (box?.[1] === undefined || path?.[1] === undefined) throw new Error("not the ticket's QR SVG");
	const side = Number(box[1]) * scale;
	const rgba = new Uint8ClampedArray(side * side * 4).fill(255);
	for (const run of path[1].matchAll(/M(\d+) (\d+)h(\d+)v1h-\d+z/g)) {
		const [x, y, width] = [Number(run[1]), Number(run[2]), Number(run[3])];
		for (let py = y * scale; py < (y + 1) * scale; py++) {
			for (let px = x * scale; px < (x + width) * scale; px++) {
				const at = (py * side + px) * 4;
				rgba[at] = 0;
				rgba[at + 1] = 0;
				rgba[at + 2] = 0;
			}
		}
	}
	return { rgba, side };
}

describe("the work ticket's QR code", () => {
	it("scans back to the order and item it was drawn for", () => {
		const text = "ord_01JZ8Q4W7X9Y2B3C4D5E6F7G8H/itm_01JZ8Q4W7X9Y2B3C4D5E6F7G8J";
		const { rgba, side } = paint(qrCodeSvg(text), 4);
		expect(jsQR(rgba, side, side)?.data).toBe(text);
	});

	it("keeps a quiet zone of four light modules on every side", () => {
		const svg = qrCodeSvg("ord_1/itm_1");
		const size = Number(/viewBox="0 0 (\d+)/.exec(svg)?.[1]);
		const starts = [...svg.matchAll(/M(\d+) (\d+)h(\d+)/g)].map((run) => [
			Number(run[1]),
			Number(run[2]),
			Number(run[3]),
		]);
		expect(starts.length).toBeGreaterThan(0);
		for (const [x = 0, y = 0, width = 0] of starts) {
			expect(x).toBeGreaterThanOrEqual(4);
			expect(y).toBeGreaterThanOrEqual(4);
			expect(x + width).toBeLessThanOrEqual(size - 4);
			expect(y + 1).toBeLessThanOrEqual(size - 4);
		}
	});
});
