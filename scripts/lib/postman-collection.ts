/**
 * Postman collections (format v2.1) from the OpenAPI documents, one per audience: the partner's
 * (scripts/lib/postman-rehearsal.ts: a run that carries ids from one request to the next), the
 * production floor's and the service team's (here: one request per operation, in folders by tag).
 * Every request's URL is `{{base_url}}` and the document's path, its JSON body the document's own
 * example (`exampleOfBody`, never one made up here) or that example with the ids a run carries, and
 * its test script checks the status the document gives it.
 *
 * Pure, without Node or workerd APIs: `npm run postman:generate` writes them, and the tests read them.
 */
import { z } from "zod";
import { exampleOf, exampleOfBody, type SchemaComponents } from "./openapi-examples.ts";
import { standaloneSchema } from "./postman-schema.ts";

/** Postman's JSON Schema for the format, which `info.schema` names. */
export const POSTMAN_SCHEMA_URL = "https://schema.getpostman.com/json/collection/v2.1.0/collection.json";
/** The origin the collection's `base_url` holds until the serving worker puts its own. */
export const POSTMAN_DEFAULT_BASE_URL = "http://localhost:8787";

type KeyValue = { key: string; value?: string; description?: string; disabled?: boolean };
export type PostmanAuth =
	| { type: "bearer"; bearer: Array<{ key: "token"; value: string; type: "string" }> }
	| { type: "noauth" };
export type PostmanBody =
	| { mode: "raw"; raw: string; options: { raw: { language: "json" | "text" } } }
	| { mode: "file"; file: { src: string | null } };
/** A script Postman runs before a request is sent (`prerequest`) or after its answer (`test`). */
export type PostmanEvent = { listen: "prerequest" | "test"; script: { type: "text/javascript"; exec: string[] } };
type PostmanUrl = { raw: string; host: string[]; path: string[]; variable?: KeyValue[]; query?: KeyValue[] };

/** One request of a collection. */
export type PostmanRequestItem = {
	name: string;
	request: {
		method: string;
		description?: string;
		auth?: PostmanAuth;
		header: KeyValue[];
		/** A URL an earlier answer gave (the upload URL) is a plain `{{variable}}`, resolved as a whole. */
		url: PostmanUrl | string;
		body?: PostmanBody;
	};
	event: PostmanEvent[];
};

/** A folder: the operations of one tag, or one stage of the partner's run. */
export type PostmanFolder = { name: string; description?: string; item: PostmanRequestItem[] };

/** A collection variable: an origin, a key, or an id one request leaves for the next. */
export type PostmanVariable = { key: string; value: string; type: "string"; description: string };

/** A Postman collection, v2.1. */
export type PostmanCollection = {
	info: { name: string; description: string; version: string; schema: typeof POSTMAN_SCHEMA_URL };
	auth: PostmanAuth;
	variable: PostmanVariable[];
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
	responses: z
		.record(z.string(), z.looseObject({ content: z.record(z.string(), MediaTypeSchema).optional() }))
		.optional(),
});
export type Operation = z.infer<typeof OperationSchema>;

/** The parts of an OpenAPI 3.1 document the collections are made from, parsed from the document's JSON. */
export const OpenApiSourceSchema = z.looseObject({
	info: z.looseObject({ title: z.string(), version: z.string(), description: z.string().optional() }),
	tags: z.array(z.looseObject({ name: z.string(), description: z.string().optional() })).optional(),
	paths: z.record(z.string(), z.record(z.string(), OperationSchema)),
	components: z.looseObject({ schemas: z.record(z.string(), z.unknown()).optional() }).optional(),
});
export type OpenApiSource = z.infer<typeof OpenApiSourceSchema>;

/** One operation of a document: `method` in lower case, as the document keys it. */
export type OperationOf = { path: string; method: string; operation: Operation };

const HTTP_METHODS = new Set(["get", "put", "post", "delete", "patch", "head", "options"]);

/** Every operation of `document`, in the document's order. */
export function operationsOf(document: OpenApiSource): OperationOf[] {
	return Object.entries(document.paths).flatMap(([path, operations]) =>
		Object.entries(operations)
			.filter(([method]) => HTTP_METHODS.has(method))
			.map(([method, operation]) => ({ path, method, operation })),
	);
}

/** `POST /v1/orders`: how the collections and their tests name an operation. */
export function operationName({ method, path }: { method: string; path: string }): string {
	return `${method.toUpperCase()} ${path}`;
}

/** The operation's success statuses, as the document lists them. */
export function successStatuses(operation: Operation): number[] {
	return Object.keys(operation.responses ?? {})
		.filter((status) => /^2\d\d$/.test(status))
		.map(Number);
}

/** A parameter's example (its own, else its schema's) as Postman's text, or nothing when it has none. */
export function parameterExample(parameter: Parameter, components: SchemaComponents): string | undefined {
	const example = parameter.example ?? exampleOf(parameter.schema, components);
	if (example === undefined || example === null) return undefined;
	return typeof example === "string" ? example : JSON.stringify(example);
}

/** The request body's example: the JSON one (parsed), a text one (CSV), or nothing for a binary upload. */
export function bodyExampleOf(
	operation: Operation,
	components: SchemaComponents,
): { contentType: string; json?: unknown; text?: string } | undefined {
	const content = operation.requestBody?.content ?? {};
	const json = content["application/json"];
	if (json !== undefined) {
		const example = exampleOfBody(json, components);
		if (example === undefined) throw new Error(`${operation.operationId ?? "an operation"} has no body example`);
		return { contentType: "application/json", json: example };
	}
	const [contentType, media] = Object.entries(content)[0] ?? [];
	if (contentType === undefined || media === undefined) return undefined;
	const example = exampleOfBody(media, components);
	return typeof example === "string" ? { contentType, text: example } : { contentType };
}

/** How a request differs from the document's plain example of its operation. */
export type RequestShape = {
	name?: string;
	/** Path parameter → its value in the request, a `{{variable}}` or text; else the parameter's example. */
	pathValues?: Readonly<Record<string, string>>;
	/** Query parameters sent, by name (the others stay listed, disabled); else the required ones. */
	queryValues?: Readonly<Record<string, string>>;
	/** The JSON body to send instead of the document's example. */
	json?: unknown;
	/** The file sent as the body of a binary upload, by its path from the run's working directory. */
	file?: string;
	/** The URL as a whole, when an earlier answer gave it. */
	url?: string;
	/** Headers beside the body's Content-Type. */
	headers?: KeyValue[];
	events: PostmanEvent[];
};

function urlOf(path: string, operation: Operation, components: SchemaComponents, shape: RequestShape): PostmanUrl {
	const parameters = operation.parameters ?? [];
	const segments = path
		.split("/")
		.filter((segment) => segment !== "")
		.map((segment) => segment.replace(/^\{(.+)\}$/, ":$1"));
	const variable = parameters
		.filter((parameter) => parameter.in === "path")
		.map((parameter): KeyValue => {
			const value = shape.pathValues?.[parameter.name] ?? parameterExample(parameter, components);
			return {
				key: parameter.name,
				...(value === undefined ? {} : { value }),
				...(parameter.description === undefined ? {} : { description: parameter.description }),
			};
		});
	const query = parameters
		.filter((parameter) => parameter.in === "query")
		.map((parameter): KeyValue => {
			const chosen = shape.queryValues?.[parameter.name];
			const value = chosen ?? parameterExample(parameter, components);
			const sent = shape.queryValues === undefined ? parameter.required === true : chosen !== undefined;
			return {
				key: parameter.name,
				...(value === undefined ? {} : { value }),
				...(parameter.description === undefined ? {} : { description: parameter.description }),
				...(sent ? {} : { disabled: true }),
			};
		});
	const enabledQuery = query
		.filter((entry) => entry.disabled !== true)
		.map((entry) => `${entry.key}=${entry.value ?? ""}`);
	return {
		raw: `{{base_url}}/${segments.join("/")}${enabledQuery.length > 0 ? `?${enabledQuery.join("&")}` : ""}`,
		host: ["{{base_url}}"],
		path: segments,
		...(variable.length > 0 ? { variable } : {}),
		...(query.length > 0 ? { query } : {}),
	};
}

function bodyOf(
	operation: Operation,
	components: SchemaComponents,
	shape: RequestShape,
): { body: PostmanBody; contentType: string } | undefined {
	const example = bodyExampleOf(operation, components);
	if (example === undefined) return undefined;
	const { contentType } = example;
	if (example.json !== undefined) {
		const raw = JSON.stringify(shape.json ?? example.json, null, 2);
		return { body: { mode: "raw", raw, options: { raw: { language: "json" } } }, contentType };
	}
	if (example.text !== undefined) {
		return { body: { mode: "raw", raw: example.text, options: { raw: { language: "text" } } }, contentType };
	}
	return { body: { mode: "file", file: { src: shape.file ?? null } }, contentType };
}

/** The request for one operation, shaped by `shape`. */
export function requestOf(
	{ path, method, operation }: OperationOf,
	components: SchemaComponents,
	shape: RequestShape,
): PostmanRequestItem {
	const body = bodyOf(operation, components, shape);
	const headers = [
		...(body === undefined ? [] : [{ key: "Content-Type", value: body.contentType }]),
		...(shape.headers ?? []),
	];
	return {
		name: shape.name ?? operation.summary ?? operationName({ method, path }),
		request: {
			method: method.toUpperCase(),
			...(operation.description === undefined ? {} : { description: operation.description }),
			// Public operations (health, the signed upload) send no key.
			...((operation.security ?? []).length === 0 ? { auth: { type: "noauth" } } : {}),
			header: headers,
			url: shape.url ?? urlOf(path, operation, components, shape),
			...(body === undefined ? {} : { body: body.body }),
		},
		event: shape.events,
	};
}

/** A script of `lines`, run before the request is sent or after its answer. */
export function scriptEvent(listen: PostmanEvent["listen"], lines: string[]): PostmanEvent {
	return { listen, script: { type: "text/javascript", exec: lines } };
}

/** The test lines that check the answer's status is one of `statuses`; a failure quotes the answer (an error says why). */
export function statusTest(statuses: readonly number[]): string[] {
	return [
		`pm.test("answers ${statuses.join(" or ")}", function () {`,
		`\tpm.expect(pm.response.code, pm.response.text().slice(0, 500)).to.be.oneOf(${JSON.stringify(statuses)});`,
		"});",
	];
}

/**
 * The test lines that check a JSON answer of `status` against the document's schema for it, written
 * out in the script (`postman-schema.ts`), or none when that answer is not JSON.
 */
export function schemaTest(operation: Operation, status: number, components: SchemaComponents): string[] {
	const schema = operation.responses?.[String(status)]?.content?.["application/json"]?.schema;
	if (schema === undefined) return [];
	return [
		`const schema = ${JSON.stringify(standaloneSchema(schema, components))};`,
		`pm.test("its body has the document's shape for ${status}", function () {`,
		"\tpm.response.to.have.jsonSchema(schema);",
		"});",
	];
}

/** The test lines that check a binary answer's Content-Type. */
export function contentTypeTest(operation: Operation, status: number): string[] {
	const types = Object.keys(operation.responses?.[String(status)]?.content ?? {});
	const [only] = types;
	if (types.length !== 1 || only === undefined || only === "application/json") return [];
	return [
		`pm.test("answers ${only}", function () {`,
		`\tpm.expect(pm.response.headers.get("Content-Type")).to.match(/^${only.replace("/", "\\/")}/);`,
		"});",
	];
}

/** The collection's bearer key, from the variable `key`. */
export function bearerAuth(key: string): PostmanAuth {
	return { type: "bearer", bearer: [{ key: "token", value: `{{${key}}}`, type: "string" }] };
}

/** The `base_url` variable. */
export const BASE_URL_VARIABLE: PostmanVariable = {
	key: "base_url",
	value: POSTMAN_DEFAULT_BASE_URL,
	type: "string",
	description: "The service's origin, without /v1.",
};

/** The `info` of a collection made from `document`, its description the document's own and `more`. */
export function infoOf(document: OpenApiSource, more: string): PostmanCollection["info"] {
	const description = document.info.description ?? "";
	return {
		name: document.info.title,
		description: more === "" ? description : `${description}\n\n${more}`,
		version: document.info.version,
		schema: POSTMAN_SCHEMA_URL,
	};
}
