/** Print resolution aimed for: below it an item carries the low_resolution warning. */
export const TARGET_DPI = 300;
/** Lowest resolution accepted; below it a file is rejected for its size. */
export const MINIMUM_DPI = 150;

/**
 * Effective resolution of an image printed at a size: the image may be turned to the print's
 * orientation, so long side goes with long side. Embedded DPI tags are ignored. `fill` (the
 * default: the image covers the print area, cropping) takes the smaller scale factor; `fit` (the
 * whole image, with a white border) the larger.
 */
export function effectiveDpi(
	widthPx: number,
	heightPx: number,
	widthIn: number,
	heightIn: number,
	fit: "fill" | "fit" = "fill",
): number {
	const longPx = Math.max(widthPx, heightPx);
	const shortPx = Math.min(widthPx, heightPx);
	const longIn = Math.max(widthIn, heightIn);
	const shortIn = Math.min(widthIn, heightIn);
	const ratios = [longPx / longIn, shortPx / shortIn] as const;
	return fit === "fill" ? Math.min(...ratios) : Math.max(...ratios);
}

/** `reject` below 150 DPI, `warn` from 150 up to 300, `ok` at 300 and above. */
export type ResolutionVerdict = "reject" | "warn" | "ok";

/** The verdict for an effective resolution. */
export function resolutionVerdict(dpi: number): ResolutionVerdict {
	if (dpi < MINIMUM_DPI) return "reject";
	if (dpi < TARGET_DPI) return "warn";
	return "ok";
}

/**
 * Why an image is refused at a size, in a sentence: "The file is 2400 × 3000 px: 100 DPI at 24 × 30 in,
 * below the 150 DPI minimum." The DPI is rounded down: a file just under the minimum must not read as
 * having it. One sentence for an order's refusal or hold and the preflight's verdict.
 */
export function belowMinimumMessage(
	subject: string,
	image: { widthPx: number; heightPx: number },
	size: { width_in: number; height_in: number },
	dpi: number,
): string {
	return `${subject} is ${image.widthPx} × ${image.heightPx} px: ${Math.floor(dpi)} DPI at ${size.width_in} × ${size.height_in} in, below the ${MINIMUM_DPI} DPI minimum.`;
}

/** Above this share of either image side cut off by `fill`, the item carries the `image_cropped` warning. */
export const CROP_WARNING_PERCENT = 2;

/**
 * The share of the image `fill` cuts off, in percent to one decimal: with the image turned to the
 * print's orientation, the side with more pixels per inch than the other loses 1 − smaller / larger
 * of its length. `fit` cuts nothing (it leaves a white border instead).
 */
export function croppedPercent(
	widthPx: number,
	heightPx: number,
	widthIn: number,
	heightIn: number,
	fit: "fill" | "fit" = "fill",
): number {
	if (fit === "fit") return 0;
	const smaller = effectiveDpi(widthPx, heightPx, widthIn, heightIn, "fill");
	const larger = effectiveDpi(widthPx, heightPx, widthIn, heightIn, "fit");
	return Math.round((1 - smaller / larger) * 1000) / 10;
}
