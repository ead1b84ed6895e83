import { describe, expect, it } from "vitest";
import { type FitFigures, fitFigures, turnedToPrint, widestVisibleBandIn } from "../../src/framing/fit-figures.ts";
import { croppedPercent, effectiveDpi } from "../../src/print-files/resolution.ts";

/** Image sizes of every shape: portrait, landscape, square, panorama (both ways), and a camera's odd sizes. */
const IMAGES: [number, number][] = [
	[4000, 6000],
	[6000, 4000],
	[5000, 5000],
	[12000, 3000],
	[2000, 9000],
	[4032, 3024],
	[3456, 5184],
	[7360, 4912],
];
/** Catalog sizes of every shape: portrait, landscape, square, long. */
const PRINTS: [number, number][] = [
	[8, 10],
	[10, 8],
	[11, 14],
	[16, 20],
	[20, 16],
	[12, 12],
	[24, 36],
	[36, 12],
	[4, 40],
	[30, 40],
];

/**
 * The same figures worked out another way, as the preview's drawing does: lay the print's rectangle on
 * the image in the image's own orientation (swapped when the long sides would cross), then scale the
 * image to cover it (fill) or to sit inside it (fit), in inches per image pixel.
 */
function drawnGeometry(widthPx: number, heightPx: number, widthIn: number, heightIn: number, fit: "fill" | "fit") {
	const imageLandscape = widthPx >= heightPx;
	const printLandscape = widthIn >= heightIn;
	const square = widthPx === heightPx || widthIn === heightIn;
	const swap = !square && imageLandscape !== printLandscape;
	const alongWidth = swap ? heightIn : widthIn;
	const alongHeight = swap ? widthIn : heightIn;
	const inchesPerPx =
		fit === "fill"
			? Math.max(alongWidth / widthPx, alongHeight / heightPx)
			: Math.min(alongWidth / widthPx, alongHeight / heightPx);
	const shownPx = { width: alongWidth / inchesPerPx, height: alongHeight / inchesPerPx };
	return {
		swap,
		inchesPerPx,
		cropPx: { across: Math.max(0, widthPx - shownPx.width) / 2, down: Math.max(0, heightPx - shownPx.height) / 2 },
		bandIn: {
			across: Math.max(0, alongWidth - widthPx * inchesPerPx) / 2,
			down: Math.max(0, alongHeight - heightPx * inchesPerPx) / 2,
		},
	};
}

/** `got` is `expected` rounded to `places` decimals (a half unit either way, and a hair for floating point). */
function expectRounded(got: number | undefined, expected: number, places: number): void {
	expect(Math.abs((got ?? Number.NaN) - expected)).toBeLessThanOrEqual(0.5 * 10 ** -places + 1e-9);
}

function figures(image: [number, number], print: [number, number], fit: "fill" | "fit", matted: boolean): FitFigures {
	return fitFigures({ widthPx: image[0], heightPx: image[1], widthIn: print[0], heightIn: print[1], fit, matted });
}

describe("fitFigures", () => {
	it("gives fill's crop on each side, in pixels and percent, as the drawn geometry does, for every shape and size", () => {
		for (const image of IMAGES) {
			for (const print of PRINTS) {
				const got = figures(image, print, "fill", false);
				const drawn = drawnGeometry(image[0], image[1], print[0], print[1], "fill");
				expect(got.turned).toBe(drawn.swap);
				expect(got.bands_in).toBeNull();
				const crop = got.crop;
				if (crop === null) throw new Error("fill has a crop");
				expectRounded(crop.px.left, drawn.cropPx.across, 1);
				expect(crop.px.right).toBe(crop.px.left);
				expectRounded(crop.px.top, drawn.cropPx.down, 1);
				expect(crop.px.bottom).toBe(crop.px.top);
				expectRounded(crop.percent.left, (drawn.cropPx.across / image[0]) * 100, 2);
				expectRounded(crop.percent.top, (drawn.cropPx.down / image[1]) * 100, 2);
				// Only one axis is ever cut.
				expect(Math.min(crop.px.left, crop.px.top)).toBe(0);
				expectRounded(got.dpi, 1 / drawn.inchesPerPx, 1);
			}
		}
	});

	it("agrees with the order's resolution and crop rule (croppedPercent, effectiveDpi)", () => {
		for (const image of IMAGES) {
			for (const print of PRINTS) {
				for (const fit of ["fill", "fit"] as const) {
					const got = figures(image, print, fit, false);
					expectRounded(got.dpi, effectiveDpi(image[0], image[1], print[0], print[1], fit), 1);
					const total = got.crop === null ? 0 : 2 * Math.max(got.crop.percent.left, got.crop.percent.top);
					expect(Math.abs(total - croppedPercent(image[0], image[1], print[0], print[1], fit))).toBeLessThanOrEqual(
						0.06,
					);
				}
			}
		}
	});

	it("gives fit's white bands on the print's sides, in inches, as the drawn geometry does", () => {
		for (const image of IMAGES) {
			for (const print of PRINTS) {
				const got = figures(image, print, "fit", false);
				const drawn = drawnGeometry(image[0], image[1], print[0], print[1], "fit");
				expect(got.crop).toBeNull();
				const bands = got.bands_in;
				if (bands === null) throw new Error("fit has bands");
				// The bands lie along the print as it hangs: the image's width is the print's height when turned.
				const leftRight = drawn.swap ? drawn.bandIn.down : drawn.bandIn.across;
				const topBottom = drawn.swap ? drawn.bandIn.across : drawn.bandIn.down;
				expectRounded(bands.left, leftRight, 3);
				expectRounded(bands.top, topBottom, 3);
				expect([bands.right, bands.bottom]).toEqual([bands.left, bands.top]);
			}
		}
	});

	it("with a mat, hides 1/8 in of each side of the image with fill, and with fit only what no band takes", () => {
		for (const image of IMAGES) {
			for (const print of PRINTS) {
				const fill = figures(image, print, "fill", true).mat;
				const drawnFill = drawnGeometry(image[0], image[1], print[0], print[1], "fill");
				expect(fill?.overlap_in).toBe(0.125);
				expectRounded(fill?.px.left, 0.125 / drawnFill.inchesPerPx, 1);
				expectRounded(fill?.px.top, 0.125 / drawnFill.inchesPerPx, 1);
				expect(fill?.bands_hidden).toBeNull();
				const shown = (image[0] - 0.25 / drawnFill.inchesPerPx) * (image[1] - 0.25 / drawnFill.inchesPerPx);
				expectRounded(fill?.area_percent, (1 - shown / (image[0] * image[1])) * 100, 2);

				const fit = figures(image, print, "fit", true).mat;
				const drawnFit = drawnGeometry(image[0], image[1], print[0], print[1], "fit");
				const under = (band: number) => Math.max(0, 0.125 - band) / drawnFit.inchesPerPx;
				expectRounded(fit?.px.left, under(drawnFit.bandIn.across), 1);
				expectRounded(fit?.px.top, under(drawnFit.bandIn.down), 1);
				expect(fit?.bands_hidden).toBe(drawnFit.bandIn.across <= 0.125 && drawnFit.bandIn.down <= 0.125);
			}
		}
	});

	it("names worked examples: a 3:2 landscape on a 16 × 20 is turned and loses 1/12 of each end", () => {
		const got = figures([6000, 4000], [16, 20], "fill", true);
		expect(got).toMatchObject({ turned: true, dpi: 250, bands_in: null });
		// Turned, 20 in lie along its 6000 px and 16 along its 4000: 250 DPI, 5000 px of the width shown.
		expect(got.crop).toEqual({
			px: { left: 500, right: 500, top: 0, bottom: 0 },
			percent: { left: 8.33, right: 8.33, top: 0, bottom: 0 },
		});
		expect(got.mat?.px).toEqual({ left: 31.3, right: 31.3, top: 31.3, bottom: 31.3 });
		const fitted = figures([6000, 4000], [16, 20], "fit", false);
		// At 300 DPI the image is 20 × 13 1/3 in: 1 1/3 in of white on each long side of the print.
		expect(fitted).toMatchObject({ turned: true, dpi: 300, crop: null });
		expect(fitted.bands_in).toEqual({ left: 1.333, right: 1.333, top: 0, bottom: 0 });
		expectRounded(widestVisibleBandIn(fitted), 1.333, 3);
		expectRounded(widestVisibleBandIn(figures([6000, 4000], [16, 20], "fit", true)), 1.208, 3);
	});

	it("never turns a square image or a square print", () => {
		expect(turnedToPrint(5000, 5000, 16, 20)).toBe(false);
		expect(turnedToPrint(6000, 4000, 12, 12)).toBe(false);
		expect(turnedToPrint(6000, 4000, 20, 16)).toBe(false);
		expect(turnedToPrint(4000, 6000, 20, 16)).toBe(true);
	});
});
