/**
 * Request schemas described as inputs. A request property with a zod `.default()` is optional to send
 * (zod's input: left out of `required`), and the document says so; but code generators read a
 * `default` keyword as "always present", as it is in a response: openapi-typescript, on its default
 * settings, types every property that has a `default` as required unless the schema is written
 * inline under a `requestBody`, and the document's request schemas are named components
 * (`OrderItemInput`, `QuoteItemInput`) referred to by `$ref`. So in a component that only requests
 * use, a defaulted property that is not required says its default in its description ("Default 1.",
 * as `mat_border_in` says its own) instead of in a `default` keyword. The service applies the
 * default exactly as before; only the document's wording moves.
 *
 * A component that responses or webhooks also use keeps its `default`s: there a default means the
 * property is always present (none has one today; test/cli/typed-client.test.ts generates the types
 * on openapi-typescript's default settings and type-checks the documented request).
 */
import { componentsReachedFrom, isJsonObject, type JsonObject } from "./audiences.ts";

/** The operations of paths or webhooks, each as a JSON object. */
function operationsOf(items: unknown): JsonObject[] {
	if (!isJsonObject(items)) return [];
	return Object.values(items).flatMap((item: unknown) =>
		Object.values(isJsonObject(item) ? item : {}).filter(isJsonObject),
	);
}

/** A schema with its defaulted, optional properties' defaults moved into their descriptions (nested ones too). */
function asInput(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(asInput);
	if (!isJsonObject(schema) || "$ref" in schema) return schema;
	const required = Array.isArray(schema.required) ? schema.required : [];
	const result: JsonObject = {};
	for (const [key, value] of Object.entries(schema)) {
		if (key === "properties" && isJsonObject(value)) {
			result[key] = Object.fromEntries(
				Object.entries(value).map(([name, property]) => {
					const input = asInput(property);
					if (!isJsonObject(input) || !("default" in input) || required.includes(name)) return [name, input];
					const { default: fallback, description, ...rest } = input;
					const said = `Default ${JSON.stringify(fallback)}.`;
					return [name, { ...rest, description: typeof description === "string" ? `${description} ${said}` : said }];
				}),
			);
		} else if (key === "items" || key === "anyOf" || key === "oneOf" || key === "allOf") {
			result[key] = asInput(value);
		} else {
			result[key] = value;
		}
	}
	return result;
}

/** The document with its request-only component schemas described as inputs (see the file's comment). */
export function requestSchemasAsInputs<T extends { paths?: object; webhooks?: object; components?: object }>(
	document: T,
): T {
	const components = isJsonObject(document.components) ? document.components : {};
	const schemas = components.schemas;
	if (!isJsonObject(schemas)) return document;
	const operations = operationsOf(document.paths);
	const requests = operations.flatMap((operation) => [operation.requestBody, operation.parameters]);
	// What the service sends: responses, and the webhooks' bodies (a webhook's request is the service's output).
	const outputs = [...operations.map((operation) => operation.responses), document.webhooks];
	const sentToo = componentsReachedFrom(components, outputs);
	const requestOnly = [...componentsReachedFrom(components, requests)].filter((name) => !sentToo.has(name));
	const described = { ...schemas };
	for (const reference of requestOnly) {
		const [kind, name] = reference.split("/");
		if (kind === "schemas" && name !== undefined && name in described) described[name] = asInput(described[name]);
	}
	return { ...document, components: { ...components, schemas: described } };
}
