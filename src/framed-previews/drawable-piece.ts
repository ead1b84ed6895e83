import type { Catalog } from "../catalog/schema.ts";
import { completeFraming, type FramingInput } from "../framing/spec.ts";
import { type Refusal, refusal } from "../problem.ts";
import { type PreviewColours, type PreviewPiece, previewCutList } from "./render.ts";

/** A piece as a preview is asked for it: the print's size and the item's framing fields. */
export type PieceRequest = { width_in: number; height_in: number } & FramingInput;

/** What a preview draws: the piece and its catalog colours. */
export type DrawablePiece = { ok: true; piece: PreviewPiece; colours: PreviewColours };

/**
 * The piece to draw, checked as an order's item is (after the framing rules the schema applies): a
 * size the catalog offers, every part in the catalog, within what the moulding carries; or the
 * refusal naming the field, with the code an order would be held for.
 */
export function drawablePiece(catalog: Catalog, request: PieceRequest): DrawablePiece | Refusal {
	for (const field of ["width_in", "height_in"] as const) {
		const size = request[field];
		if (!Number.isInteger(size) || size < catalog.sizes.min_in || size > catalog.sizes.max_in) {
			const range = `${catalog.sizes.min_in} to ${catalog.sizes.max_in}`;
			return refusal("size_not_offered", field, `must be a whole number of inches from ${range}`);
		}
	}
	const spec = completeFraming(request);
	const frame = spec.frame === null ? null : catalog.frames.find((candidate) => candidate.slug === spec.frame);
	if (frame === undefined) return refusal("frame_not_found", "frame", `"${spec.frame}" is not a frame in the catalog`);
	const mats: PreviewColours["mats"] = [];
	for (const [field, slug] of [
		["mat", spec.mat],
		["inner_mat", spec.inner_mat],
	] as const) {
		if (slug === null) continue;
		const mat = catalog.mats.find((candidate) => candidate.slug === slug);
		if (mat === undefined) return refusal("mat_not_found", field, `"${slug}" is not a mat in the catalog`);
		mats.push({ face: mat.color.hex, core: mat.core });
	}
	if (!catalog.glazings.some((glazing) => glazing.slug === spec.glazing)) {
		return refusal("glazing_not_found", "glazing", `"${spec.glazing}" is not a glazing in the catalog`);
	}
	if (!catalog.papers.some((paper) => paper.slug === spec.paper)) {
		return refusal("paper_not_found", "paper", `"${spec.paper}" is not a paper in the catalog`);
	}
	const piece: PreviewPiece = {
		print: { width_in: request.width_in, height_in: request.height_in },
		spec,
		frameWidthIn: frame?.width_in ?? null,
	};
	const cut = previewCutList(piece);
	if (cut === null) return refusal("invalid_field", "mat_border_in", "leaves no opening for this print");
	if (frame !== null && cut.united_inches > frame.max_united_inches) {
		const carries = `${frame.slug} carries at most ${frame.max_united_inches} united inches`;
		return refusal("frame_too_small_for_size", "frame", `${carries}; this piece is ${cut.united_inches}`);
	}
	return { ok: true, piece, colours: { frame: frame?.color.hex ?? null, mats } };
}
