/**
 * What a file past its retention means for a new use of it: a refusal naming the request's field, and
 * how the database's own refusal (a trigger fails the write of an expired file's use) is recognised.
 */
import { type Refusal, refusal } from "../problem.ts";
import type { PrintFileRow } from "./store.ts";

/** The message the database's triggers fail with when a write names an expired file. */
const EXPIRED_FILE_ABORT = "print_file_expired";

/** The refusal (422, `print_file_expired`) of an expired file named by `field`, or null when it is kept. */
export function expiredFileRefusal(file: Pick<PrintFileRow, "id" | "expired_at">, field: string): Refusal | null {
	if (file.expired_at === null) return null;
	return refusal(
		"print_file_expired",
		field,
		`Print file ${file.id} expired ${file.expired_at}: its bytes were deleted after the retention period. Upload it again as a new print file.`,
	);
}

/** Whether a failed D1 write failed because it named an expired file (the file expired after it was checked). */
export function isExpiredFileAbort(error: unknown): boolean {
	return error instanceof Error && error.message.includes(EXPIRED_FILE_ABORT);
}
