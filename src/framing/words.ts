/**
 * A framed piece in the framer's words, for people: lengths in inches and fractions (16 1/4, never
 * 16.25), the framing specification as a framer says it, and the dimensions that matter at the bench.
 * Pure; the console's order page uses it, and so will the floor's work tickets.
 */
import { type MatBorders, matBordersAtOpening } from "./cut-list.ts";
import { SIXTEENTHS, type Size } from "./dimensions.ts";
import type { FramingSpec } from "./spec.ts";

function gcd(a: number, b: number): number {
	return b === 0 ? a : gcd(b, a % b);
}

/**
 * `16 1/4` for 16.25, `3/8` for 0.375, `20` for 20: whole inches and a reduced fraction of sixteenths.
 * A length the bench cannot measure (16.3, or below zero) is written as the number it is: the API
 * accepts such sizes and holds the order, and every floor page must still show what was asked.
 */
export function inchesText(inches: number): string {
	const sixteenths = inches * SIXTEENTHS;
	if (!Number.isSafeInteger(sixteenths) || sixteenths < 0) return String(inches);
	const whole = Math.floor(sixteenths / SIXTEENTHS);
	const rest = sixteenths % SIXTEENTHS;
	if (rest === 0) return String(whole);
	const divisor = gcd(rest, SIXTEENTHS);
	const fraction = `${rest / divisor}/${SIXTEENTHS / divisor}`;
	return whole === 0 ? fraction : `${whole} ${fraction}`;
}

/** `16 1/4 × 20 in`. */
export function sizeText(size: Size): string {
	return `${inchesText(size.width_in)} × ${inchesText(size.height_in)} in`;
}

/**
 * A mat's borders as every floor page says them (the order page, the work ticket), from one
 * computation (matBordersAtOpening): measured from the opening, as the framer cuts them and the buyer
 * sees them: `2 1/8 in all round`. With `ordered` (the order page's top mat), the border as ordered
 * follows, to the print's edge, 1/8 in less (the mat overlaps the print): `2 1/8 in all round from
 * the opening (ordered: 2 in, to the print's edge)`. The ticket's cut list leaves that out: its row
 * already says the board's cut and opening sizes, and a printed ticket has no room to spare.
 */
export function matBordersText(
	atOpening: MatBorders,
	ordered: { border_in: number; bottom_in: number } | null,
): string {
	const { top_in: top, bottom_in: bottom } = atOpening;
	const measured =
		top === bottom
			? `${inchesText(top)} in all round`
			: `${inchesText(top)} in top and sides, ${inchesText(bottom)} in bottom`;
	if (ordered === null) return measured;
	const asOrdered =
		ordered.border_in === ordered.bottom_in
			? `${inchesText(ordered.border_in)} in`
			: `${inchesText(ordered.border_in)} in, ${inchesText(ordered.bottom_in)} in bottom`;
	return `${measured} from the opening (ordered: ${asOrdered}, to the print's edge)`;
}

/** The border a specification ordered, for matBordersText; null without a mat. */
export function orderedBorders(spec: FramingSpec): { border_in: number; bottom_in: number } | null {
	return spec.mat_border_in === null || spec.mat_bottom_border_in === null
		? null
		: { border_in: spec.mat_border_in, bottom_in: spec.mat_bottom_border_in };
}

/** The catalog's names for the specification's slugs (a slug the catalog lacks is shown as itself). */
export type PartNames = (kind: "frame" | "mat" | "glazing" | "paper", slug: string) => string;

/** One line of a piece's description: what it is about, and what to say. */
export type SpecLine = { label: string; text: string };

/** The specification as a framer reads it: print and paper, mat (and inner mat), frame, glazing. */
export function framingInWords(
	print: { width_in: number; height_in: number },
	spec: FramingSpec,
	names: PartNames,
): SpecLine[] {
	const lines: SpecLine[] = [
		{
			label: "Print",
			text: `${sizeText(print)} on ${names("paper", spec.paper)}, ${
				spec.fit === "fill" ? "image fills the print (cropped to it)" : "whole image, white border where it falls short"
			}`,
		},
	];
	const [top, inner] = matBordersAtOpening(spec);
	if (spec.mat !== null && top !== undefined) {
		lines.push({
			label: "Mat",
			text: `${names("mat", spec.mat)}, borders ${matBordersText(top.borders, orderedBorders(spec))}`,
		});
		if (spec.inner_mat !== null && inner !== undefined) {
			const reveal = spec.inner_mat_reveal_in === null ? "" : `, ${inchesText(spec.inner_mat_reveal_in)} in reveal`;
			lines.push({
				label: "Inner mat",
				text: `${names("mat", spec.inner_mat)}, borders ${matBordersText(inner.borders, null)}${reveal}`,
			});
		}
	} else {
		lines.push({ label: "Mat", text: "None" });
	}
	lines.push({ label: "Frame", text: spec.frame === null ? "Unframed" : names("frame", spec.frame) });
	lines.push({ label: "Glazing", text: spec.glazing === "none" ? "None" : names("glazing", spec.glazing) });
	return lines;
}

/** The dimensions the bench works to, in words; absent parts are left out. */
export function dimensionsInWords(dimensions: {
	mat_opening: Size | null;
	top_mat_opening: Size | null;
	mat_outer: Size | null;
	glazing: Size | null;
	outside: Size;
	unitedInches: number;
}): SpecLine[] {
	const lines: SpecLine[] = [];
	if (dimensions.top_mat_opening !== null) {
		lines.push({ label: "Top mat opening", text: sizeText(dimensions.top_mat_opening) });
	}
	if (dimensions.mat_opening !== null) lines.push({ label: "Mat opening", text: sizeText(dimensions.mat_opening) });
	if (dimensions.mat_outer !== null) lines.push({ label: "Mat outer size", text: sizeText(dimensions.mat_outer) });
	if (dimensions.glazing !== null) lines.push({ label: "Glazing and backing", text: sizeText(dimensions.glazing) });
	lines.push({ label: "Outside size", text: sizeText(dimensions.outside) });
	lines.push({ label: "United inches", text: String(dimensions.unitedInches) });
	return lines;
}
