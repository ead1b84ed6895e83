/**
 * The documents checked against reality: every response the workers tests get from the API (through
 * `api()` in helpers.ts) is compared with what the served documents (the partner's `/v1/openapi.json`,
 * the floor's and the service team's) say of its operation. A status the
 * operation does not list, a JSON body its schema refuses (a field more or less, a wrong type or
 * format), a header the document names that this response does not list, or a listed header that
 * is missing, throws, and fails the test that made the request.
 */

import { exports } from "cloudflare:workers";
import { type Schema, Validator } from "@cfworker/json-schema";

type HeaderObject = { required?: boolean; schema?: Schema };
type ResponseObject = {
	headers?: Record<string, HeaderObject | { $ref: string }>;
	content?: Record<string, { schema?: Schema }>;
};
type Operation = { operationId?: string; responses: Record<string, ResponseObject> };
type OpenApiDocument = {
	paths: Record<string, Record<string, Operation>>;
	components: { schemas?: Record<string, Schema>; headers?: Record<string, HeaderObject> };
};

/** What of a request decides its operation. */
export type SentRequest = { method: string; url: string };

/** A documented path as a pattern; literal segments win over parameters when two match. */
type PathMatcher = { template: string; pattern: RegExp; parameters: number };

type Harness = { document: OpenApiDocument; matchers: PathMatcher[]; namedHeaders: Set<string> };

let harness: Promise<Harness> | null = null;
const validators = new Map<string, Validator>();

/** HTTP's own headers, and the platform's: not the API's to document. */
const GENERIC_HEADERS = new Set([
	"content-type",
	"content-length",
	"content-encoding",
	"content-disposition",
	"cache-control",
	"date",
	"vary",
	"connection",
	"transfer-encoding",
	"x-content-type-options",
	"content-security-policy",
	"x-frame-options",
	"referrer-policy",
	"cross-origin-resource-policy",
	"cross-origin-opener-policy",
	"strict-transport-security",
	"location",
	"set-cookie",
	// The cost tracer's, only under COST_TRACE=1 (the bench and the plan test), never in production.
	"x-cost",
]);

/** The served documents: the partner's, the production floor's and the service team's. */
const DOCUMENT_PATHS = ["/v1/openapi.json", "/v1/ops/openapi.json", "/v1/admin/openapi.json"];

/** The served documents as one: their paths side by side, and their components (each a subset of one registry's). */
async function load(): Promise<Harness> {
	const documents = await Promise.all(
		DOCUMENT_PATHS.map(async (path) => {
			const response = await exports.default.fetch(new Request(`https://api.test${path}`));
			return (await response.json()) as OpenApiDocument;
		}),
	);
	const document: OpenApiDocument = { paths: {}, components: {} };
	for (const part of documents) {
		document.paths = { ...document.paths, ...part.paths };
		document.components = {
			schemas: { ...document.components.schemas, ...part.components.schemas },
			headers: { ...document.components.headers, ...part.components.headers },
		};
	}
	const matchers = Object.keys(document.paths).map((template) => {
		const source = template.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{[^}]+\}/g, "[^/]+");
		return { template, pattern: new RegExp(`^${source}$`), parameters: (template.match(/\{/g) ?? []).length };
	});
	matchers.sort((a, b) => a.parameters - b.parameters);
	// Every header the document names on some response: one of them on a response that does not list it is undocumented.
	const namedHeaders = new Set<string>(
		Object.keys(document.components.headers ?? {}).map((name) => name.toLowerCase()),
	);
	for (const operations of Object.values(document.paths)) {
		for (const operation of Object.values(operations)) {
			for (const answer of Object.values(operation.responses ?? {})) {
				for (const name of Object.keys(answer.headers ?? {})) namedHeaders.add(name.toLowerCase());
			}
		}
	}
	return { document, matchers, namedHeaders };
}

/**
 * A copy of `schema` in which every object that lists its properties allows no others: the document
 * does not say `additionalProperties: false` (partners' clients should accept new fields), but the
 * service must not send a field the document does not name.
 */
function closed(schema: unknown): unknown {
	if (Array.isArray(schema)) return schema.map(closed);
	if (schema === null || typeof schema !== "object") return schema;
	const copy: Record<string, unknown> = {};
	for (const [key, value] of Object.entries(schema)) {
		copy[key] =
			key === "properties" && value !== null && typeof value === "object"
				? Object.fromEntries(Object.entries(value).map(([name, property]) => [name, closed(property)]))
				: key === "example" || key === "examples"
					? value
					: closed(value);
	}
	if ("properties" in copy && !("additionalProperties" in copy)) copy.unevaluatedProperties = false;
	return copy;
}

function validatorFor(key: string, schema: Schema, document: OpenApiDocument): Validator {
	let validator = validators.get(key);
	if (validator === undefined) {
		// The document's components beside the schema, so its `#/components/...` references resolve.
		const root = closed({ ...schema, components: document.components }) as Schema;
		validator = new Validator(root, "2020-12", false);
		validators.set(key, validator);
	}
	return validator;
}

function resolveHeader(document: OpenApiDocument, header: HeaderObject | { $ref: string }): HeaderObject {
	if (!("$ref" in header)) return header;
	const name = header.$ref.replace("#/components/headers/", "");
	return document.components.headers?.[name] ?? {};
}

/** Why `response` to `request` does not match the document, or [] when it does (or the route is not in it). */
export async function conformanceProblems(request: SentRequest, response: Response): Promise<string[]> {
	if (harness === null) harness = load();
	const { document, matchers, namedHeaders } = await harness;
	const url = new URL(request.url);
	const method = request.method.toLowerCase();
	const matched = matchers.find(
		({ template, pattern }) => pattern.test(url.pathname) && document.paths[template]?.[method],
	);
	if (matched === undefined) return [];
	const operation = document.paths[matched.template]?.[method];
	if (operation === undefined) return [];
	const where = `${request.method} ${matched.template} → ${response.status}`;
	const answer = operation.responses[String(response.status)] ?? operation.responses.default;
	if (answer === undefined) {
		return [`${where}: the status is not documented (documented: ${Object.keys(operation.responses).join(", ")})`];
	}
	const problems: string[] = [];
	const listed = new Map(
		Object.entries(answer.headers ?? {}).map(([name, header]) => [name.toLowerCase(), resolveHeader(document, header)]),
	);
	for (const [name, header] of listed) {
		if (header.required === true && !response.headers.has(name)) problems.push(`${where}: header ${name} is missing`);
	}
	for (const [name, value] of response.headers) {
		if (listed.has(name) || GENERIC_HEADERS.has(name)) continue;
		if (namedHeaders.has(name) || name.startsWith("x-") || name.startsWith("idempotent")) {
			problems.push(`${where}: header ${name} (${value}) is not documented on this response`);
		}
	}
	const contentType = response.headers.get("Content-Type")?.split(";")[0]?.trim() ?? null;
	const documentedTypes = Object.keys(answer.content ?? {});
	if (response.status === 204 || response.status === 304 || request.method === "HEAD") return problems;
	if (contentType === null) {
		if (documentedTypes.length > 0)
			problems.push(`${where}: no Content-Type, documented ${documentedTypes.join(", ")}`);
		return problems;
	}
	const media = answer.content?.[contentType];
	if (media === undefined) {
		problems.push(
			`${where}: Content-Type ${contentType} is not documented (documented: ${documentedTypes.join(", ")})`,
		);
		return problems;
	}
	if (contentType !== "application/json" || media.schema === undefined) return problems;
	const text = await response.clone().text();
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		return [...problems, `${where}: the body is not JSON: ${text.slice(0, 120)}`];
	}
	const result = validatorFor(`${method} ${matched.template} ${response.status}`, media.schema, document).validate(
		body,
	);
	if (!result.valid) {
		const details = result.errors
			.filter((error) => error.keyword !== "properties" && error.keyword !== "$ref" && error.keyword !== "allOf")
			.slice(0, 5)
			.map((error) => `${error.instanceLocation}: ${error.error}`);
		problems.push(`${where}: the body does not match the document: ${details.join("; ")}`);
	}
	return problems;
}

/** Throws when `response` does not match the document (see conformanceProblems). */
export async function expectConformance(request: SentRequest, response: Response): Promise<void> {
	const problems = await conformanceProblems(request, response);
	if (problems.length > 0) throw new Error(`Response does not match the OpenAPI document:\n${problems.join("\n")}`);
}
