/**
 * `npm run postman:generate`: builds the OpenAPI document in this process (no server) and writes the
 * Postman collection made from it (scripts/lib/postman-collection.ts) to
 * src/openapi/postman-collection.json, which the worker serves at GET /v1/postman.json.
 *
 * `npm run postman:check` (`--check`): the same in memory; exits 1, saying what to run, when the
 * committed collection differs from what the document makes now. Part of `npm test`.
 */
import { formatWithBiome } from "./lib/client-schema.ts";
import { writeOrCheck } from "./lib/generated-files.ts";
import { buildOpenApiDocument } from "./lib/openapi-document.ts";
import { OpenApiSourceSchema, postmanCollection } from "./lib/postman-collection.ts";

const POSTMAN_FILE = "src/openapi/postman-collection.json";

const started = performance.now();
const document = OpenApiSourceSchema.parse(await buildOpenApiDocument());
const text = await formatWithBiome(JSON.stringify(postmanCollection(document)), POSTMAN_FILE);
await writeOrCheck([{ file: POSTMAN_FILE, text }], {
	check: process.argv.includes("--check"),
	what: "The Postman collection",
	command: "npm run postman:generate",
	took: `${Math.round(performance.now() - started)} ms`,
});
