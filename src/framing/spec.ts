/**
 * The framing specification of an item: the fields a partner may send
 * beside `width_in`, `height_in`, `frame` and `mat`, their steps and ranges, the combinations that
 * cannot be built (a 422 on the field at fault), and the defaults that complete a spec. Orders,
 * PATCHes and quotes share it, so the idempotency comparison sees a spec with its defaults applied
 * (an order that spells out the defaults is the same order).
 */
import { z } from "@hono/zod-openapi";
import type { PieceSpec } from "./dimensions.ts";

const SLUG = /^[a-z0-9][a-z0-9-]*$/;
const slug = z
	.string()
	.min(1)
	.max(64, "must be at most 64 characters")
	.regex(SLUG, "must be a catalog slug: lowercase letters, digits and hyphens");

/** Inches in steps of 1/8, within [min, max]. */
function eighths(min: number, max: number) {
	return z
		.number()
		.min(min, `must be at least ${min} in`)
		.max(max, `must be at most ${max} in`)
		.refine((value) => Number.isInteger(value * 8), "must be a whole number of eighths of an inch");
}

/** How the image meets the print area: `fill` covers it (cropping), `fit` shows the whole image with an even white border. */
export const FITS = ["fill", "fit"] as const;

/** The framing fields of an item as a partner sends them (all optional). */
export const FramingFields = {
	frame: slug
		.optional()
		.openapi({ description: "A catalog frame slug; omitted: an unframed print.", example: "walnut-flat-125" }),
	mat: slug.optional().openapi({ description: "A catalog mat slug; needs a frame.", example: "museum-rag-white-4ply" }),
	mat_border_in: eighths(1, 6).optional().openapi({
		description: "The mat's border on the sides and top, 1 to 6 in by 1/8; needs a mat. Default 2.",
		example: 2.5,
	}),
	mat_bottom_border_in: eighths(1, 8).optional().openapi({
		description: "A weighted bottom border, from mat_border_in to 8 in by 1/8; needs a mat. Default: mat_border_in.",
		example: 3,
	}),
	inner_mat: slug
		.optional()
		.openapi({ description: "A second mat under the first (a double mat); needs a mat.", example: "black-core-black" }),
	inner_mat_reveal_in: eighths(0.125, 0.5).optional().openapi({
		description: "How much of the inner mat shows, 1/8 to 1/2 in by 1/8; needs an inner mat. Default 1/4.",
		example: 0.25,
	}),
	glazing: slug.optional().openapi({
		description: "A catalog glazing slug. Default: acrylic when framed; none unframed.",
		example: "museum-acrylic",
	}),
	paper: slug
		.optional()
		.openapi({ description: "A catalog paper slug. Default archival-matte.", example: "cotton-rag" }),
	fit: z.enum(FITS).optional().openapi({
		description: "fill (default: cover the print area, cropping) or fit (the whole image).",
		example: "fill",
	}),
};

/** An item's framing fields as sent. */
export type FramingInput = {
	frame?: string | undefined;
	mat?: string | undefined;
	mat_border_in?: number | undefined;
	mat_bottom_border_in?: number | undefined;
	inner_mat?: string | undefined;
	inner_mat_reveal_in?: number | undefined;
	glazing?: string | undefined;
	paper?: string | undefined;
	fit?: (typeof FITS)[number] | undefined;
};

/** A complete framing specification: every field decided, null where the piece has no such part. */
export type FramingSpec = {
	frame: string | null;
	mat: string | null;
	mat_border_in: number | null;
	mat_bottom_border_in: number | null;
	inner_mat: string | null;
	inner_mat_reveal_in: number | null;
	glazing: string;
	paper: string;
	fit: (typeof FITS)[number];
};

/** The framing fields of an item, in the order the model lists them. */
export const FRAMING_FIELDS = [
	"frame",
	"mat",
	"mat_border_in",
	"mat_bottom_border_in",
	"inner_mat",
	"inner_mat_reveal_in",
	"glazing",
	"paper",
	"fit",
] as const satisfies readonly (keyof FramingSpec)[];

/** What a specification that leaves a field out gets. */
export const FRAMING_DEFAULTS = {
	matBorderIn: 2,
	innerMatRevealIn: 0.25,
	framedGlazing: "acrylic",
	unframedGlazing: "none",
	paper: "archival-matte",
	fit: "fill",
} as const;

/** A combination that cannot be built: the field at fault and why. */
export type FramingProblem = { field: keyof FramingInput; message: string };

/** Why this combination cannot be built (the first field at fault), or null when it can. */
export function framingProblem(input: FramingInput): FramingProblem | null {
	const framed = input.frame !== undefined;
	const matted = input.mat !== undefined;
	if (matted && !framed) return { field: "mat", message: "needs a frame: a mat is built into a frame" };
	if (input.glazing !== undefined && input.glazing !== FRAMING_DEFAULTS.unframedGlazing && !framed) {
		return { field: "glazing", message: "needs a frame: an unframed print has no glazing (leave it out, or none)" };
	}
	if (input.mat_border_in !== undefined && !matted) return { field: "mat_border_in", message: "needs a mat" };
	if (input.mat_bottom_border_in !== undefined && !matted)
		return { field: "mat_bottom_border_in", message: "needs a mat" };
	if (input.inner_mat !== undefined && !matted)
		return { field: "inner_mat", message: "needs a mat: the inner mat lies under it" };
	if (input.inner_mat_reveal_in !== undefined && input.inner_mat === undefined) {
		return { field: "inner_mat_reveal_in", message: "needs an inner mat" };
	}
	const border = input.mat_border_in ?? FRAMING_DEFAULTS.matBorderIn;
	if (input.mat_bottom_border_in !== undefined && input.mat_bottom_border_in < border) {
		return { field: "mat_bottom_border_in", message: `must be at least mat_border_in (${border} in)` };
	}
	return null;
}

/** The specification with the defaults applied (call after framingProblem found nothing). */
export function completeFraming(input: FramingInput): FramingSpec {
	const framed = input.frame !== undefined;
	const matted = input.mat !== undefined;
	const border = matted ? (input.mat_border_in ?? FRAMING_DEFAULTS.matBorderIn) : null;
	const doubled = input.inner_mat !== undefined;
	return {
		frame: input.frame ?? null,
		mat: input.mat ?? null,
		mat_border_in: border,
		mat_bottom_border_in: matted ? (input.mat_bottom_border_in ?? border) : null,
		inner_mat: input.inner_mat ?? null,
		inner_mat_reveal_in: doubled ? (input.inner_mat_reveal_in ?? FRAMING_DEFAULTS.innerMatRevealIn) : null,
		glazing: input.glazing ?? (framed ? FRAMING_DEFAULTS.framedGlazing : FRAMING_DEFAULTS.unframedGlazing),
		paper: input.paper ?? FRAMING_DEFAULTS.paper,
		fit: input.fit ?? FRAMING_DEFAULTS.fit,
	};
}

/** Adds framingProblem's refusal to an object schema's issues, at `item.<field>`. */
export function refineFraming(input: FramingInput, ctx: z.RefinementCtx): void {
	const problem = framingProblem(input);
	if (problem !== null) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

/** The dimensions module's view of a piece with a complete specification. */
export function pieceSpecOf(
	widthIn: number,
	heightIn: number,
	spec: FramingSpec,
	frameWidthIn: number | null,
): PieceSpec {
	return {
		widthIn,
		heightIn,
		frameWidthIn,
		mat:
			spec.mat === null
				? null
				: {
						borderIn: spec.mat_border_in ?? 0,
						bottomBorderIn: spec.mat_bottom_border_in ?? 0,
						innerRevealIn: spec.inner_mat_reveal_in,
					},
	};
}

/**
 * The fewest fields that complete to `spec`: the slugs, and every other field only where it is not
 * its default. An order that spells out the defaults and one that leaves them out give the same
 * fields here, which is what the idempotency comparison and a PATCH start from.
 */
export function sentFraming(spec: FramingSpec): FramingInput {
	const slugs: FramingInput = {
		frame: spec.frame ?? undefined,
		mat: spec.mat ?? undefined,
		inner_mat: spec.inner_mat ?? undefined,
	};
	const defaults = completeFraming(slugs);
	const sent: FramingInput = { ...slugs };
	if (spec.mat_border_in !== defaults.mat_border_in) sent.mat_border_in = spec.mat_border_in ?? undefined;
	const bottomDefault = spec.mat_border_in;
	if (spec.mat_bottom_border_in !== bottomDefault) sent.mat_bottom_border_in = spec.mat_bottom_border_in ?? undefined;
	if (spec.inner_mat_reveal_in !== defaults.inner_mat_reveal_in) {
		sent.inner_mat_reveal_in = spec.inner_mat_reveal_in ?? undefined;
	}
	if (spec.glazing !== defaults.glazing) sent.glazing = spec.glazing;
	if (spec.paper !== defaults.paper) sent.paper = spec.paper;
	if (spec.fit !== defaults.fit) sent.fit = spec.fit;
	return sent;
}

/** The framing specification of anything that carries one (a stored item, say). */
export function specOf(item: FramingSpec): FramingSpec {
	return {
		frame: item.frame,
		mat: item.mat,
		mat_border_in: item.mat_border_in,
		mat_bottom_border_in: item.mat_bottom_border_in,
		inner_mat: item.inner_mat,
		inner_mat_reveal_in: item.inner_mat_reveal_in,
		glazing: item.glazing,
		paper: item.paper,
		fit: item.fit,
	};
}
