/**
 * The photos of a claim: print files of the claim's account and mode, uploaded and read as JPEG or
 * PNG. What a reason needs and what each file must be, as a refusal naming `photo_file_ids[i]`.
 */
import type { Owner } from "../accounts/owner.ts";
import { expiredFileRefusal } from "../print-files/retention.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import { type Refusal, refusal } from "../problem.ts";
import { type ClaimReason, REASONS_NEEDING_PHOTOS } from "./rules.ts";
import { MAX_PHOTOS } from "./schema.ts";

/** The formats a photo may be: what a browser shows inline. */
export const PHOTO_FORMATS: ReadonlySet<string> = new Set(["jpeg", "png"]);

/** How many photos `reason` needs, and no more than MAX_PHOTOS; the refusal names the entry at fault. */
export function photoCount(reason: ClaimReason, ids: ReadonlyArray<string>): { ok: true } | Refusal {
	if (REASONS_NEEDING_PHOTOS.has(reason) && ids.length === 0) {
		return refusal("invalid_field", "photo_file_ids", `${reason} needs 1 to ${MAX_PHOTOS} photos of what arrived`);
	}
	if (ids.length > MAX_PHOTOS) {
		return refusal(
			"invalid_field",
			`photo_file_ids[${MAX_PHOTOS}]`,
			`a claim carries at most ${MAX_PHOTOS} photos; ${ids.length} given`,
		);
	}
	const first = new Map<string, number>();
	for (const [index, id] of ids.entries()) {
		const earlier = first.get(id);
		if (earlier !== undefined) {
			return refusal(
				"invalid_field",
				`photo_file_ids[${index}]`,
				`${id} is named already at photo_file_ids[${earlier}]`,
			);
		}
		first.set(id, index);
	}
	return { ok: true };
}

/** Each photo as a file of this owner, uploaded and read as a JPEG or a PNG; the refusal names the first at fault. */
export function photoFiles(
	owner: Owner,
	ids: ReadonlyArray<string>,
	files: ReadonlyMap<string, PrintFileRow>,
): { ok: true } | Refusal {
	for (const [index, id] of ids.entries()) {
		const field = `photo_file_ids[${index}]`;
		const file = files.get(id);
		if (file === undefined || file.mode !== owner.mode) {
			return refusal("unknown_print_file", field, `${id} is not a print file of this account and mode`);
		}
		const expired = expiredFileRefusal(file, field);
		if (expired !== null) return expired;
		if (file.status === "invalid") {
			return refusal("file_unreadable", field, `${id} is not a usable image (${file.invalid_reason ?? "invalid"})`);
		}
		if (file.status !== "ready") {
			return refusal("print_file_not_uploaded", field, `${id} is ${file.status}: upload it and wait until it is ready`);
		}
		if (file.format === null || !PHOTO_FORMATS.has(file.format)) {
			return refusal(
				"unsupported_file_format",
				field,
				`${id} is a ${(file.format ?? "unknown").toUpperCase()} file; photos are JPEG or PNG`,
			);
		}
	}
	return { ok: true };
}
