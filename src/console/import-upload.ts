/**
 * The shipments CSV an operator uploads on the import page, read into rows or refused with a reason;
 * and the same file as the preview's confirm form carries it back (src/http/carried-file.ts: only a
 * file this session previewed is imported).
 */
import {
	type CarriedFile,
	type CarriedText,
	type CarryMarks,
	confirmedText,
	maxCarriedCharacters,
	uploadedText,
} from "../http/carried-file.ts";
import { type ImportRow, MAX_IMPORT_BYTES, NOT_UTF8, parseImport } from "../shipment-import/csv-file.ts";

export type { CarriedFile };

/** An uploaded or confirmed file: its rows and how to carry it to the confirm; or what to tell the operator. */
export type ReadUpload = { ok: true; rows: ImportRow[]; carried: CarriedFile } | { ok: false; message: string };

/** Most characters of the confirm form's `content`: the base64 of the largest file the upload takes. */
export const MAX_CARRIED_CHARACTERS = maxCarriedCharacters(MAX_IMPORT_BYTES);

function rowsOf(read: CarriedText): ReadUpload {
	if (!read.ok) return read;
	const parsed = parseImport(read.text);
	return parsed.ok ? { ok: true, rows: parsed.rows, carried: read.carried } : parsed;
}

/** The rows of the uploaded file, or what to tell the operator: no file, not UTF-8, or not a CSV the import reads. */
export async function uploadedRows(file: unknown, marks: CarryMarks): Promise<ReadUpload> {
	return rowsOf(await uploadedText(file, marks, { noFile: "Choose a CSV file to upload.", notUtf8: NOT_UTF8 }));
}

/** The rows of the file a confirm form carries back, refused unless this session previewed that very file. */
export async function confirmedRows(form: Readonly<Record<string, unknown>>, marks: CarryMarks): Promise<ReadUpload> {
	return rowsOf(await confirmedText(form, marks, MAX_IMPORT_BYTES));
}
