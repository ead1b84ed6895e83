/**
 * A held item's fix as the console's form sends it: the fields that differ from the item become the
 * API's item patch (PATCH /v1/orders/{id}/items/{item_id}), and a chosen file is stored as a print
 * file first, as an API upload would be. Nothing is stored while a field is wrong.
 */
import type { Owner } from "../accounts/owner.ts";
import type { ItemRow } from "../orders/rows.ts";
import { PatchItemBody, type PatchItemInput } from "../orders/schema.ts";
import { storeFormUpload } from "../print-files/form-upload.ts";

/** The patch to send, or what to tell the person who filled the form. */
export type FormPatch = { ok: true; patch: PatchItemInput } | { ok: false; message: string };

const LABELS: Readonly<Record<string, string>> = {
	width_in: "Width in inches",
	height_in: "Height in inches",
	frame: "Frame",
	mat: "Mat",
	print_file_id: "New print file",
};

/** The text of a posted field, trimmed and capped; "" when absent or a file. */
function text(form: Record<string, unknown>, name: string): string {
	const value = form[name];
	return typeof value === "string" ? value.trim().slice(0, 100) : "";
}

/** `item`'s fix from the posted `form`: the changed size and parts, and the uploaded file's id. */
export async function heldItemPatch(
	env: Env,
	owner: Owner,
	item: ItemRow,
	form: Record<string, unknown>,
): Promise<FormPatch> {
	const patch: Record<string, unknown> = {};
	for (const [field, current] of [
		["width_in", item.width_in],
		["height_in", item.height_in],
	] as const) {
		const typed = text(form, field);
		if (typed === "") continue;
		const inches = Number(typed);
		if (!Number.isFinite(inches))
			return { ok: false, message: `${LABELS[field]}: must be a number, such as 16 or 16.5.` };
		if (inches !== current) patch[field] = inches;
	}
	for (const [field, current] of [
		["frame", item.frame],
		["mat", item.mat],
	] as const) {
		if (!(field in form)) continue;
		const chosen = text(form, field);
		const slug = chosen === "" ? null : chosen;
		if (slug !== current) patch[field] = slug;
	}
	const upload = form.file;
	const chosenFile = upload instanceof File && upload.size > 0 ? upload : null;
	if (chosenFile === null && Object.keys(patch).length === 0) {
		return { ok: false, message: "Choose a new print file, or change the size, the frame or the mat." };
	}
	// Checked before the file is stored, with a stand-in id: a form with a wrong field stores nothing.
	const checked = PatchItemBody.safeParse(chosenFile === null ? patch : { ...patch, print_file_id: "pf_pending" });
	if (!checked.success) {
		const issue = checked.error.issues[0];
		const field = String(issue?.path[0] ?? "");
		return { ok: false, message: `${LABELS[field] ?? "The fix"}: ${issue?.message ?? "not understood"}.` };
	}
	if (chosenFile === null) return { ok: true, patch: checked.data };
	const stored = await storeFormUpload(env, owner, chosenFile);
	if (!stored.ok) return { ok: false, message: stored.message };
	return { ok: true, patch: { ...checked.data, print_file_id: stored.file.id } };
}
