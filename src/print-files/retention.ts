/**
 * What a file past its retention means for a new use of it: a refusal naming the request's field, and
 * which file a refused write named, when the write failed because a file expired after it was checked.
 */
import { type Problem, type Refusal, refusal } from "../problem.ts";
import { findAccountPrintFiles, type PrintFileRow } from "./store.ts";

/** The refusal (422, `print_file_expired`) of an expired file named by `field`, or null when it is kept. */
export function expiredFileRefusal(
	file: Pick<PrintFileRow, "id" | "expired_at">,
	field: string,
): (Refusal & Problem) | null {
	if (file.expired_at === null) return null;
	return refusal(
		"print_file_expired",
		field,
		`Print file ${file.id} expired ${file.expired_at}: its bytes were deleted after the retention period. Upload it again as a new print file.`,
	);
}

/** A print file a write names, and the request field that names it. */
export type FileUse = { fileId: string; field: string };

/**
 * After a write naming these files failed: the refusal of the first whose file reads expired now, or
 * null when none does. The database's triggers refuse a write that names an expired file, so a file the
 * retention sweep expired between its check and the write fails the write; whether that was the failure,
 * and which file, the files' rows say, never the error's text. Null: the write failed for another reason.
 */
export async function expiredSinceChecked(
	db: D1Database,
	accountId: string,
	uses: ReadonlyArray<FileUse>,
): Promise<(Refusal & Problem) | null> {
	const files = await findAccountPrintFiles(db, accountId, [...new Set(uses.map(({ fileId }) => fileId))]);
	for (const { fileId, field } of uses) {
		const file = files.get(fileId);
		const expired = file === undefined ? null : expiredFileRefusal(file, field);
		if (expired !== null) return expired;
	}
	return null;
}
