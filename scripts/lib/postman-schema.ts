/**
 * A response schema of the OpenAPI document as a test script in a Postman collection can check it:
 * self-contained, every `$ref` to `components.schemas` replaced by the schema it names, and only the
 * keywords that validate kept. Postman's `pm.response.to.have.jsonSchema` runs Ajv 6 (JSON Schema
 * draft-07), which cannot follow a reference out of the test's own text and knows none of
 * OpenAPI's `example`; descriptions and examples would also make every test script kilobytes longer.
 *
 * Pure, without Node or workerd APIs: the collection's generator and the tests share it.
 */
import type { SchemaComponents } from "./openapi-examples.ts";

/** The keywords the document's schemas use that constrain a value; anything else is documentation. */
const VALIDATING_KEYWORDS = new Set([
	"type",
	"enum",
	"const",
	"properties",
	"required",
	"additionalProperties",
	"items",
	"minItems",
	"maxItems",
	"minLength",
	"maxLength",
	"minimum",
	"maximum",
	"exclusiveMinimum",
	"exclusiveMaximum",
	"pattern",
	"format",
	"maxProperties",
	"minProperties",
	"propertyNames",
	"allOf",
	"anyOf",
	"oneOf",
	"not",
]);

/** Keywords whose value is a map of names to schemas (each name kept, each schema checked). */
const SCHEMA_MAPS = new Set(["properties"]);
/** Formats Ajv 6 knows; another would make it throw instead of validate. */
const AJV6_FORMATS = new Set(["date", "time", "date-time", "uri", "uri-reference", "email", "hostname", "uuid"]);
const COMPONENT_PREFIX = "#/components/schemas/";

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function resolved(schema: unknown, components: SchemaComponents, path: readonly string[]): unknown {
	if (Array.isArray(schema)) return schema.map((entry) => resolved(entry, components, path));
	if (!isObject(schema)) return schema;
	const ref = schema.$ref;
	if (typeof ref === "string") {
		if (!ref.startsWith(COMPONENT_PREFIX)) throw new Error(`cannot resolve ${ref}`);
		const name = ref.slice(COMPONENT_PREFIX.length);
		// A schema that contains itself cannot be written out; the document has none.
		if (path.includes(name)) throw new Error(`${[...path, name].join(" → ")} refers to itself`);
		if (!(name in components)) throw new Error(`no component ${name}`);
		return resolved(components[name], components, [...path, name]);
	}
	const kept: Record<string, unknown> = {};
	for (const [keyword, value] of Object.entries(schema)) {
		if (!VALIDATING_KEYWORDS.has(keyword)) continue;
		if (keyword === "format" && !(typeof value === "string" && AJV6_FORMATS.has(value))) continue;
		kept[keyword] =
			SCHEMA_MAPS.has(keyword) && isObject(value)
				? Object.fromEntries(Object.entries(value).map(([name, entry]) => [name, resolved(entry, components, path)]))
				: resolved(value, components, path);
	}
	return kept;
}

/** `schema` with every reference written out and only its validating keywords, for a test script. */
export function standaloneSchema(schema: unknown, components: SchemaComponents): unknown {
	return resolved(schema, components, []);
}
