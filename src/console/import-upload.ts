/**
 * The shipments CSV an operator uploads on the import page, read into rows or refused with a reason;
 * and the same file as the preview's confirm form carries it back.
 *
 * The confirm form carries the file itself, as base64 (so no browser rewrites its line ends), with
 * the SHA-256 of its text: the confirm imports exactly the file the preview showed, or is refused.
 * The session's form token guards the confirm as it guards every console form.
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
} from "../production/shipments-csv.ts";

/** The file as the confirm form carries it: its bytes in base64, and the SHA-256 of its text. */
export type CarriedFile = { content: string; digest: string };

/** An uploaded or confirmed file: its rows and how to carry it to the confirm; or what to tell the operator. */
export type ReadUpload = { ok: true; rows: ImportRow[]; carried: CarriedFile } | { ok: false; message: string };

/** Most characters of the confirm form's `content`: the base64 of the largest file the upload takes. */
export const MAX_CARRIED_CHARACTERS = Math.ceil(MAX_IMPORT_BYTES / 3) * 4;

/** The file's text and how to carry it, or why its bytes are refused. */
async function carriedText(
	bytes: Uint8Array,
): Promise<{ ok: true; text: string; carried: CarriedFile } | { ok: false; message: string }> {
	const text = decodeImport(bytes);
	if (text === null) return { ok: false, message: NOT_UTF8 };
	return { ok: true, text, carried: { content: base64Of(bytes), digest: await sha256Hex(text) } };
}

function rowsOf(text: string, carried: CarriedFile): ReadUpload {
	const parsed: ParsedImport = parseImport(text);
	return parsed.ok ? { ok: true, rows: parsed.rows, carried } : parsed;
}

/** The rows of the uploaded file, or what to tell the operator: no file, not UTF-8, or not a CSV the import reads. */
export async function uploadedRows(file: unknown): Promise<ReadUpload> {
	if (!(file instanceof File)) return { ok: false, message: "Choose a CSV file to upload." };
	const read = await carriedText(new Uint8Array(await file.arrayBuffer()));
	return read.ok ? rowsOf(read.text, read.carried) : read;
}

const NOT_PREVIEWED = "This confirm does not carry the file that was previewed: upload the file again.";

/** The rows of the file a confirm form carries back, refused unless it is the very file previewed. */
export async function confirmedRows(form: Readonly<Record<string, unknown>>): Promise<ReadUpload> {
	const { content, digest } = form;
	if (typeof content !== "string" || typeof digest !== "string" || content.length > MAX_CARRIED_CHARACTERS) {
		return { ok: false, message: NOT_PREVIEWED };
	}
	const bytes = bytesOfBase64(content);
	const read = bytes === null ? null : await carriedText(bytes);
	if (read === null || !read.ok || read.carried.digest !== digest) return { ok: false, message: NOT_PREVIEWED };
	return rowsOf(read.text, read.carried);
}
