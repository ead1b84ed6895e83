/**
 * The shipments CSV an operator uploads on the import page, read into rows or refused with a reason;
 * and the same file as the preview's confirm form carries it back.
 *
 * The confirm form carries the file itself, as base64 (so no browser rewrites its line ends), with
 * the preview's mark: an HMAC, under the server's secret, of the session and the SHA-256 of the text.
 * The confirm imports exactly a file this session previewed, or is refused. The session's form token
 * guards the confirm as it guards every console form.
 */
import { base64Of, bytesOfBase64 } from "../base64.ts";
import { sha256Hex } from "../ids.ts";
import {
	decodeImport,
	type ImportRow,
	MAX_IMPORT_BYTES,
	NOT_UTF8,
	type ParsedImport,
	parseImport,
} from "../shipment-import/csv-file.ts";

/** The file as the confirm form carries it: its bytes in base64, and the preview's mark on its text. */
export type CarriedFile = { content: string; mark: string };

/** The preview's mark on a text, by its SHA-256; and whether a submitted mark is that mark. */
export type ImportMarks = {
	markOf(textDigest: string): Promise<string>;
	matches(textDigest: string, mark: string): Promise<boolean>;
};

/** An uploaded or confirmed file: its rows and how to carry it to the confirm; or what to tell the operator. */
export type ReadUpload = { ok: true; rows: ImportRow[]; carried: CarriedFile } | { ok: false; message: string };

/** Most characters of the confirm form's `content`: the base64 of the largest file the upload takes. */
export const MAX_CARRIED_CHARACTERS = Math.ceil(MAX_IMPORT_BYTES / 3) * 4;

/** The file's text and its SHA-256, or why its bytes are refused. */
async function textOf(
	bytes: Uint8Array,
): Promise<{ ok: true; text: string; digest: string } | { ok: false; message: string }> {
	const text = decodeImport(bytes);
	if (text === null) return { ok: false, message: NOT_UTF8 };
	return { ok: true, text, digest: await sha256Hex(text) };
}

function rowsOf(text: string, carried: CarriedFile): ReadUpload {
	const parsed: ParsedImport = parseImport(text);
	return parsed.ok ? { ok: true, rows: parsed.rows, carried } : parsed;
}

/** The rows of the uploaded file, or what to tell the operator: no file, not UTF-8, or not a CSV the import reads. */
export async function uploadedRows(file: unknown, marks: ImportMarks): Promise<ReadUpload> {
	if (!(file instanceof File)) return { ok: false, message: "Choose a CSV file to upload." };
	const bytes = new Uint8Array(await file.arrayBuffer());
	const read = await textOf(bytes);
	if (!read.ok) return read;
	return rowsOf(read.text, { content: base64Of(bytes), mark: await marks.markOf(read.digest) });
}

const NOT_PREVIEWED = "This confirm does not carry the file that was previewed: upload the file again.";

/** The rows of the file a confirm form carries back, refused unless this session previewed that very file. */
export async function confirmedRows(form: Readonly<Record<string, unknown>>, marks: ImportMarks): Promise<ReadUpload> {
	const { content, mark } = form;
	if (typeof content !== "string" || typeof mark !== "string" || content.length > MAX_CARRIED_CHARACTERS) {
		return { ok: false, message: NOT_PREVIEWED };
	}
	const bytes = bytesOfBase64(content);
	const read = bytes === null ? null : await textOf(bytes);
	if (read === null || !read.ok || !(await marks.matches(read.digest, mark))) {
		return { ok: false, message: NOT_PREVIEWED };
	}
	return rowsOf(read.text, { content, mark });
}
