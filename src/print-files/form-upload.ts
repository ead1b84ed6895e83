/**
 * A print file uploaded through a console's form instead of a signed URL. The worker receives the
 * whole file inside the posted form, so a form takes files up to 64 MiB; larger files go through the
 * API's signed upload URL (up to 512 MiB). The file gets the row, the R2 key and the state an API
 * upload gives it (uploaded, inspected when first read), so every rule after this point is the API's.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { newId } from "../ids.ts";
import { PRINT_FILE_CONTENT_TYPES } from "./schema.ts";
import { findPrintFileById, insertPrintFile, markUploaded, type PrintFileRow, printFileKey } from "./store.ts";

/** The largest file a console form takes: the posted form is held in the worker's memory. */
export const MAX_FORM_UPLOAD_BYTES = 64 * 1024 * 1024;

/** The stored file, or what to tell the person who chose it. */
export type FormUpload = { ok: true; file: PrintFileRow } | { ok: false; message: string };

const TYPES_BY_EXTENSION: Readonly<Record<string, (typeof PRINT_FILE_CONTENT_TYPES)[number]>> = {
	tif: "image/tiff",
	tiff: "image/tiff",
	png: "image/png",
	jpg: "image/jpeg",
	jpeg: "image/jpeg",
};

/** The declared type: the browser's when it is one the API takes, else by the name's extension; null when neither. */
function contentTypeOf(upload: File): (typeof PRINT_FILE_CONTENT_TYPES)[number] | null {
	const declared = PRINT_FILE_CONTENT_TYPES.find((type) => type === upload.type);
	if (declared !== undefined) return declared;
	const extension = upload.name.split(".").pop()?.toLowerCase() ?? "";
	return TYPES_BY_EXTENSION[extension] ?? null;
}

/** A file name as the API keeps it: without control characters or slashes, at most 255 characters; null when nothing is left. */
function plainName(name: string): string | null {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to drop control characters.
	const plain = name.replace(/[\u0000-\u001f\u007f/\\]/g, "").slice(0, 255);
	return plain === "" ? null : plain;
}

/** Stores `upload` as a new print file of `owner`: its row, its bytes in R2, marked uploaded. */
export async function storeFormUpload(env: Env, owner: Owner, upload: File, now = new Date()): Promise<FormUpload> {
	if (upload.size === 0) return { ok: false, message: "The chosen file is empty: choose the image file again." };
	if (upload.size > MAX_FORM_UPLOAD_BYTES) {
		return {
			ok: false,
			message: `The file is larger than the console takes (64 MiB); upload it through the API's signed upload URL, which takes up to 512 MiB.`,
		};
	}
	const contentType = contentTypeOf(upload);
	if (contentType === null) {
		return { ok: false, message: "Print files are TIFF, PNG or JPEG images: choose a file of one of those types." };
	}
	const id = newId("pf");
	const r2Key = printFileKey(owner, id);
	const database = databaseOf(env, owner.accountId);
	await insertPrintFile(database, {
		id,
		account_id: owner.accountId,
		mode: owner.mode,
		filename: plainName(upload.name),
		content_type: contentType,
		declared_size_bytes: upload.size,
		r2_key: r2Key,
		created_at: now.toISOString(),
		expires_at: now.toISOString(),
	});
	await env.PRINT_FILES.put(r2Key, await upload.arrayBuffer(), { httpMetadata: { contentType } });
	await markUploaded(database, id, upload.size, now);
	const stored = await findPrintFileById(database, id);
	if (stored === null) throw new Error(`print file ${id} vanished after its upload`);
	return { ok: true, file: stored };
}
