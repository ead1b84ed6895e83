import { describe, expect, it } from "vitest";
import { AUDIENCE_DOCUMENTS } from "../../src/openapi/audiences.ts";
import { api } from "../helpers.ts";

type Schema = Record<string, unknown>;
type Document = {
	paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: Schema }> } }>>;
	components?: { schemas?: Record<string, Schema> };
};

/**
 * The open maps of the request bodies, by field name: objects whose keys are data, not fields (an
 * order's metadata, the partner's own keys; a price book's rates by catalog slug; a landed-cost table's
 * destinations by country and their tax rates by region). Their values are still checked. Every other
 * object of every body names its fields and refuses any other.
 */
const OPEN_MAPS = new Set([
	"metadata",
	"paper_mills_per_sq_in",
	"mills_per_foot",
	"mills_per_sq_in",
	"destinations",
	"regions",
]);

const COMBINERS = ["allOf", "anyOf", "oneOf"] as const;

function isSchema(value: unknown): value is Schema {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The object schemas of `schema` (its own, its combinations', its properties', its items') that accept unnamed fields. */
function openObjects(document: Document, schema: Schema, at: string, seen: Set<string>): string[] {
	const ref = schema.$ref;
	if (typeof ref === "string") {
		if (seen.has(ref)) return [];
		const name = ref.replace("#/components/schemas/", "");
		const target = document.components?.schemas?.[name];
		if (target === undefined) return [`${at}: ${ref} is not in components.schemas`];
		return openObjects(document, target, at, new Set([...seen, ref]));
	}
	const found: string[] = [];
	const properties = isSchema(schema.properties) ? schema.properties : undefined;
	const typeWords = Array.isArray(schema.type) ? schema.type : [schema.type];
	const isObject = typeWords.includes("object") || properties !== undefined;
	const field = at.split(".").at(-1) ?? at;
	if (isObject) {
		const extra = schema.additionalProperties;
		if (OPEN_MAPS.has(field) && properties === undefined && isSchema(extra)) {
			found.push(...openObjects(document, extra, `${at}.*`, seen));
		} else if (extra !== false) {
			found.push(`${at}: additionalProperties is ${JSON.stringify(extra)}, not false`);
		}
	}
	for (const [name, property] of Object.entries(properties ?? {})) {
		if (isSchema(property)) found.push(...openObjects(document, property, `${at}.${name}`, seen));
	}
	if (isSchema(schema.items)) found.push(...openObjects(document, schema.items, `${at}[]`, seen));
	for (const combiner of COMBINERS) {
		const branches = schema[combiner];
		if (!Array.isArray(branches)) continue;
		for (const branch of branches) if (isSchema(branch)) found.push(...openObjects(document, branch, at, seen));
	}
	return found;
}

async function servedDocument(path: string): Promise<Document> {
	const response = await api(path);
	expect(response.status).toBe(200);
	return (await response.json()) as Document;
}

describe("request bodies refuse fields they do not name (no mass assignment)", () => {
	it.each(Object.entries(AUDIENCE_DOCUMENTS))(
		"every JSON request body object schema of the served %s OpenAPI document has additionalProperties: false, nested objects too",
		async (_, { path: documentPath }) => {
			const document = await servedDocument(documentPath);
			const open: string[] = [];
			let bodies = 0;
			for (const [path, operations] of Object.entries(document.paths)) {
				for (const [method, operation] of Object.entries(operations)) {
					for (const [mediaType, content] of Object.entries(operation.requestBody?.content ?? {})) {
						if (!mediaType.includes("json") || content.schema === undefined) continue;
						bodies++;
						open.push(...openObjects(document, content.schema, `${method.toUpperCase()} ${path}`, new Set()));
					}
				}
			}
			expect(bodies).toBeGreaterThan(3);
			expect(open).toEqual([]);
		},
	);
});
