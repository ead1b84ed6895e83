import { inspectImage } from "./inspect.ts";
import { r2Source } from "./r2-source.ts";
import {
	findPrintFileById,
	type InspectionRecord,
	markFileChanged,
	type PrintFileRow,
	pinLegacyFile,
	recordInspection,
} from "./store.ts";

/** Largest print file accepted (contract, "Print files"). */
export const MAX_PRINT_FILE_BYTES = 512 * 1024 * 1024;

/**
 * Inspects a file the first time it is needed, if its bytes are in R2: header-only, with ranged
 * reads pinned to the object's etag, and the result stored in D1 with that etag so it happens once
 * and names the exact bytes it judged. A file not uploaded yet comes back as is.
 */
export async function inspectIfUploaded(env: Env, file: PrintFileRow, now: Date = new Date()): Promise<PrintFileRow> {
	if (file.inspected_at !== null) return file;
	// A second pass only when the object was replaced while it was being read: then judge the new one.
	for (let pass = 1; ; pass++) {
		const head = await env.PRINT_FILES.head(file.r2_key);
		if (head === null) return file;
		const source = r2Source(env.PRINT_FILES, file.r2_key, head.size, head.etag);
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
			if (!inspection.ok && inspection.reason === "read_failed") {
				if (pass < 2) continue;
				throw new Error(`inspection of ${file.id}: ${inspection.message}`);
			}
			result = inspection.ok
				? { status: "ready", format: inspection.format, widthPx: inspection.widthPx, heightPx: inspection.heightPx }
				: { status: "invalid", format: inspection.format, reason: inspection.reason, message: inspection.message };
		}
		const recorded = await recordInspection(env.DB, file.id, result, {
			sizeBytes: head.size,
			etag: head.etag,
			uploadedAt: head.uploaded,
			bytesRead: source.bytesRead,
			now,
		});
		return recorded ?? file;
	}
}

/**
 * A print file as it stands now, for any use of it (order creation, validation, the floor, a logo):
 * inspected on first use, and on every later use compared with the object in R2. Bytes replaced or
 * removed since the inspection make the file `invalid` (`file_changed`): what was checked is what
 * gets printed, or nothing is.
 */
export async function currentPrintFile(env: Env, file: PrintFileRow, now: Date = new Date()): Promise<PrintFileRow> {
	if (file.inspected_at === null) return inspectIfUploaded(env, file, now);
	if (file.status !== "ready") return file;
	return currentAgainst(env, file, await env.PRINT_FILES.head(file.r2_key));
}

/**
 * currentPrintFile with the R2 object's head already asked for (side by side with the file's D1 read):
 * `head` counts only when it is of the file's own key; without one, or with another, R2 is asked again.
 */
export async function currentPrintFileGiven(
	env: Env,
	file: PrintFileRow,
	head: { key: string; object: R2Object | null } | null,
	now: Date = new Date(),
): Promise<PrintFileRow> {
	if (file.inspected_at === null || file.status !== "ready" || head === null || head.key !== file.r2_key) {
		return currentPrintFile(env, file, now);
	}
	return currentAgainst(env, file, head.object);
}

/** The ready, inspected file compared with its object's head now. */
async function currentAgainst(env: Env, file: PrintFileRow, head: R2Object | null): Promise<PrintFileRow> {
	const change = changeSinceInspection(file, head);
	if (change === null) {
		// Inspected before pins were kept (migration 0007): pinned to the object now, its size unchanged.
		if (file.r2_etag === null && head !== null) {
			await pinLegacyFile(env.DB, file.id, head.etag);
			return { ...file, r2_etag: head.etag };
		}
		return file;
	}
	return (await markFileChanged(env.DB, file.id, file.r2_etag, change)) ?? file;
}

/** The print file with this id as it stands now (see currentPrintFile), or null when there is none. */
export async function currentPrintFileById(env: Env, id: string): Promise<PrintFileRow | null> {
	const found = await findPrintFileById(env.DB, id);
	return found === null ? null : currentPrintFile(env, found);
}

/** Why the object in R2 is not the inspected one (a message for the partner), or null when it is. */
export function changeSinceInspection(
	file: Pick<PrintFileRow, "r2_etag" | "size_bytes">,
	head: Pick<R2Object, "etag" | "size"> | null,
): string | null {
	if (head === null) return "The file's bytes are no longer in storage; upload the file again as a new print file.";
	const sameBytes = head.size === file.size_bytes && (file.r2_etag === null || head.etag === file.r2_etag);
	if (sameBytes) return null;
	return "The file's bytes were replaced after it was checked; upload the file again as a new print file.";
}
