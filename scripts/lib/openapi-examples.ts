/**
 * The example a reader of the OpenAPI document sees for a schema, composed as reference pages do:
 * the schema's own `example`, else its `examples`, `const`, `default` or first `enum` value, else
 * built from its parts (each property's example, one item of an array, the first branch of a
 * union). Nothing is invented: a value with no example anywhere stays out (`undefined`), so a
 * missing example shows as a missing field instead of a placeholder such as "string".
 *
 * Pure, without Node or workerd APIs: the Postman collection's generator and the tests share it.
 */

/** A JSON Schema node of the document, as far as composing an example reads it. */
type SchemaNode = {
	$ref?: string;
	example?: unknown;
	examples?: unknown[];
	const?: unknown;
	default?: unknown;
	enum?: unknown[];
	type?: string | string[];
	properties?: Record<string, unknown>;
	items?: unknown;
	allOf?: unknown[];
	anyOf?: unknown[];
	oneOf?: unknown[];
};

/** The document's `components.schemas`, by name. */
export type SchemaComponents = Readonly<Record<string, unknown>>;

const COMPONENT_PREFIX = "#/components/schemas/";

function isNode(value: unknown): value is SchemaNode {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a `$ref` names, or the node itself. */
export function resolveSchema(schema: unknown, components: SchemaComponents): unknown {
	if (!isNode(schema) || schema.$ref === undefined) return schema;
	if (!schema.$ref.startsWith(COMPONENT_PREFIX)) throw new Error(`cannot resolve ${schema.$ref}`);
	return resolveSchema(components[schema.$ref.slice(COMPONENT_PREFIX.length)], components);
}

function isNullSchema(schema: unknown): boolean {
	return isNode(schema) && schema.type === "null";
}

/** The example of a media type (a request or response body): its own `example`, else its schema's. */
export function exampleOfBody(
	media: { schema?: unknown; example?: unknown } | undefined,
	components: SchemaComponents,
): unknown {
	if (media === undefined) return undefined;
	return "example" in media ? media.example : exampleOf(media.schema, components);
}

/** The example of `schema`, or `undefined` when neither it nor its parts give one. */
export function exampleOf(schema: unknown, components: SchemaComponents): unknown {
	if (!isNode(schema)) return undefined;
	if (schema.$ref !== undefined) return exampleOf(resolveSchema(schema, components), components);
	if ("example" in schema) return schema.example;
	if (schema.examples !== undefined && schema.examples.length > 0) return schema.examples[0];
	if ("const" in schema) return schema.const;
	if (schema.default !== undefined) return schema.default;
	if (schema.enum !== undefined && schema.enum.length > 0) return schema.enum[0];
	if (schema.allOf !== undefined) {
		const parts = schema.allOf.map((part) => exampleOf(part, components));
		if (parts.length === 1) return parts[0];
		return Object.assign({}, ...parts.filter((part) => isNode(part)));
	}
	const branches = schema.anyOf ?? schema.oneOf;
	if (branches !== undefined) {
		const branch = branches.find((candidate) => !isNullSchema(candidate));
		return branch === undefined ? null : exampleOf(branch, components);
	}
	if (schema.properties !== undefined) {
		const entries = Object.entries(schema.properties).map(([name, property]) => [
			name,
			exampleOf(property, components),
		]);
		return Object.fromEntries(entries.filter(([, value]) => value !== undefined));
	}
	if (schema.items !== undefined) {
		const item = exampleOf(schema.items, components);
		return item === undefined ? undefined : [item];
	}
	return undefined;
}
