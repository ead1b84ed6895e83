/** The shipments CSV an operator uploads on the import page, read into rows or refused with a reason. */
import { decodeImport, NOT_UTF8, type ParsedImport, parseImport } from "../production/shipments-csv.ts";

/** The rows of the uploaded file, or what to tell the operator: no file, not UTF-8, or not a CSV the import reads. */
export async function uploadedRows(file: unknown): Promise<ParsedImport> {
	if (!(file instanceof File)) return { ok: false, message: "Choose a CSV file to upload." };
	const text = decodeImport(await file.arrayBuffer());
	if (text === null) return { ok: false, message: NOT_UTF8 };
	return parseImport(text);
}
