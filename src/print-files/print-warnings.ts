/**
 * The warnings a print file carries at a size: how its pixels meet the print (resolution, fill's crop,
 * fit's bands) and what its headers and pixels say (CMYK, untagged colour, a probably broken export).
 * One judgement for the quote, the order's items and the file's preflight, so they never disagree; the
 * words are the warning catalog's (WARNING_CODES).
 */

import { fitFigures, widestVisibleBandIn } from "../framing/fit-figures.ts";
import type { ColourFacts } from "../imaging/colour/facts.ts";
import { CONTENT_FLAGS, type ContentStats } from "../imaging/content-stats.ts";
import type { WarningCode } from "../warning-catalog.ts";
import { colourFactsOf } from "./colour-facts-read.ts";
import { contentStatsOf } from "./content-stats-read.ts";
import { CROP_WARNING_PERCENT, croppedPercent, effectiveDpi, resolutionVerdict } from "./resolution.ts";

/** Warnings of the file at a size and framing. */
export const FIT_WARNINGS = [
	"low_resolution",
	"image_cropped",
	"image_letterboxed",
] as const satisfies readonly WarningCode[];
/** Warnings of the file whatever its size: its colour (headers) and its content (pixels). */
export const FILE_WARNINGS = [
	"cmyk_converted",
	"untagged_colour",
	"near_uniform_image",
	"mostly_transparent",
	"mostly_white",
	"mostly_black",
] as const satisfies readonly WarningCode[];
/** Every warning a file at a size can carry, in the order they are listed. */
export const PRINT_WARNINGS = [...FIT_WARNINGS, ...FILE_WARNINGS] as const;
/** One of PRINT_WARNINGS. */
export type PrintWarning = (typeof PRINT_WARNINGS)[number];

/** Past this width of white band showing beside the image (`fit`), the item carries `image_letterboxed`. */
export const LETTERBOX_WARNING_IN = 1 / 4;

/** A print's size and framing, as far as the fit warnings need it. */
export type PrintFraming = { width_in: number; height_in: number; fit: "fill" | "fit"; mat: string | null };

/** How an image of `widthPx` × `heightPx` meets a print: its DPI, its verdict, fill's crop and the fit warnings. */
export type PrintFit = {
	effectiveDpi: number;
	verdict: ReturnType<typeof resolutionVerdict>;
	croppedPercent: number;
	warnings: PrintWarning[];
};

/** The resolution, crop and bands of an image printed as `print` says, and their warnings. */
export function printFit(widthPx: number, heightPx: number, print: PrintFraming): PrintFit {
	const dpi = effectiveDpi(widthPx, heightPx, print.width_in, print.height_in, print.fit);
	const verdict = resolutionVerdict(dpi);
	const cropped = croppedPercent(widthPx, heightPx, print.width_in, print.height_in, print.fit);
	const warnings: PrintWarning[] = [];
	if (verdict === "warn") warnings.push("low_resolution");
	if (cropped > CROP_WARNING_PERCENT) warnings.push("image_cropped");
	if (print.fit === "fit") {
		const figures = fitFigures({
			widthPx,
			heightPx,
			widthIn: print.width_in,
			heightIn: print.height_in,
			fit: print.fit,
			matted: print.mat !== null,
		});
		if (widestVisibleBandIn(figures) > LETTERBOX_WARNING_IN) warnings.push("image_letterboxed");
	}
	return { effectiveDpi: dpi, verdict, croppedPercent: cropped, warnings };
}

/**
 * What a file's colour facts and content statistics warn of (none while they are unknown). A CMYK file
 * is converted, so `cmyk_converted` says it whether tagged or not; an untagged RGB, palette or grey file
 * is read as sRGB, which `untagged_colour` says. A profile converted exactly (Adobe RGB, Display P3,
 * ProPhoto) warns of nothing: it prints as its profile means.
 */
export function fileWarningsOf(colour: ColourFacts | null, content: ContentStats | null): PrintWarning[] {
	const warnings: PrintWarning[] = [];
	if (colour?.model === "cmyk") warnings.push("cmyk_converted");
	else if (colour?.tagging === "untagged") warnings.push("untagged_colour");
	for (const flag of CONTENT_FLAGS) if (content?.flags.includes(flag) === true) warnings.push(flag);
	return warnings;
}

/**
 * The warnings of a stored file's colour and content, read from its row's two columns (a
 * PrintFileRow; named by its columns so the error catalog's Node-side readers need no D1 types).
 */
export function fileWarnings(file: { colour_facts: string | null; content_stats: string | null }): PrintWarning[] {
	return fileWarningsOf(colourFactsOf(file.colour_facts), contentStatsOf(file.content_stats));
}
