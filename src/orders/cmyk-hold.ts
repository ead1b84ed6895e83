/**
 * The account's choice for CMYK print files, as validation applies it: with `hold`, an item whose file's
 * headers say CMYK holds the order (`cmyk_file`) until the item is fixed with an RGB file; with `convert`,
 * the order goes on and the file prints converted. A file whose colour is not known (inspected before
 * colour was read, or facts that do not read) never holds an order.
 */
import { type CmykFiles, printSettingsOf } from "../accounts/print-settings.ts";
import { directoryDatabase } from "../databases.ts";
import { colourFactsOf } from "../print-files/colour-facts-read.ts";
import type { PrintFileRow } from "../print-files/store.ts";
import type { Problem } from "./item-checks.ts";

/** Whether the file's headers say it is CMYK (JPEG's YCCK included); false when its colour is not known. */
export function isCmykFile(file: Pick<PrintFileRow, "colour_facts"> | null): boolean {
	return file !== null && colourFactsOf(file.colour_facts)?.model === "cmyk";
}

/** What the account does with CMYK files; `convert` (the column's default) for an account that is gone. */
export async function cmykChoiceOf(env: Env, accountId: string): Promise<CmykFiles> {
	const settings = await printSettingsOf(directoryDatabase(env), accountId);
	return settings?.cmyk_files ?? "convert";
}

/** The hold of an item whose print file is CMYK, on the field that carried the file. */
export function cmykFileProblem(item: { id: string; fileField: string }): Problem {
	return {
		reason: "cmyk_file",
		detail: {
			item_id: item.id,
			field: item.fileField,
			code: "cmyk_file",
			message:
				'The print file is CMYK, and the account holds orders with CMYK files (`cmyk_files: "hold"` in GET /v1/account/print-settings). Fix the item with an RGB file (sRGB, or Adobe RGB with its profile embedded), or set `cmyk_files` to "convert" and send the item\'s `print_file_id` again to print it converted.',
		},
	};
}
