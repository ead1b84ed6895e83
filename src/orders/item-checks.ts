import type { InvalidReason } from "../print-files/image-types.ts";
import { effectiveDpi, resolutionVerdict } from "../print-files/resolution.ts";
import type { HoldDetail, HoldReason } from "./state-machine.ts";

/** What the catalog offers, as the item check needs it. */
export type CatalogFacts = { frames: ReadonlySet<string>; mats: ReadonlySet<string>; minIn: number; maxIn: number };

/** What is known of an item's file when it is checked. */
export type FileFacts =
	| { kind: "ready"; widthPx: number; heightPx: number }
	/** An uploaded file already found ready at this size when the item was created or changed. */
	| { kind: "checked"; effectiveDpi: number }
	| { kind: "invalid"; reason: InvalidReason; message: string }
	| { kind: "fetch_failed"; message: string }
	| { kind: "missing"; message: string };

export type ItemToCheck = {
	id: string;
	width_in: number;
	height_in: number;
	frame: string | null;
	mat: string | null;
	/** Which request field carried the file, for `hold_details[].field`. */
	fileField: "print_file_id" | "print_file_url";
};

export type Problem = { reason: HoldReason; detail: HoldDetail };

/** The item's findings: problems that hold the order, its effective DPI, and warnings. */
export type ItemFindings = { problems: Problem[]; effectiveDpi: number | null; warnings: string[] };

/** Item warning for a file between 150 and 299 DPI at its size. */
export const LOW_RESOLUTION = "low_resolution";

function problem(item: ItemToCheck, reason: HoldReason, field: string, message: string): Problem {
	return { reason, detail: { item_id: item.id, field, message } };
}

/** Checks one item's file and its catalog parts (contract, "Catalog mismatches and file checks"). */
export function checkItem(item: ItemToCheck, file: FileFacts, catalog: CatalogFacts): ItemFindings {
	const problems: Problem[] = [];
	const warnings: string[] = [];
	let dpi: number | null = null;
	switch (file.kind) {
		case "ready":
		case "checked": {
			dpi =
				file.kind === "checked"
					? file.effectiveDpi
					: effectiveDpi(file.widthPx, file.heightPx, item.width_in, item.height_in);
			const verdict = resolutionVerdict(dpi);
			if (verdict === "reject") {
				const measured =
					file.kind === "ready" ? `The file is ${file.widthPx} × ${file.heightPx} px: ` : "The file gives ";
				problems.push(
					problem(
						item,
						"file_resolution_too_low",
						item.fileField,
						`${measured}${Math.floor(dpi)} DPI at ${item.width_in} × ${item.height_in} in, below the 150 DPI minimum.`,
					),
				);
			} else if (verdict === "warn") {
				warnings.push(LOW_RESOLUTION);
			}
			break;
		}
		case "invalid":
			problems.push(
				problem(
					item,
					file.reason === "unsupported_format" ? "unsupported_file_format" : "file_unreadable",
					item.fileField,
					file.message,
				),
			);
			break;
		case "fetch_failed":
			problems.push(problem(item, "file_fetch_failed", item.fileField, file.message));
			break;
		case "missing":
			problems.push(problem(item, "file_unreadable", item.fileField, file.message));
			break;
	}
	for (const field of ["width_in", "height_in"] as const) {
		const inches = item[field];
		if (!Number.isInteger(inches) || inches < catalog.minIn || inches > catalog.maxIn) {
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
	if (item.frame !== null && !catalog.frames.has(item.frame)) {
		problems.push(problem(item, "frame_not_found", "frame", `No frame "${item.frame}" in the catalog.`));
	}
	if (item.mat !== null && !catalog.mats.has(item.mat)) {
		problems.push(problem(item, "mat_not_found", "mat", `No mat "${item.mat}" in the catalog.`));
	}
	return { problems, effectiveDpi: dpi, warnings };
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
