/**
 * `npm run postman:generate`: builds the three OpenAPI documents in this process (no server) and
 * writes the Postman collection made from each: the partner's run (scripts/lib/postman-rehearsal.ts)
 * to src/openapi/postman-collection.json, served at GET /v1/postman.json, and the floor's and the
 * service team's (scripts/lib/postman-internal.ts) to src/openapi/postman-ops-collection.json and
 * postman-admin-collection.json, served at GET /v1/ops/postman.json and /v1/admin/postman.json.
 *
 * `npm run postman:check` (`--check`): the same in memory; exits 1, saying what to run, when a
 * committed collection differs from what its document makes now. Part of `npm test`.
 */
import { AUDIENCE_DOCUMENTS } from "../src/openapi/audiences.ts";
import { formatWithBiome } from "./lib/client-schema.ts";
import { writeOrCheck } from "./lib/generated-files.ts";
import { buildOpenApiDocuments } from "./lib/openapi-document.ts";
import { OpenApiSourceSchema, type PostmanCollection } from "./lib/postman-collection.ts";
import { internalCollection } from "./lib/postman-internal.ts";
import { partnerCollection } from "./lib/postman-rehearsal.ts";

/** Each collection's file, and how it is made from its audience's document. */
const COLLECTIONS = [
	{ file: "src/openapi/postman-collection.json", audience: "partner", make: partnerCollection },
	{
		file: "src/openapi/postman-ops-collection.json",
		audience: "ops",
		make: (document) => internalCollection(document, "ops"),
	},
	{
		file: "src/openapi/postman-admin-collection.json",
		audience: "admin",
		make: (document) => internalCollection(document, "admin"),
	},
] as const satisfies ReadonlyArray<{
	file: string;
	audience: keyof typeof AUDIENCE_DOCUMENTS;
	make: (document: ReturnType<typeof OpenApiSourceSchema.parse>) => PostmanCollection;
}>;

const started = performance.now();
const documents = await buildOpenApiDocuments(COLLECTIONS.map(({ audience }) => AUDIENCE_DOCUMENTS[audience].path));
const files = await Promise.all(
	COLLECTIONS.map(async ({ file, make }, index) => {
		const document = OpenApiSourceSchema.parse(documents[index]);
		return { file, text: await formatWithBiome(JSON.stringify(make(document)), file) };
	}),
);
await writeOrCheck(files, {
	check: process.argv.includes("--check"),
	what: "A Postman collection",
	command: "npm run postman:generate",
	took: `${Math.round(performance.now() - started)} ms`,
});
