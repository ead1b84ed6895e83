/**
 * An item's print file as the item checks see it. Two situations word what they find differently:
 * a create or an item's fix names the file the partner just sent (a 422 on that field), while
 * validation holds an order whose file went away or failed since.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { type ErrorCode, isErrorCode } from "../error-catalog.ts";
import type { FramingSpec } from "../framing/spec.ts";
import { printFileNow } from "../print-files/inspection.ts";
import { fileWarnings } from "../print-files/print-warnings.ts";
import { expiredFileRefusal } from "../print-files/retention.ts";
import { findOwnedPrintFile, type PrintFileRow } from "../print-files/store.ts";
import { type Refusal, refusal } from "../problem.ts";
import { type FileFacts, fileAtSize, type ItemWarning } from "./item-checks.ts";
import type { HoldReason } from "./state-machine.ts";

/** What an uploaded file's check found, and the file it checked. */
export type UploadCheck = { effectiveDpi: number; warnings: ItemWarning[]; croppedPercent: number; file: PrintFileRow };

type SizeAndFit = { width_in: number; height_in: number; fit: FramingSpec["fit"]; mat: FramingSpec["mat"] };

/**
 * The check of an uploaded file named by `print_file_id` when an item is changed: the file must be
 * the caller's, uploaded and a readable image of at least 150 DPI at the item's size, else a refusal
 * on `field`. The file is compared with R2 just now.
 */
export async function checkUploadedFile(
	env: Env,
	owner: Owner,
	printFileId: string,
	size: SizeAndFit,
	field: string,
): Promise<({ ok: true } & UploadCheck) | Refusal> {
	const file = await printFileNow(env, {
		owner,
		id: printFileId,
		row: findOwnedPrintFile(databaseOf(env, owner.accountId), owner, printFileId),
	});
	return checkedUpload(file, printFileId, size, field);
}

/** checkUploadedFile's verdict on the file as it stands now (`file`: null when the caller has none). */
export function checkedUpload(
	file: PrintFileRow | null,
	printFileId: string,
	size: SizeAndFit,
	field: string,
): ({ ok: true } & UploadCheck) | Refusal {
	if (file === null) return refusal("unknown_print_file", field, `No print file ${printFileId} in this account.`);
	const expired = expiredFileRefusal(file, field);
	if (expired !== null) return expired;
	const facts = uploadFacts(file, printFileId);
	const judged = fileAtSize(facts, size, `Print file ${printFileId}`);
	if (!judged.ok) return refusal(uploadRefusalCode(facts, judged.reason), field, judged.message);
	const { effectiveDpi, warnings, croppedPercent } = judged.fit;
	return { ok: true, effectiveDpi, warnings, croppedPercent, file };
}

/**
 * The code of a refused upload: the hold reason the same file would give (too few pixels, not an
 * image, not a supported format), or that it was never uploaded.
 */
function uploadRefusalCode(facts: FileFacts, reason: HoldReason): ErrorCode {
	if (facts.kind === "missing") return "print_file_not_uploaded";
	return isErrorCode(reason) ? reason : "file_unreadable";
}

/** What the partner's file is, in the words of a refusal that names it. */
function uploadFacts(file: PrintFileRow, printFileId: string): FileFacts {
	if (file.status === "awaiting_upload" || file.status === "processing") {
		return { kind: "missing", message: `Print file ${printFileId} has not been uploaded yet.` };
	}
	if (file.status === "invalid" || file.width_px === null || file.height_px === null) {
		const message =
			`Print file ${printFileId} is not a usable image (${file.invalid_reason ?? "invalid"}): ${file.invalid_message ?? ""}`.trim();
		return { kind: "invalid", reason: file.invalid_reason, message };
	}
	return { kind: "ready", widthPx: file.width_px, heightPx: file.height_px, warnings: fileWarnings(file) };
}

/** What an inspected (or failed) print file tells validation's item check. */
export function fileFacts(file: PrintFileRow | null): FileFacts {
	if (file === null) return { kind: "missing", message: "The print file no longer exists." };
	// An order holds its files, so only a file expired before the order named it gets here: its bytes are gone.
	if (file.expired_at !== null) return { kind: "missing", message: `The print file expired ${file.expired_at}.` };
	if (file.status === "ready" && file.width_px !== null && file.height_px !== null) {
		return { kind: "ready", widthPx: file.width_px, heightPx: file.height_px, warnings: fileWarnings(file) };
	}
	if (file.status === "invalid" && file.invalid_reason !== null) {
		return {
			kind: "invalid",
			reason: file.invalid_reason,
			message: file.invalid_message ?? "The file is not a usable image.",
		};
	}
	return { kind: "missing", message: "The print file has not been uploaded." };
}
