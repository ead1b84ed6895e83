import type { Catalog } from "../catalog/schema.ts";
import { pieceDimensions } from "../framing/dimensions.ts";
import { type FramingSpec, pieceSpecOf } from "../framing/spec.ts";
import type { InvalidReason } from "../print-files/invalid-reasons.ts";
import { PRINT_WARNINGS, type PrintFit, type PrintWarning, printFit } from "../print-files/print-warnings.ts";
import { belowMinimumMessage } from "../print-files/resolution.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";

/** A frame as the item check needs it: its moulding's face width and the united inches it carries. */
export type FrameFacts = { widthIn: number; maxUnitedInches: number };

/** What the catalog offers, as the item check needs it. */
export type CatalogFacts = {
	frames: ReadonlyMap<string, FrameFacts>;
	mats: ReadonlySet<string>;
	glazings: ReadonlySet<string>;
	papers: ReadonlySet<string>;
	minIn: number;
	maxIn: number;
};

/** The catalog's facts for the item check. */
export function catalogFactsOf(catalog: Catalog): CatalogFacts {
	return {
		frames: new Map(
			catalog.frames.map((frame) => [
				frame.slug,
				{ widthIn: frame.width_in, maxUnitedInches: frame.max_united_inches },
			]),
		),
		mats: new Set(catalog.mats.map((mat) => mat.slug)),
		glazings: new Set(catalog.glazings.map((glazing) => glazing.slug)),
		papers: new Set(catalog.papers.map((paper) => paper.slug)),
		minIn: catalog.sizes.min_in,
		maxIn: catalog.sizes.max_in,
	};
}

/** What is known of an item's file when it is checked; a ready file's colour and content warnings with it. */
export type FileFacts =
	| { kind: "ready"; widthPx: number; heightPx: number; warnings: PrintWarning[] }
	| { kind: "invalid"; reason: InvalidReason | null; message: string }
	| { kind: "fetch_failed"; message: string }
	| { kind: "missing"; message: string };

/** An item as checked: its size, its complete framing specification and where its file came from. */
export type ItemToCheck = FramingSpec & {
	id: string;
	width_in: number;
	height_in: number;
	/** Which request field carried the file, for `hold_details[].field`. */
	fileField: "print_file_id" | "print_file_url";
};

export type Problem = { reason: HoldReason; detail: HoldDetail };

/**
 * The item's findings: problems that hold the order, its effective DPI, its warnings, and the share
 * of the image `fill` cuts off (null while the file is unknown).
 */
export type ItemFindings = {
	problems: Problem[];
	effectiveDpi: number | null;
	warnings: ItemWarning[];
	croppedPercent: number | null;
};

/** Item warning for a file between 150 and 299 DPI at its size. */
export const LOW_RESOLUTION = "low_resolution";
/** Item warning when `fill` cuts off more than 2% of either side of the image. */
export const IMAGE_CROPPED = "image_cropped";
/**
 * Every code an item's `warnings` can hold: the item is accepted, but the partner should look. How the
 * image meets the print (resolution, fill's crop, fit's bands) and what the file's colour and pixels say.
 */
export const ITEM_WARNINGS = PRINT_WARNINGS;
export type ItemWarning = PrintWarning;

/** An item's size and framing as its file is judged at it: fill or fit, and whether a mat lies over the print. */
type SizeAndFraming = { width_in: number; height_in: number; fit: FramingSpec["fit"]; mat: FramingSpec["mat"] };

/** What an item's file gives at its size and fit, or why it does not print there (and the hold's reason). */
export type FileAtSize =
	| { ok: true; fit: PrintFit }
	| {
			ok: false;
			reason: HoldReason;
			message: string;
			/** The image at the item's size, when its pixels are known but too few. */
			fit: PrintFit | null;
	  };

/**
 * The one judgement of a print file at an item's size and fit: the create and an item's fix refuse a
 * file it turns down, and validation holds the order on it. `subject` names the file in the message.
 */
export function fileAtSize(file: FileFacts, item: SizeAndFraming, subject = "The file"): FileAtSize {
	switch (file.kind) {
		case "ready": {
			const judged = printFit(file.widthPx, file.heightPx, item);
			const fit = { ...judged, warnings: [...judged.warnings, ...file.warnings] };
			if (fit.verdict !== "reject") return { ok: true, fit };
			const message = belowMinimumMessage(subject, file, item, fit.effectiveDpi);
			return { ok: false, reason: "file_resolution_too_low", message, fit };
		}
		case "invalid": {
			const reason = file.reason === "unsupported_format" ? "unsupported_file_format" : "file_unreadable";
			return { ok: false, reason, message: file.message, fit: null };
		}
		case "fetch_failed":
			return { ok: false, reason: "file_fetch_failed", message: file.message, fit: null };
		case "missing":
			return { ok: false, reason: "file_unreadable", message: file.message, fit: null };
	}
}

function problem(item: { id: string }, reason: HoldReason, field: string, message: string): Problem {
	return { reason, detail: { item_id: item.id, field, code: reason, message } };
}

function sizeOffered(inches: number, catalog: CatalogFacts): boolean {
	return Number.isInteger(inches) && inches >= catalog.minIn && inches <= catalog.maxIn;
}

/** Checks one item's file at its size, and its catalog parts. */
export function checkItem(item: ItemToCheck, file: FileFacts, catalog: CatalogFacts): ItemFindings {
	const judged = fileAtSize(file, item);
	const problems: Problem[] = judged.ok ? [] : [problem(item, judged.reason, item.fileField, judged.message)];
	problems.push(...buildProblems(item, catalog));
	return {
		problems,
		effectiveDpi: judged.fit?.effectiveDpi ?? null,
		warnings: judged.ok ? judged.fit.warnings : [],
		croppedPercent: judged.fit?.croppedPercent ?? null,
	};
}

/** An item's size and framing specification, as the build check needs them. */
export type ItemToBuild = FramingSpec & { id: string; width_in: number; height_in: number };

/**
 * Why the item cannot be built from this catalog, whatever its file: a size not offered, a part
 * the catalog lacks, a frame too small for the piece. Empty when it can be built. Validation holds
 * an order on these, and the floor's pages show them instead of drawing a piece that cannot exist.
 */
export function buildProblems(item: ItemToBuild, catalog: CatalogFacts): Problem[] {
	const problems: Problem[] = [];
	const sized = sizeOffered(item.width_in, catalog) && sizeOffered(item.height_in, catalog);
	for (const field of ["width_in", "height_in"] as const) {
		const inches = item[field];
		if (!sizeOffered(inches, catalog)) {
			problems.push(
				problem(
					item,
					"size_not_offered",
					field,
					`${inches} in is not offered: sizes are whole inches from ${catalog.minIn} to ${catalog.maxIn}.`,
				),
			);
		}
	}
	const frame = item.frame === null ? null : catalog.frames.get(item.frame);
	if (frame === undefined) {
		problems.push(problem(item, "frame_not_found", "frame", `No frame "${item.frame}" in the catalog.`));
	}
	for (const field of ["mat", "inner_mat"] as const) {
		const slug = item[field];
		if (slug !== null && !catalog.mats.has(slug)) {
			problems.push(problem(item, "mat_not_found", field, `No mat "${slug}" in the catalog.`));
		}
	}
	if (!catalog.glazings.has(item.glazing)) {
		problems.push(problem(item, "glazing_not_found", "glazing", `No glazing "${item.glazing}" in the catalog.`));
	}
	if (!catalog.papers.has(item.paper)) {
		problems.push(problem(item, "paper_not_found", "paper", `No paper "${item.paper}" in the catalog.`));
	}
	if (frame !== undefined && frame !== null && sized) {
		const { united_inches: unitedInches } = pieceDimensions(
			pieceSpecOf(item.width_in, item.height_in, item, frame.widthIn),
		);
		if (unitedInches > frame.maxUnitedInches) {
			problems.push(
				problem(
					item,
					"frame_too_small_for_size",
					"frame",
					`"${item.frame}" carries at most ${frame.maxUnitedInches} united inches; this piece is ${unitedInches} (print, mat borders and all).`,
				),
			);
		}
	}
	return problems;
}

/** The order's verdict from its items' findings: the first problem names the hold, all are listed. */
export function orderVerdict(
	findings: ItemFindings[],
): { kind: "pass" } | { kind: "fail"; holdReason: HoldReason; holdDetails: HoldDetail[] } {
	const problems = findings.flatMap((finding) => finding.problems);
	const first = problems[0];
	if (first === undefined) return { kind: "pass" };
	return { kind: "fail", holdReason: first.reason, holdDetails: problems.map((entry) => entry.detail) };
}
