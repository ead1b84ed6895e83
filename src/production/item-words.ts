/**
 * How the floor names an item and says its warnings, on every page it works from (the console's
 * queue and order page, the work ticket): by position and size, never by id, and in words, never
 * codes. One place, so a page cannot word a warning its own way or leave one out.
 */
import { sizeText } from "../framing/words.ts";
import { IMAGE_CROPPED, type ItemWarning, LOW_RESOLUTION } from "../orders/item-checks.ts";
import { CROP_WARNING_PERCENT, MINIMUM_DPI, TARGET_DPI } from "../print-files/resolution.ts";

/** A warning code the item checks give. */
export type ItemWarningCode = ItemWarning;

/** A warning in words: a short title (the queue's row) and what it means for the print (order page, ticket). */
export type WarningWords = { title: string; advice: string };

/** Each warning code in the floor's words. */
export const ITEM_WARNING_WORDS: Readonly<Record<ItemWarningCode, WarningWords>> = {
	[LOW_RESOLUTION]: {
		title: "Low resolution",
		advice: `The file gives fewer than ${TARGET_DPI} pixels per inch at this size (${MINIMUM_DPI} is the least accepted), so the print may look soft. Check the print before framing it.`,
	},
	[IMAGE_CROPPED]: {
		title: "Image cropped",
		advice: `Filling the print cuts off more than ${CROP_WARNING_PERCENT}% of the image. Check that nothing that matters is cut off before framing it.`,
	},
	image_letterboxed: {
		title: "White bands",
		advice:
			"The whole image is printed, so white bands wider than 1/4 in show beside it (the mat hides 1/8 in of each). Centre the print in the opening so the bands are even.",
	},
	cmyk_converted: {
		title: "CMYK file",
		advice:
			"The file is CMYK and prints converted to RGB, so its colours may shift. Compare the print with the preview before framing it.",
	},
	untagged_colour: {
		title: "No colour profile",
		advice:
			"The file carries no colour profile and is printed as sRGB. Compare the print with the preview before framing it.",
	},
	near_uniform_image: {
		title: "Almost blank image",
		advice:
			"The image is almost one flat colour, perhaps a broken export. Check the print is what the partner meant before framing it.",
	},
	mostly_transparent: {
		title: "Mostly transparent",
		advice:
			"Most of the image is transparent and prints as bare paper. Check the print is what the partner meant before framing it.",
	},
	mostly_white: {
		title: "Almost all white",
		advice: "Almost all of the image is white. Check the print is what the partner meant before framing it.",
	},
	mostly_black: {
		title: "Almost all black",
		advice: "Almost all of the image is black. Check the print is what the partner meant before framing it.",
	},
};

function isWarningCode(code: string): code is ItemWarningCode {
	return Object.hasOwn(ITEM_WARNING_WORDS, code);
}

/** A warning code in words; a code this page does not know (kept from older data) is still shown, as itself. */
export function warningWords(code: string): WarningWords {
	if (isWarningCode(code)) return ITEM_WARNING_WORDS[code];
	return { title: `Warning "${code}"`, advice: "Ask the service's team what this warning means before framing." };
}

/** `Item 2 of 3 · 16 × 20 in`: an item as the floor finds it, by its place in the order and its size. */
export function itemName(item: { position: number; widthIn: number; heightIn: number }, itemCount: number): string {
	return `Item ${item.position + 1} of ${itemCount} · ${sizeText({ width_in: item.widthIn, height_in: item.heightIn })}`;
}

/**
 * Why a print file has no thumbnail, in the floor's words (the file itself may still print), by the
 * thumbnail's reason (print-files' THUMBNAIL_UNAVAILABLE_REASONS; the CLI's typecheck reads this file
 * without the Workers types, so the list is not imported).
 */
const THUMBNAIL_REASON_WORDS: Readonly<Record<string, string>> = {
	unsupported_variant: "the file is a variant of its format the service cannot draw; it still prints",
	corrupt: "the file's image data is damaged",
	truncated: "the file ends before its image does",
	too_large: "the image has too many pixels to draw",
	failed: "making it kept failing",
	file_changed: "the file's bytes changed after they were checked",
	file_invalid: "the file was refused at its check",
};

/** A thumbnail's unavailable reason in words; a reason this page does not know is shown as itself. */
export function thumbnailReasonWords(reason: string | null): string {
	const words =
		reason === null || !Object.hasOwn(THUMBNAIL_REASON_WORDS, reason) ? undefined : THUMBNAIL_REASON_WORDS[reason];
	return words ?? `the reason given is "${reason ?? "unknown"}"`;
}
