/**
 * How an image meets a print: whether it is turned a quarter to the print's orientation, what `fill`
 * crops from each of its sides, how wide `fit`'s white bands are, and how much of it a mat's 1/8 in
 * overlap hides. Pure geometry over the image's pixel size and the print's inches; the resolution rule,
 * the warnings and the framed preview all take their crop from here, so they cannot disagree.
 */
import { MAT_OVERLAP_IN } from "./dimensions.ts";

/** A figure for each side. */
export type Sides = { left: number; right: number; top: number; bottom: number };

/** What `fill` cuts off the image: centred, so left equals right and top equals bottom. */
export type FillCrop = {
	/** Image pixels cut from each of the image's sides (the sides of the image as its pixels are stored). */
	px: Sides;
	/** Each side's cut as a share of the image's width (left, right) or height (top, bottom), in percent. */
	percent: Sides;
};

/** What the mat's overlap hides of the image: 1/8 in of each side of the print, less any `fit` band under it. */
export type MatCover = {
	/** How far the mat lies over the print on each side. */
	overlap_in: number;
	/** Image pixels under the mat on each of the image's sides. */
	px: Sides;
	/** Each side's hidden pixels as a share of the image's width or height, in percent. */
	percent: Sides;
	/** The share of the image's area the mat hides, in percent. */
	area_percent: number;
	/** With `fit`: whether every white band lies wholly under the mat; null with `fill`. */
	bands_hidden: boolean | null;
};

/** The figures of an image printed at a size. */
export type FitFigures = {
	/**
	 * Whether the image is turned a quarter (clockwise) so that its long side runs along the print's long
	 * side: a landscape image on a portrait print, or the other way round. A square print or image never turns.
	 */
	turned: boolean;
	/** Image pixels per inch of print: `fill` the fewer of the two sides', `fit` the more. */
	dpi: number;
	/** With `fill`; null with `fit`. */
	crop: FillCrop | null;
	/** With `fit`, the white band on each side of the print (the print's sides, as it hangs), in inches; null with `fill`. */
	bands_in: Sides | null;
	/** With a mat; null without. */
	mat: MatCover | null;
};

/** What the figures are of: the image's pixels, the print's inches, fill or fit, and whether a mat lies over it. */
export type FitQuestion = {
	widthPx: number;
	heightPx: number;
	widthIn: number;
	heightIn: number;
	fit: "fill" | "fit";
	matted: boolean;
};

/** Whether an image `widthPx` × `heightPx` is turned to lie on a print `widthIn` × `heightIn` (long side to long side). */
export function turnedToPrint(widthPx: number, heightPx: number, widthIn: number, heightIn: number): boolean {
	return (widthPx > heightPx && widthIn < heightIn) || (widthPx < heightPx && widthIn > heightIn);
}

function rounded(value: number, places: number): number {
	const factor = 10 ** places;
	return Math.round(value * factor) / factor;
}

function roundedSides(sides: Sides, places: number): Sides {
	return {
		left: rounded(sides.left, places),
		right: rounded(sides.right, places),
		top: rounded(sides.top, places),
		bottom: rounded(sides.bottom, places),
	};
}

/**
 * The figures of one image at one size. Pixels are given to 0.1 px, inches to 0.001 in, percents to
 * 0.01 %, the DPI to 0.1.
 */
export function fitFigures(question: FitQuestion): FitFigures {
	const { widthPx, heightPx, fit, matted } = question;
	const turned = turnedToPrint(widthPx, heightPx, question.widthIn, question.heightIn);
	// The print's inches along the image's own width and height.
	const acrossIn = turned ? question.heightIn : question.widthIn;
	const downIn = turned ? question.widthIn : question.heightIn;
	const dpiAcross = widthPx / acrossIn;
	const dpiDown = heightPx / downIn;
	const dpi = fit === "fill" ? Math.min(dpiAcross, dpiDown) : Math.max(dpiAcross, dpiDown);
	// The image as printed, in inches along its own width and height.
	const printedAcross = widthPx / dpi;
	const printedDown = heightPx / dpi;
	let crop: FillCrop | null = null;
	let bandsIn: Sides | null = null;
	// Inches of the printed image beyond the print on each side (fill), or of print beyond the image (fit).
	const spillAcross = Math.abs(printedAcross - acrossIn) / 2;
	const spillDown = Math.abs(printedDown - downIn) / 2;
	if (fit === "fill") {
		const px = { across: spillAcross * dpi, down: spillDown * dpi };
		crop = {
			px: roundedSides({ left: px.across, right: px.across, top: px.down, bottom: px.down }, 1),
			percent: roundedSides(
				{
					left: (px.across / widthPx) * 100,
					right: (px.across / widthPx) * 100,
					top: (px.down / heightPx) * 100,
					bottom: (px.down / heightPx) * 100,
				},
				2,
			),
		};
	} else {
		// Bands lie along the print's sides: the image's across is the print's height when turned.
		const printLeftRight = turned ? spillDown : spillAcross;
		const printTopBottom = turned ? spillAcross : spillDown;
		bandsIn = roundedSides(
			{ left: printLeftRight, right: printLeftRight, top: printTopBottom, bottom: printTopBottom },
			3,
		);
	}
	return {
		turned,
		dpi: rounded(dpi, 1),
		crop,
		bands_in: bandsIn,
		mat: matted ? matCover(widthPx, heightPx, dpi, fit === "fit" ? { spillAcross, spillDown } : null) : null,
	};
}

/** What the mat's overlap hides: of each side, the overlap less the band under it (fit), in image pixels. */
function matCover(
	widthPx: number,
	heightPx: number,
	dpi: number,
	bands: { spillAcross: number; spillDown: number } | null,
): MatCover {
	const hiddenAcrossIn = Math.max(0, MAT_OVERLAP_IN - (bands?.spillAcross ?? 0));
	const hiddenDownIn = Math.max(0, MAT_OVERLAP_IN - (bands?.spillDown ?? 0));
	const across = Math.min(widthPx / 2, hiddenAcrossIn * dpi);
	const down = Math.min(heightPx / 2, hiddenDownIn * dpi);
	const shown = (widthPx - 2 * across) * (heightPx - 2 * down);
	const bandsHidden = bands === null ? null : bands.spillAcross <= MAT_OVERLAP_IN && bands.spillDown <= MAT_OVERLAP_IN;
	return {
		overlap_in: MAT_OVERLAP_IN,
		px: roundedSides({ left: across, right: across, top: down, bottom: down }, 1),
		percent: roundedSides(
			{
				left: (across / widthPx) * 100,
				right: (across / widthPx) * 100,
				top: (down / heightPx) * 100,
				bottom: (down / heightPx) * 100,
			},
			2,
		),
		area_percent: rounded((1 - shown / (widthPx * heightPx)) * 100, 2),
		bands_hidden: bandsHidden,
	};
}

/** The widest band that shows beside the print's image with `fit`, in inches (a mat hides 1/8 in of each); 0 with `fill`. */
export function widestVisibleBandIn(figures: FitFigures): number {
	const bands = figures.bands_in;
	if (bands === null) return 0;
	const hidden = figures.mat === null ? 0 : figures.mat.overlap_in;
	return Math.max(0, Math.max(bands.left, bands.right, bands.top, bands.bottom) - hidden);
}
