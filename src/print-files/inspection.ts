import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { probeImage } from "../imaging/probe.ts";
import { r2Source } from "./r2-source.ts";
import {
	type InspectionRecord,
	markFileChanged,
	type PrintFileRow,
	pinLegacyFile,
	printFileKey,
	recordInspection,
} from "./store.ts";
import { requestThumbnails } from "./thumbnail-queue.ts";

/** Largest print file accepted. */
export const MAX_PRINT_FILE_BYTES = 512 * 1024 * 1024;

/**
 * A print file whose row is still being read (in a caller's D1 batch, say): whose it must be, its
 * id, and the row the read will give (null when there is none).
 */
export type FileBeingRead = { owner: Owner; id: string; row: Promise<PrintFileRow | null> };

/**
 * A print file as it stands now, for any use of it (an order's create, an item's fix, validation,
 * the floor, a quote, a logo): inspected on first use, and on every later use compared with its
 * object in R2. Bytes replaced or removed since the inspection make the file `invalid`
 * (`file_changed`): what was checked is what gets printed, or nothing is.
 *
 * Given a file whose row is still being read, R2 is asked for the object's head meanwhile, so the
 * comparison costs no round trip of its own; the answer is null when there is no such file.
 */
export function printFileNow(env: Env, file: PrintFileRow, now?: Date): Promise<PrintFileRow>;
export function printFileNow(env: Env, file: FileBeingRead, now?: Date): Promise<PrintFileRow | null>;
export async function printFileNow(
	env: Env,
	file: PrintFileRow | FileBeingRead,
	now: Date = new Date(),
): Promise<PrintFileRow | null> {
	if (!("row" in file)) return settled(env, file, null, now);
	const [row, head] = await Promise.all([file.row, headAskedEarly(env, printFileKey(file.owner, file.id))]);
	return row === null ? null : settled(env, row, head, now);
}

/** An object's head asked for before its file is known to exist; null when R2 gave no answer. */
type EarlyHead = { key: string; object: R2Object | null };

async function headAskedEarly(env: Env, key: string): Promise<EarlyHead | null> {
	// Should R2 refuse the key or fail, this is no answer: the file, if found, is then compared with R2
	// by its own key.
	try {
		return { key, object: await env.PRINT_FILES.head(key) };
	} catch {
		return null;
	}
}

/** The file inspected if it never was, else compared with its object (`head` counts only for its own key). */
async function settled(env: Env, file: PrintFileRow, head: EarlyHead | null, now: Date): Promise<PrintFileRow> {
	// Past its retention the bytes are gone on purpose: nothing to inspect or compare, and not a change.
	if (file.expired_at !== null) return file;
	if (file.inspected_at === null) return inspected(env, file, now);
	if (file.status !== "ready") return file;
	const object = head !== null && head.key === file.r2_key ? head.object : await env.PRINT_FILES.head(file.r2_key);
	return comparedWith(env, file, object);
}

/**
 * Inspects a file the first time it is needed, if its bytes are in R2: header-only, with ranged
 * reads pinned to the object's etag, and the result stored in D1 with that etag so it happens once
 * and names the exact bytes it judged. A file not uploaded yet comes back as is.
 */
async function inspected(env: Env, file: PrintFileRow, now: Date): Promise<PrintFileRow> {
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
			const inspection = await probeImage(source);
			// Storage failing is not the file's fault: record nothing, so the next read inspects again.
			if (!inspection.ok && inspection.reason === "read_failed") {
				if (pass < 2) continue;
				throw new Error(`inspection of ${file.id}: ${inspection.message}`);
			}
			result = inspection.ok
				? {
						status: "ready",
						format: inspection.format,
						widthPx: inspection.widthPx,
						heightPx: inspection.heightPx,
						colour: inspection.colour,
					}
				: { status: "invalid", format: inspection.format, reason: inspection.reason, message: inspection.message };
		}
		const recorded = await recordInspection(databaseOf(env, file.account_id), file.id, result, {
			sizeBytes: head.size,
			etag: head.etag,
			uploadedAt: head.uploaded,
			bytesRead: source.bytesRead,
			now,
		});
		// Ready: its thumbnail is made off the request path. Two requests racing here both send; the
		// consumer makes it once (and a message for other bytes than the recorded ones does nothing).
		if (recorded?.status === "ready" && recorded.r2_etag !== null && recorded.thumbnail_status === "pending") {
			await requestThumbnails(env, [{ print_file_id: recorded.id, etag: recorded.r2_etag }]);
		}
		return recorded ?? file;
	}
}

/** The ready, inspected file compared with its object's head now. */
async function comparedWith(env: Env, file: PrintFileRow, head: R2Object | null): Promise<PrintFileRow> {
	const change = changeSinceInspection(file, head);
	if (change === null) {
		// Inspected before files were pinned to an etag: pinned to the object now, its size unchanged.
		if (file.r2_etag === null && head !== null) {
			await pinLegacyFile(databaseOf(env, file.account_id), file.id, head.etag);
			return { ...file, r2_etag: head.etag };
		}
		return file;
	}
	return (await markFileChanged(databaseOf(env, file.account_id), file.id, file.r2_etag, change)) ?? file;
}

/** Why the object in R2 is not the inspected one (a message for the partner), or null when it is. */
function changeSinceInspection(
	file: Pick<PrintFileRow, "r2_etag" | "size_bytes">,
	head: Pick<R2Object, "etag" | "size"> | null,
): string | null {
	if (head === null) return "The file's bytes are no longer in storage; upload the file again as a new print file.";
	const sameBytes = head.size === file.size_bytes && (file.r2_etag === null || head.etag === file.r2_etag);
	if (sameBytes) return null;
	return "The file's bytes were replaced after it was checked; upload the file again as a new print file.";
}
