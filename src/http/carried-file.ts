/**
 * A text file a console previews and then acts on: the preview's confirm form carries the file itself
 * back, as base64 (so no browser rewrites its line ends), with the preview's mark: an HMAC, under the
 * consoles' secret, of the session, the kind of file and the SHA-256 of its text. A confirm acts on
 * exactly a file this session previewed, or is refused; the session's form token guards the confirm
 * as it guards every console form.
 */
import { base64Of, bytesOfBase64 } from "../base64.ts";
import { sha256Hex } from "../ids.ts";
import { macMatches, macOf } from "./signed-session.ts";

/** The file as the confirm form carries it: its bytes in base64, and the preview's mark on its text. */
export type CarriedFile = { content: string; mark: string };

/** The preview's mark on a text, by its SHA-256; and whether a submitted mark is that mark. */
export type CarryMarks = {
	markOf(textDigest: string): Promise<string>;
	matches(textDigest: string, mark: string): Promise<boolean>;
};

/** A file's text and how its confirm carries it; or what to tell the person who sent it. */
export type CarriedText = { ok: true; text: string; carried: CarriedFile } | { ok: false; message: string };

const NOT_PREVIEWED = "This confirm does not carry the file that was previewed: upload the file again.";

/**
 * The marks of one session's previews of one kind of file (`kind`: "import", "orders"), under the
 * consoles' secret: a mark made for one kind, session or text matches no other. Without a secret
 * (no one can be signed in) nothing matches.
 */
export function sessionMarks(secret: string | null, sessionId: string, kind: string): CarryMarks {
	// "<kind>:" keeps these MACs apart from the form tokens' ("csrf:") and the cookies' (session id first).
	const marked = (digest: string) => `${kind}:${sessionId}:${digest}`;
	return {
		markOf: (digest) => macOf(secret ?? "", marked(digest)),
		matches: async (digest, mark) =>
			secret !== null && secret !== "" && (await macMatches(secret, marked(digest), mark)),
	};
}

/** Most characters of a confirm form's `content` carrying a file of up to `maxBytes`: base64 is a third larger. */
export function maxCarriedCharacters(maxBytes: number): number {
	return Math.ceil(maxBytes / 3) * 4;
}

/** The bytes as UTF-8 text, or null when they are not UTF-8 (nothing is guessed or replaced; a BOM is dropped). */
export function utf8TextOf(bytes: ArrayBuffer | Uint8Array): string | null {
	try {
		return new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(bytes);
	} catch {
		return null;
	}
}

/** What to say of a file that cannot be read: none was chosen, or it is not UTF-8 text. */
export type UploadWords = { noFile: string; notUtf8: string };

/** The text of an uploaded file and how to carry it to the confirm; or why not: no file, or not UTF-8. */
export async function uploadedText(file: unknown, marks: CarryMarks, words: UploadWords): Promise<CarriedText> {
	if (!(file instanceof File)) return { ok: false, message: words.noFile };
	const bytes = new Uint8Array(await file.arrayBuffer());
	const text = utf8TextOf(bytes);
	if (text === null) return { ok: false, message: words.notUtf8 };
	return { ok: true, text, carried: { content: base64Of(bytes), mark: await marks.markOf(await sha256Hex(text)) } };
}

/** The text of the file a confirm form carries back (`content`, `mark`), refused unless this session previewed that very file. */
export async function confirmedText(
	form: Readonly<Record<string, unknown>>,
	marks: CarryMarks,
	maxBytes: number,
): Promise<CarriedText> {
	const { content, mark } = form;
	if (typeof content !== "string" || typeof mark !== "string" || content.length > maxCarriedCharacters(maxBytes)) {
		return { ok: false, message: NOT_PREVIEWED };
	}
	const bytes = bytesOfBase64(content);
	const text = bytes === null ? null : utf8TextOf(bytes);
	if (text === null || !(await marks.matches(await sha256Hex(text), mark)))
		return { ok: false, message: NOT_PREVIEWED };
	return { ok: true, text, carried: { content, mark } };
}
