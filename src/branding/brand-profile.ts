/**
 * Saving an account's brand profile of one mode, as `PUT /v1/branding` and the partner console's brand
 * page both do it: the logo checked by the logo rules, then the whole profile written.
 */
import type { Owner } from "../accounts/owner.ts";
import { databaseOf } from "../databases.ts";
import { expiredSinceChecked } from "../print-files/retention.ts";
import { type Refusal, refusal } from "../problem.ts";
import { logoProblem } from "./logo.ts";
import type { BrandProfileInput } from "./schema.ts";
import { type BrandProfileRow, putBrandProfile } from "./store.ts";

/** The profile as stored, or why it was not. */
export type SavedBrandProfile = { ok: true; profile: BrandProfileRow } | Refusal;

/**
 * Creates or replaces `owner`'s profile (the owner's mode only: a test write never touches live) from a
 * validated body; refused (`logo_unusable`, `print_file_expired`, on `logo_print_file_id`) when the logo
 * cannot be one, including a logo expired between its check and the write (the database refuses it).
 */
export async function saveBrandProfile(
	env: Env,
	owner: Owner,
	input: BrandProfileInput,
	now = new Date(),
): Promise<SavedBrandProfile> {
	const logoId = input.logo_print_file_id ?? null;
	if (logoId !== null) {
		const problem = await logoProblem(env, owner.accountId, logoId);
		if (problem !== null) {
			return refusal(problem.code, "logo_print_file_id", `logo_print_file_id ${problem.message}.`);
		}
	}
	const db = databaseOf(env, owner.accountId);
	const row = {
		account_id: owner.accountId,
		mode: owner.mode,
		brand_name: input.brand_name,
		return_address: input.return_address == null ? null : JSON.stringify(input.return_address),
		support_email: input.support_email ?? null,
		support_url: input.support_url ?? null,
		packing_slip_message: input.packing_slip_message ?? null,
		logo_print_file_id: logoId,
	};
	try {
		return { ok: true, profile: await putBrandProfile(db, row, now) };
	} catch (error) {
		const uses = logoId === null ? [] : [{ fileId: logoId, field: "logo_print_file_id" }];
		const expired = await expiredSinceChecked(db, owner.accountId, uses);
		if (expired === null) throw error;
		return expired;
	}
}
