import { inspectImage } from "./inspect.ts";
import { r2Source } from "./r2-source.ts";
import { type InspectionRecord, type PrintFileRow, recordInspection } from "./store.ts";

/** Largest print file accepted (contract, "Print files"). */
export const MAX_PRINT_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Inspects a file the first time it is needed, if its bytes are in R2: header-only, with ranged
 * reads, and the result stored in D1 so it happens once. A file not uploaded yet comes back as is.
 */
export async function inspectIfUploaded(env: Env, file: PrintFileRow, now: Date = new Date()): Promise<PrintFileRow> {
	if (file.inspected_at !== null) return file;
	const head = await env.PRINT_FILES.head(file.r2_key);
	if (head === null) return file;
	const source = r2Source(env.PRINT_FILES, file.r2_key, head.size);
	let result: InspectionRecord;
	if (head.size > MAX_PRINT_FILE_BYTES) {
		// Only reachable through a presigned upload without a declared size: R2 cannot cap those.
		result = {
			status: "invalid",
			format: null,
			reason: "file_too_large",
			message: `The file is ${head.size} bytes; the largest accepted is ${MAX_PRINT_FILE_BYTES} bytes (512 MiB).`,
		};
	} else {
		const inspection = await inspectImage(source);
		// Storage failing is not the file's fault: record nothing, so the next read inspects again.
		if (!inspection.ok && inspection.reason === "read_failed")
			throw new Error(`inspection of ${file.id}: ${inspection.message}`);
		result = inspection.ok
			? { status: "ready", format: inspection.format, widthPx: inspection.widthPx, heightPx: inspection.heightPx }
			: { status: "invalid", format: inspection.format, reason: inspection.reason, message: inspection.message };
	}
	const recorded = await recordInspection(env.DB, file.id, result, {
		sizeBytes: head.size,
		uploadedAt: head.uploaded,
		bytesRead: source.bytesRead,
		now,
	});
	return recorded ?? file;
}
