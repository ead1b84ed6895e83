import type { KeyMode } from "../accounts/scopes.ts";
import type { FramingSpec } from "../framing/spec.ts";
import { ApiError } from "../http/errors.ts";
import { currentPrintFile } from "../print-files/inspection.ts";
import { MINIMUM_DPI } from "../print-files/resolution.ts";
import { findOwnedPrintFile, type PrintFileRow } from "../print-files/store.ts";
import { imageFit } from "./item-checks.ts";

/**
 * The check of an uploaded file named by `print_file_id` when an order is created or an item
 * changed: the file must be the caller's, uploaded and a readable image of at least 150 DPI at the
 * item's size, else 422 on `field`. Returns the item's effective DPI and warnings, and the file as
 * it was checked (compared with R2 just now).
 */
export async function checkUploadedFile(
	env: Env,
	owner: { accountId: string; mode: KeyMode },
	printFileId: string,
	size: { width_in: number; height_in: number; fit: FramingSpec["fit"] },
	field: string,
): Promise<UploadCheck> {
	const found = await findOwnedPrintFile(env.DB, owner, printFileId);
	return checkedUpload(found === null ? null : await currentPrintFile(env, found), printFileId, size, field);
}

/** What an uploaded file's check found, and the file it checked. */
export type UploadCheck = { effectiveDpi: number; warnings: string[]; croppedPercent: number; file: PrintFileRow };

/** checkUploadedFile's verdict on the file as it stands now (`file`: null when the caller has none). */
export function checkedUpload(
	file: PrintFileRow | null,
	printFileId: string,
	size: { width_in: number; height_in: number; fit: FramingSpec["fit"] },
	field: string,
): UploadCheck {
	if (file === null) throw new ApiError("validation_error", `No print file ${printFileId} in this account.`, field);
	if (file.status === "awaiting_upload" || file.status === "processing") {
		throw new ApiError("validation_error", `Print file ${printFileId} has not been uploaded yet.`, field);
	}
	if (file.status === "invalid" || file.width_px === null || file.height_px === null) {
		throw new ApiError(
			"validation_error",
			`Print file ${printFileId} is not a usable image (${file.invalid_reason ?? "invalid"}): ${file.invalid_message ?? ""}`.trim(),
			field,
		);
	}
	const fitted = imageFit(file.width_px, file.height_px, size);
	if (fitted.verdict === "reject") {
		throw new ApiError(
			"validation_error",
			`Print file ${printFileId} is ${file.width_px} × ${file.height_px} px: ${Math.floor(fitted.effectiveDpi)} DPI at ${size.width_in} × ${size.height_in} in, below the ${MINIMUM_DPI} DPI minimum for that size.`,
			field,
		);
	}
	return { effectiveDpi: fitted.effectiveDpi, warnings: fitted.warnings, croppedPercent: fitted.croppedPercent, file };
}
