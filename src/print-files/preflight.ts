/**
 * A print file's preflight: how it will print, before anyone pays. Its colour facts and content
 * statistics as stored, the largest size it prints at 300 and at 150 DPI, and for each size and framing
 * asked a verdict with its reasons in the error catalog's words. The verdict follows the rules an order
 * applies (the same resolution rule, the same warnings), so a `refused` size is one an order refuses.
 */
import { ERROR_CODES } from "../error-catalog.ts";
import { type FitFigures, fitFigures } from "../framing/fit-figures.ts";
import type { ColourFacts } from "../imaging/colour/facts.ts";
import type { ContentStats } from "../imaging/content-stats.ts";
import { WARNING_CODES } from "../warning-catalog.ts";
import { colourFactsOf } from "./colour-facts-read.ts";
import { contentStatsOf } from "./content-stats-read.ts";
import { fileWarningsOf, type PrintWarning, printFit } from "./print-warnings.ts";
import { belowMinimumMessage, MINIMUM_DPI, TARGET_DPI } from "./resolution.ts";
import { type PrintFileRow, readStatus } from "./store.ts";

/** good: 300 DPI and nothing to say; acceptable: 150 to 299 DPI; poor: accepted, but it changes the print; refused: an order refuses it. */
export const PREFLIGHT_VERDICTS = ["good", "acceptable", "poor", "refused"] as const;
export type PreflightVerdict = (typeof PREFLIGHT_VERDICTS)[number];

/** Why a size is refused: the code an order's create (or validation) would give. */
export const PREFLIGHT_REFUSALS = [
	"file_resolution_too_low",
	"size_not_offered",
	"file_unreadable",
	"unsupported_file_format",
	"print_file_not_uploaded",
	"print_file_expired",
] as const;
type PreflightRefusal = (typeof PREFLIGHT_REFUSALS)[number];

/** A reason's code: a refusal, or a warning. */
export type ReasonCode = PreflightRefusal | PrintWarning;

/** One reason: its code, what it means here and what the partner does (the catalog's words). */
export type PreflightReason = { code: ReasonCode; message: string; action: string };

/** A size and framing asked about. */
export type AskedSize = { width_in: number; height_in: number; fit: "fill" | "fit"; mat: boolean };

/** The verdict at one size and framing. */
export type SizeVerdict = AskedSize & {
	verdict: PreflightVerdict;
	/** The image's pixels per inch of print, to 0.1; null while the pixels are unknown. */
	effective_dpi: number | null;
	/** Fill's crop, fit's bands, the mat's cover; null while the pixels are unknown. */
	figures: FitFigures | null;
	reasons: PreflightReason[];
};

/** The largest print at a resolution: the image's own size there, and the largest whole-inch size offered within it. */
export type LargestSize = {
	long_in: number;
	short_in: number;
	/** Long side by short side, each at most the image's at this DPI, within the catalog's range; null when none is. */
	catalog_size: { long_in: number; short_in: number } | null;
};

/** The preflight report. */
export type Preflight = {
	colour: ColourFacts | null;
	content: ContentStats | null;
	largest_size_at_300_dpi: LargestSize | null;
	largest_size_at_150_dpi: LargestSize | null;
	sizes: SizeVerdict[];
};

/** The catalog's size range (whole inches, each side). */
export type SizeRange = { min_in: number; max_in: number };

/**
 * The sizes judged when none is asked: the catalog offers every whole-inch size in its range (far too
 * many to list), so the trade's standard sizes within it, short side first; each is turned to the image's
 * orientation when listed.
 */
export const STANDARD_SIZES: readonly (readonly [number, number])[] = [
	[4, 6],
	[5, 7],
	[8, 8],
	[8, 10],
	[8, 12],
	[11, 14],
	[12, 12],
	[12, 16],
	[12, 18],
	[16, 20],
	[18, 24],
	[20, 20],
	[20, 30],
	[24, 30],
	[24, 36],
	[30, 40],
];

/** The most sizes one preflight judges. */
export const MAX_ASKED_SIZES = 20;

/** `16x20`, `16x20,fit`, `16x20,fill,mat`, `16x20,mat`: a size asked in the query. */
export const ASKED_SIZE_PATTERN = /^([1-9][0-9]{0,2})x([1-9][0-9]{0,2})(?:,(fill|fit))?(?:,(mat))?$/;

/** A size asked in the query, read (the schema checked it matches ASKED_SIZE_PATTERN). */
export function askedSizeOf(text: string): AskedSize | null {
	const match = ASKED_SIZE_PATTERN.exec(text);
	if (match === null) return null;
	const fit = match[3] === "fit" ? "fit" : "fill";
	return { width_in: Number(match[1]), height_in: Number(match[2]), fit, mat: match[4] === "mat" };
}

/** The standard sizes within `range`, in the image's orientation (portrait when its size is unknown), with fill. */
export function standardSizes(range: SizeRange, image: { widthPx: number; heightPx: number } | null): AskedSize[] {
	const landscape = image !== null && image.widthPx > image.heightPx;
	return STANDARD_SIZES.filter(([short, long]) => short >= range.min_in && long <= range.max_in).map(
		([short, long]) => ({
			width_in: landscape ? long : short,
			height_in: landscape ? short : long,
			fit: "fill" as const,
			mat: false,
		}),
	);
}

function rounded(value: number, places: number): number {
	const factor = 10 ** places;
	return Math.round(value * factor) / factor;
}

/** The largest print at `dpi` of an image `widthPx` × `heightPx` (fill: every inch of the print at that DPI at least). */
export function largestSizeAt(widthPx: number, heightPx: number, dpi: number, range: SizeRange): LargestSize {
	const longIn = Math.max(widthPx, heightPx) / dpi;
	const shortIn = Math.min(widthPx, heightPx) / dpi;
	const long = Math.min(range.max_in, Math.floor(longIn));
	const short = Math.min(range.max_in, Math.floor(shortIn));
	return {
		long_in: rounded(longIn, 2),
		short_in: rounded(shortIn, 2),
		catalog_size: short < range.min_in ? null : { long_in: long, short_in: short },
	};
}

function warningReason(code: PrintWarning): PreflightReason {
	const words = WARNING_CODES[code];
	return { code, message: words.meaning, action: words.action };
}

function refusalReason(code: PreflightRefusal, message: string): PreflightReason {
	return { code, message, action: ERROR_CODES[code].action };
}

/** Why the file cannot print at any size as it stands (not uploaded, invalid, expired), or null when it is a ready image. */
function fileRefusal(file: PrintFileRow): PreflightReason | null {
	const status = readStatus(file);
	if (status === "expired") {
		return refusalReason("print_file_expired", `The file expired ${file.expired_at ?? ""}: its bytes were deleted.`);
	}
	if (status === "awaiting_upload" || status === "processing") {
		return refusalReason("print_file_not_uploaded", "The file has not been uploaded and inspected yet.");
	}
	if (status === "invalid" || file.width_px === null || file.height_px === null) {
		const code = file.invalid_reason === "unsupported_format" ? "unsupported_file_format" : "file_unreadable";
		return refusalReason(code, file.invalid_message ?? "The file is not a usable image.");
	}
	return null;
}

/** The verdict at one size: refused on a refusal, poor on a warning that changes the print, acceptable on low resolution alone. */
export function verdictOf(reasons: readonly PreflightReason[]): PreflightVerdict {
	if (reasons.some((reason) => (PREFLIGHT_REFUSALS as readonly string[]).includes(reason.code))) return "refused";
	if (reasons.some((reason) => reason.code !== "low_resolution")) return "poor";
	return reasons.length > 0 ? "acceptable" : "good";
}

/** The file judged at one size and framing. */
function judgeSize(
	asked: AskedSize,
	image: { widthPx: number; heightPx: number } | null,
	refusal: PreflightReason | null,
	fileWarnings: PrintWarning[],
	range: SizeRange,
): SizeVerdict {
	const offered = [asked.width_in, asked.height_in].every((side) => side >= range.min_in && side <= range.max_in);
	const reasons: PreflightReason[] = [];
	if (!offered) {
		const message = `${asked.width_in} × ${asked.height_in} in is not offered: sizes are whole inches from ${range.min_in} to ${range.max_in}.`;
		reasons.push(refusalReason("size_not_offered", message));
	}
	if (refusal !== null || image === null) {
		if (refusal !== null) reasons.push(refusal);
		return { ...asked, verdict: "refused", effective_dpi: null, figures: null, reasons };
	}
	const fit = printFit(image.widthPx, image.heightPx, { ...asked, mat: asked.mat ? "mat" : null });
	if (fit.verdict === "reject") {
		const message = belowMinimumMessage("The file", image, asked, fit.effectiveDpi);
		reasons.push(refusalReason("file_resolution_too_low", message));
	}
	reasons.push(...[...fit.warnings, ...fileWarnings].map(warningReason));
	const figures = fitFigures({
		widthPx: image.widthPx,
		heightPx: image.heightPx,
		widthIn: asked.width_in,
		heightIn: asked.height_in,
		fit: asked.fit,
		matted: asked.mat,
	});
	return { ...asked, verdict: verdictOf(reasons), effective_dpi: figures.dpi, figures, reasons };
}

/** The preflight of `file` (as it is now, compared with R2) at the sizes asked, or the standard sizes when none is. */
export function preflightOf(file: PrintFileRow, range: SizeRange, asked: readonly AskedSize[] | null): Preflight {
	const refusal = fileRefusal(file);
	const image =
		refusal === null && file.width_px !== null && file.height_px !== null
			? { widthPx: file.width_px, heightPx: file.height_px }
			: null;
	const colour = colourFactsOf(file.colour_facts);
	const content = contentStatsOf(file.content_stats);
	const fileWarnings = fileWarningsOf(colour, content);
	const sizes = asked ?? standardSizes(range, image);
	return {
		colour,
		content,
		largest_size_at_300_dpi: image === null ? null : largestSizeAt(image.widthPx, image.heightPx, TARGET_DPI, range),
		largest_size_at_150_dpi: image === null ? null : largestSizeAt(image.widthPx, image.heightPx, MINIMUM_DPI, range),
		sizes: sizes.map((size) => judgeSize(size, image, refusal, fileWarnings, range)),
	};
}
