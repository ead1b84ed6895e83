/**
 * `npm run client:generate`: builds the OpenAPI document in this process (scripts/lib/openapi-document.ts,
 * no server) and writes the typed client's generated files from it: clients/typescript/schema.d.ts
 * (openapi-typescript) and clients/typescript/webhook-events.ts, formatted as Biome wants.
 *
 * `npm run client:check` (`--check`): the same in memory; exits 1, saying what to run, when a
 * checked-in file differs from what the document generates now. Part of `npm test`.
 */
import { clientFiles } from "./lib/client-schema.ts";
import { writeOrCheck } from "./lib/generated-files.ts";
import { buildOpenApiDocument } from "./lib/openapi-document.ts";

const started = performance.now();
const files = await clientFiles(JSON.stringify(await buildOpenApiDocument()));
await writeOrCheck(files, {
	check: process.argv.includes("--check"),
	what: "The typed client",
	command: "npm run client:generate",
	took: `${Math.round(performance.now() - started)} ms`,
});
