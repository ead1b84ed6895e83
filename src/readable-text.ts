/** Rules for text that people read, shared by every capability (a leaf: it imports nothing). */

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
