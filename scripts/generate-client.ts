/**
 * `npm run client:generate`: builds the OpenAPI document in this process (scripts/lib/openapi-document.ts,
 * no server) and writes the typed client's generated files from it: clients/typescript/schema.d.ts
 * (openapi-typescript) and clients/typescript/webhook-events.ts, formatted as Biome wants.
 *
 * `npm run client:check` (`--check`): the same in memory; exits 1, saying what to run, when a
 * checked-in file differs from what the document generates now. Part of `npm test`.
 */
import { readFile, writeFile } from "node:fs/promises";
import path from "node:path";
import { clientFiles, firstDifference } from "./lib/client-schema.ts";
import { buildOpenApiDocument } from "./lib/openapi-document.ts";
import { PROJECT_ROOT } from "./lib/wrangler.ts";

const check = process.argv.includes("--check");
const started = performance.now();
const files = await clientFiles(JSON.stringify(await buildOpenApiDocument()));
const took = `${Math.round(performance.now() - started)} ms`;

if (check) {
	const stale: string[] = [];
	for (const { file, text } of files) {
		const current = await readFile(path.join(PROJECT_ROOT, file), "utf8").catch(() => "");
		const difference = firstDifference(text, current);
		if (difference !== null) stale.push(`${file} is out of date, first at ${difference}`);
	}
	if (stale.length > 0) {
		console.error(
			[
				"The typed client is out of date: the OpenAPI document generates different files.",
				...stale,
				"Run `npm run client:generate` and commit the files.",
			].join("\n"),
		);
		process.exit(1);
	}
	console.log(`${files.map(({ file }) => file).join(" and ")} match the OpenAPI document (${took}).`);
} else {
	for (const { file, text } of files) {
		await writeFile(path.join(PROJECT_ROOT, file), text);
		console.log(`Wrote ${file}: ${text.split("\n").length} lines.`);
	}
	console.log(`Generated from the OpenAPI document in ${took}.`);
}
