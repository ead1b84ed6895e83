import { base64Of } from "../base64.ts";
import { databaseOf } from "../databases.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { readCapped } from "../print-files/read-capped.ts";
import { findAccountPrintFile, type PrintFileRow } from "../print-files/store.ts";
import { LOGO_FORMATS, LOGO_MAX_BYTES, LOGO_MAX_SIDE_PX } from "./schema.ts";

const LOGO_FORMAT_SET: ReadonlySet<string> = new Set(LOGO_FORMATS);

/** Why a file cannot be the logo: its code (`print_file_expired` for a file past its retention) and a sentence's end. */
export type LogoProblem = { code: "logo_unusable" | "print_file_expired"; message: string };

/**
 * Why this account's print file cannot be its logo, for `logo_print_file_id`, or null when it can: it
 * must be kept (not past its retention), uploaded, a readable PNG or JPEG, small in pixels and in bytes.
 */
export async function logoProblem(env: Env, accountId: string, fileId: string): Promise<LogoProblem | null> {
	const found = await findAccountPrintFile(databaseOf(env, accountId), accountId, fileId);
	if (found === null) return { code: "logo_unusable", message: `is not a print file of this account (${fileId})` };
	const file = await printFileNow(env, found);
	if (file.expired_at !== null) {
		return {
			code: "print_file_expired",
			message: `${fileId} expired ${file.expired_at}: its bytes were deleted after the retention period; upload it again`,
		};
	}
	const problem = unusableLogo(file, fileId);
	return problem === null ? null : { code: "logo_unusable", message: problem };
}

/** Why a kept file cannot be a logo, as a sentence's end, or null. */
function unusableLogo(file: PrintFileRow, fileId: string): string | null {
	if (file.status === "awaiting_upload" || file.status === "processing") {
		return `must be uploaded first: ${fileId} is ${file.status}`;
	}
	if (file.status === "invalid") return `is not a readable image: ${file.invalid_message ?? "invalid"}`;
	if (file.format === null || !LOGO_FORMAT_SET.has(file.format)) {
		return `must be a PNG or JPEG (${fileId} is ${file.format?.toUpperCase() ?? "of an unknown format"})`;
	}
	const longSide = Math.max(file.width_px ?? 0, file.height_px ?? 0);
	if (longSide > LOGO_MAX_SIDE_PX) {
		return `must be at most ${LOGO_MAX_SIDE_PX} px on its long side (${fileId} is ${file.width_px} × ${file.height_px} px)`;
	}
	if ((file.size_bytes ?? 0) > LOGO_MAX_BYTES) {
		return `must be at most ${LOGO_MAX_BYTES} bytes (${fileId} is ${file.size_bytes} bytes)`;
	}
	return null;
}

/**
 * The logo as a data: URL, so a slip is one self-contained page that prints, saves and renders to
 * PDF with nothing else to fetch. Null when the file is gone or no longer a valid logo: the slip then
 * prints without a logo rather than failing. The bytes read are the inspected ones (the read is
 * conditional on the pinned etag) and never more than LOGO_MAX_BYTES, whatever sits in R2.
 */
export async function logoDataUrl(env: Env, accountId: string, fileId: string): Promise<string | null> {
	const found = await findAccountPrintFile(databaseOf(env, accountId), accountId, fileId);
	if (found === null) return null;
	const file = await printFileNow(env, found);
	if (file.status !== "ready" || file.format === null || !LOGO_FORMAT_SET.has(file.format)) return null;
	if ((file.size_bytes ?? 0) > LOGO_MAX_BYTES || file.r2_etag === null) return null;
	const object = await env.PRINT_FILES.get(file.r2_key, { onlyIf: { etagMatches: file.r2_etag } });
	// Null: gone; no body: replaced since the check a moment ago.
	if (object === null || !("body" in object)) return null;
	const bytes = await readCapped(object.body, LOGO_MAX_BYTES);
	if (bytes === null) return null;
	return `data:image/${file.format};base64,${base64Of(bytes)}`;
}
