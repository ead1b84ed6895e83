/**
 * Files generated from the OpenAPI document and committed (the typed client, the Postman
 * collection): written by `npm run <name>:generate`, or compared with what is committed by
 * `npm run <name>:check`, which exits 1 naming the first difference and the command to run.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { firstDifference } from "./client-schema.ts";
import { PROJECT_ROOT } from "./wrangler.ts";

export type GeneratedFile = { file: string; text: string };

/** Writes `files` (paths relative to the project root), or with `check` fails when a committed one differs. */
export async function writeOrCheck(
	files: readonly GeneratedFile[],
	options: { check: boolean; what: string; command: string; took: string },
): Promise<void> {
	if (!options.check) {
		for (const { file, text } of files) {
			await writeFile(path.join(PROJECT_ROOT, file), text);
			console.log(`Wrote ${file}: ${text.split("\n").length} lines.`);
		}
		console.log(`Generated from the OpenAPI document in ${options.took}.`);
		return;
	}
	const stale: string[] = [];
	for (const { file, text } of files) {
		const current = await readFile(path.join(PROJECT_ROOT, file), "utf8").catch(() => "");
		const difference = firstDifference(text, current);
		if (difference !== null) stale.push(`${file} is out of date, first at ${difference}`);
	}
	if (stale.length > 0) {
		console.error(
			[
				`${options.what} is out of date: the OpenAPI document generates different files.`,
				...stale,
				`Run \`${options.command}\` and commit the files.`,
			].join("\n"),
		);
		process.exit(1);
	}
	console.log(`${files.map(({ file }) => file).join(" and ")} match the OpenAPI document (${options.took}).`);
}
