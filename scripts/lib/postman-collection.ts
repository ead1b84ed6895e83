/**
 * A Postman collection (format v2.1) from the OpenAPI document: one request per operation, grouped
 * in folders by tag, with the bearer key as the collection variable `{{api_key}}`, the origin as
 * `{{base_url}}`, path and query parameters from the document's examples, and each JSON request
 * body the document's own example (`exampleOfBody`), never one made up here.
 *
 * Pure, without Node or workerd APIs: `npm run postman:generate` writes it, and the tests read it.
 */
import { z } from "zod";
import { exampleOf, exampleOfBody, type SchemaComponents } from "./openapi-examples.ts";

/** Postman's JSON Schema for the format, which `info.schema` names. */
export const POSTMAN_SCHEMA_URL = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
/** The origin the collection's `base_url` holds until the serving worker puts its own. */
export const POSTMAN_DEFAULT_BASE_URL = "http://localhost:8787";

type KeyValue = { key: string; value?: string; description?: string; disabled?: boolean };
type PostmanAuth =
	| { type: "bearer"; bearer: Array<{ key: "token"; value: string; type: "string" }> }
	| { type: "noauth" };
type PostmanBody =
	| { mode: "raw"; raw: string; options: { raw: { language: "json" | "text" } } }
	| { mode: "file"; file: { src: null } };

/** One request of the collection. */
export type PostmanRequestItem = {
	name: string;
	request: {
		method: string;
		description?: string;
		auth?: PostmanAuth;
		header: KeyValue[];
		url: { raw: string; host: string[]; path: string[]; variable?: KeyValue[]; query?: KeyValue[] };
		body?: PostmanBody;
	};
};

/** A folder: the operations of one tag. */
export type PostmanFolder = { name: string; description?: string; item: PostmanRequestItem[] };

/** A Postman collection, v2.1. */
export type PostmanCollection = {
	info: { name: string; description: string; version: string; schema: typeof POSTMAN_SCHEMA_URL };
	auth: PostmanAuth;
	variable: Array<{ key: string; value: string; type: "string"; description: string }>;
	item: PostmanFolder[];
};

const ParameterSchema = z.looseObject({
	name: z.string(),
	in: z.string(),
	required: z.boolean().optional(),
	description: z.string().optional(),
	example: z.unknown().optional(),
	schema: z.unknown().optional(),
});
type Parameter = z.infer<typeof ParameterSchema>;
const MediaTypeSchema = z.looseObject({ schema: z.unknown().optional(), example: z.unknown().optional() });
const OperationSchema = z.looseObject({
	operationId: z.string().optional(),
	summary: z.string().optional(),
	description: z.string().optional(),
	tags: z.array(z.string()).optional(),
	security: z.array(z.unknown()).optional(),
	parameters: z.array(ParameterSchema).optional(),
	requestBody: z.looseObject({ content: z.record(z.string(), MediaTypeSchema).optional() }).optional(),
});
type Operation = z.infer<typeof OperationSchema>;

/** The parts of an OpenAPI 3.1 document the collection is made from, parsed from the document's JSON. */
export const OpenApiSourceSchema = z.looseObject({
	info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
	tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).optional(),
	paths: z.record(z.string(), z.record(z.string(), OperationSchema)),
	components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type OpenApiSource = z.infer<typeof OpenApiSourceSchema>;

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/** A parameter's example (its own, else its schema's) as Postman's text, or nothing when it has none. */
function parameterValue(parameter: Parameter, components: SchemaComponents): string | undefined {
	const example = parameter.example ?? exampleOf(parameter.schema, components);
	if (example === undefined || example === null) return undefined;
	return typeof example === "string" ? example : JSON.stringify(example);
}

function keyValue(parameter: Parameter, components: SchemaComponents, disabled: boolean): KeyValue {
	const value = parameterValue(parameter, components);
	return {
		key: parameter.name,
		...(value === undefined ? {} : { value }),
		...(parameter.description === undefined ? {} : { description: parameter.description }),
		...(disabled ? { disabled: true } : {}),
	};
}

/** The request body: the JSON example, a text example (CSV), or a file to pick for binary uploads. */
function bodyOf(
	operation: Operation,
	components: SchemaComponents,
): { body: PostmanBody; contentType: string } | undefined {
	const content = operation.requestBody?.content ?? {};
	const json = content["application/json"];
	if (json !== undefined) {
		const example = exampleOfBody(json, components);
		if (example === undefined) throw new Error(`${operation.operationId ?? "an operation"} has no body example`);
		return {
			body: { mode: "raw", raw: JSON.stringify(example, null, 2), options: { raw: { language: "json" } } },
			contentType: "application/json",
		};
	}
	const [contentType, media] = Object.entries(content)[0] ?? [];
	if (contentType === undefined || media === undefined) return undefined;
	const example = exampleOfBody(media, components);
	if (typeof example === "string") {
		return { body: { mode: "raw", raw: example, options: { raw: { language: "text" } } }, contentType };
	}
	return { body: { mode: "file", file: { src: null } }, contentType };
}

function requestOf(path: string, method: string, operation: Operation, components: SchemaComponents) {
	const parameters = operation.parameters ?? [];
	const segments = path
		.split("/")
		.filter((segment) => segment !== "")
		.map((segment) => segment.replace(/^\{(.+)\}$/, ":$1"));
	const variable = parameters.filter((p) => p.in === "path").map((p) => keyValue(p, components, false));
	const query = parameters.filter((p) => p.in === "query").map((p) => keyValue(p, components, p.required !== true));
	const enabledQuery = query
		.filter((entry) => entry.disabled !== true)
		.map((entry) => `${entry.key}=${entry.value ?? ""}`);
	const raw = `{{base_url}}/${segments.join("/")}${enabledQuery.length > 0 ? `?${enabledQuery.join("&")}` : ""}`;
	const body = bodyOf(operation, components);
	const item: PostmanRequestItem = {
		name: operation.summary ?? `${method.toUpperCase()} ${path}`,
		request: {
			method: method.toUpperCase(),
			...(operation.description === undefined ? {} : { description: operation.description }),
			// Public operations (health, the signed upload) send no key.
			...((operation.security ?? []).length === 0 ? { auth: { type: "noauth" } } : {}),
			header: body === undefined ? [] : [{ key: "Content-Type", value: body.contentType }],
			url: {
				raw,
				host: ["{{base_url}}"],
				path: segments,
				...(variable.length > 0 ? { variable } : {}),
				...(query.length > 0 ? { query } : {}),
			},
			...(body === undefined ? {} : { body: body.body }),
		},
	};
	return item;
}

/** The collection for `document`: a folder per tag, in the document's tag order. */
export function postmanCollection(document: OpenApiSource): PostmanCollection {
	const components = document.components?.schemas ?? {};
	const folders = new Map<string, PostmanFolder>(
		(document.tags ?? []).map((tag) => [
			tag.name,
			{ name: tag.name, ...(tag.description === undefined ? {} : { description: tag.description }), item: [] },
		]),
	);
	for (const [path, operations] of Object.entries(document.paths)) {
		for (const [method, operation] of Object.entries(operations)) {
			if (!HTTP_METHODS.has(method)) continue;
			const tag = operation.tags?.[0] ?? "Other";
			const folder = folders.get(tag) ?? { name: tag, item: [] };
			folders.set(tag, folder);
			folder.item.push(requestOf(path, method, operation, components));
		}
	}
	return {
		info: {
			name: document.info.title,
			description: document.info.description ?? "",
			version: document.info.version,
			schema: POSTMAN_SCHEMA_URL,
		},
		auth: { type: "bearer", bearer: [{ key: "token", value: "{{api_key}}", type: "string" }] },
		variable: [
			{
				key: "base_url",
				value: POSTMAN_DEFAULT_BASE_URL,
				type: "string",
				description: "The service's origin, without /v1.",
			},
			{
				key: "api_key",
				value: "",
				type: "string",
				description: "Your API key, fps_test_... or fps_live_...; sent as Authorization: Bearer.",
			},
		],
		item: [...folders.values()].filter((folder) => folder.item.length > 0),
	};
}
