/**
 * Rules for text people type and read, shared by every capability that takes such text (orders,
 * branding, print files, the operator's moves): one line, a web URL, a printed message, names without
 * bidirectional controls. A leaf: only zod.
 */
import { z } from "@hono/zod-openapi";

// C0 controls, DEL and C1 controls (Unicode Cc). Spelled out rather than \p{Cc}: the OpenAPI pattern
// is written from the regex source, and the `u` flag that \p needs would not survive the trip.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
export const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// As NO_CONTROL_CHARACTERS, but line feeds are kept: a gift message may have lines.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
const NO_CONTROL_CHARACTERS_BUT_NEWLINES = /^[^\u0000-\u0009\u000b-\u001f\u007f-\u009f]*$/;

/** Whether `value` parses as an absolute URL as written: the URL parser would quietly drop edge whitespace. */
export function isAbsoluteUrl(value: string): boolean {
	return !/[\s\p{Cc}]/u.test(value) && URL.canParse(value);
}

/** A URL the service will fetch or call; whether its host may be called is `outboundUrlProblem`'s decision. */
export function absoluteUrl() {
	return z
		.string()
		.max(2048, "must be at most 2048 characters")
		.refine(isAbsoluteUrl, "must be an absolute URL, such as https://example.com/path");
}

/**
 * One line of text a person typed (an address line; an operator's carrier, tracking number or hold
 * message): trimmed, non-empty, at most `max` characters, without control characters, CR and LF included.
 */
export function singleLineText(max: number) {
	return z
		.string()
		.trim()
		.min(1, "must not be empty")
		.max(max, `must be at most ${max} characters`)
		.regex(NO_CONTROL_CHARACTERS, "must not contain control characters");
}

/**
 * An http or https URL shown to people and linked to (a tracking page, a support page), taken as written:
 * whitespace and control characters are refused outright, since the URL parser would quietly drop some.
 */
export function webUrl(message: string) {
	return z
		.string()
		.max(2048, "must be at most 2048 characters")
		.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
		.refine((value) => !/\s/u.test(value) && /^https?:$/.test(URL.parse(value)?.protocol ?? ""), message);
}

/**
 * Free text printed for a reader (a gift message, a packing-slip note): Windows line ends become \n,
 * trimmed, 1 to `maxCharacters` characters counted as a reader counts them (code points, so an emoji
 * is one), line breaks kept, no other control characters.
 */
export function printedMessage(maxCharacters: number) {
	return z
		.string()
		.transform((text) => text.replace(/\r\n?/g, "\n").trim())
		.pipe(
			z
				.string()
				.min(1, "must not be empty (leave the field out for no message)")
				.refine((text) => [...text].length <= maxCharacters, `must be at most ${maxCharacters} characters`)
				.regex(NO_CONTROL_CHARACTERS_BUT_NEWLINES, "must not contain control characters other than line breaks"),
		);
}

// Bidirectional controls: the embeddings and overrides U+202A to U+202E, the isolates U+2066 to U+2069,
// and the invisible direction marks U+200E, U+200F and U+061C. In a name people read they make it
// display as something else ("invoice<U+202E>gnp.exe" shows as "invoiceexe.png"; CVE-2021-42574).
// Right-to-left letters themselves are fine. Written without the `u` flag, so the OpenAPI pattern
// made from the regex source keeps its meaning.
/** Matches text without any bidirectional control character. */
export const NO_BIDI_CONTROLS = /^[^\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]*$/;

/** The message for text holding a bidirectional control character. */
export const BIDI_CONTROLS_REFUSED =
	"must not contain bidirectional control characters (U+202A to U+202E, U+2066 to U+2069, U+200E, U+200F, U+061C): they make text display as something else";
