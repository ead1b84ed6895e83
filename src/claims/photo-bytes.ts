/**
 * A claim's photo for the consoles: the bytes exactly as inspected, streamed from R2 and served inline
 * as the image type the inspection found (only JPEG and PNG; the partner's declared type is not
 * trusted), so a claim's page can show it. The service team reads any claim's; a partner only their
 * own account's, in the mode they are looking at.
 */

import type { Owner } from "../accounts/owner.ts";
import { databaseOf, findInEveryDatabase } from "../databases.ts";
import { findPrintFileById } from "../print-files/store.ts";
import { type Refusal, refusal } from "../problem.ts";
import { PHOTO_FORMATS } from "./photos.ts";
import { findClaim, findOwnedClaim, type StoredClaim } from "./store.ts";

const MEDIA_TYPES: Readonly<Record<string, string>> = { jpeg: "image/jpeg", png: "image/png" };

/**
 * The `index`th photo of claim `claimId` as a streamed inline image, or why not: `claim_not_found`,
 * `print_file_not_found` for a photo the claim does not have, or `print_file_not_printable` for one
 * that is not a checked JPEG or PNG.
 */
export async function claimPhoto(env: Env, claimId: string, index: number): Promise<ClaimPhoto | Refusal> {
	const found = await findInEveryDatabase(env, (database) => findClaim(database, claimId));
	if (found === null) return refusal("claim_not_found", "id", `There is no claim ${claimId}.`);
	return photoOfClaim(env, found, index);
}

/** As claimPhoto, of a claim of `owner` only: another account's or mode's claim is `claim_not_found`. */
export async function ownedClaimPhoto(
	env: Env,
	owner: Owner,
	claimId: string,
	index: number,
): Promise<ClaimPhoto | Refusal> {
	const found = await findOwnedClaim(databaseOf(env, owner.accountId), owner, claimId);
	if (found === null) return refusal("claim_not_found", "id", `There is no claim ${claimId}.`);
	return photoOfClaim(env, found, index);
}

/** A photo's bytes and the headers it is served with. */
export type ClaimPhoto = { ok: true; body: ReadableStream; headers: Record<string, string> };

/** The `index`th photo of a claim found, or why not. */
async function photoOfClaim(env: Env, found: StoredClaim, index: number): Promise<ClaimPhoto | Refusal> {
	const claimId = found.claim.id;
	const fileId = found.claim.photos[index];
	if (fileId === undefined) {
		return refusal("print_file_not_found", "index", `Claim ${claimId} has no photo ${index + 1}.`);
	}
	const file = await findPrintFileById(databaseOf(env, found.accountId), fileId);
	if (file === null) return refusal("print_file_not_found", "index", `No print file ${fileId}.`);
	const mediaType = file.format === null ? undefined : MEDIA_TYPES[file.format];
	if (
		file.status !== "ready" ||
		file.r2_etag === null ||
		mediaType === undefined ||
		!PHOTO_FORMATS.has(file.format ?? "")
	) {
		return refusal("print_file_not_printable", "index", `Photo ${fileId} is not a checked JPEG or PNG image.`);
	}
	const object = await env.PRINT_FILES.get(file.r2_key, { onlyIf: { etagMatches: file.r2_etag } });
	// Gone, or no body: not the bytes that were checked.
	if (object === null || !("body" in object)) {
		const message = `Photo ${fileId} is no longer the image that was checked.`;
		return refusal("print_file_not_printable", "index", message);
	}
	return {
		ok: true,
		body: object.body,
		headers: {
			"Content-Type": mediaType,
			"Content-Length": String(object.size),
			"Content-Disposition": `inline; filename="${fileId}.${file.format === "jpeg" ? "jpg" : "png"}"`,
			"Cache-Control": "private, no-store",
			"X-Content-Type-Options": "nosniff",
		},
	};
}
