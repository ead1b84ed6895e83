/**
 * The document's examples, as the reference page and the Postman collection show them: every
 * schema and body composes to a realistic example (no "string" placeholder, no empty string, one
 * file field per item) that validates against its own schema.
 */
import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import { exampleOf, exampleOfBody, resolveSchema, type SchemaComponents } from "../../scripts/lib/openapi-examples.ts";
import { AUDIENCE_DOCUMENTS } from "../../src/openapi/audiences.ts";
import { OPENAPI_PATH } from "../../src/openapi/document.ts";
import { api } from "../helpers.ts";

type MediaTypes = Record<string, { schema?: unknown; example?: unknown }>;
type Operation = { requestBody?: { content: MediaTypes }; responses?: Record<string, { content?: MediaTypes }> };
type OpenApiDocument = {
	paths: Record<string, Record<string, Operation>>;
	webhooks: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, unknown> };
};

async function fetchOne(path: string): Promise<OpenApiDocument> {
	const response = await api(path);
	expect(response.status).toBe(200);
	return (await response.json()) as OpenApiDocument;
}

/** The served documents as one (the partner's with the floor's and the service team's paths and schemas), so every example is checked. */
async function fetchDocument(): Promise<OpenApiDocument> {
	const partner = await fetchOne(OPENAPI_PATH);
	for (const { path } of [AUDIENCE_DOCUMENTS.ops, AUDIENCE_DOCUMENTS.admin]) {
		const other = await fetchOne(path);
		partner.paths = { ...partner.paths, ...other.paths };
		partner.components.schemas = { ...partner.components.schemas, ...other.components.schemas };
	}
	return partner;
}

type JsonBody = { at: string; schema: unknown; media: { schema?: unknown; example?: unknown } };

/** Every JSON body the document describes, inline or by reference, named for the message. */
function jsonBodies(document: OpenApiDocument): JsonBody[] {
	const bodies: JsonBody[] = [];
	const add = (at: string, content: MediaTypes | undefined) => {
		const media = content?.["application/json"];
		if (media?.schema !== undefined) bodies.push({ at, schema: media.schema, media });
	};
	for (const [group, items] of [
		["paths", document.paths],
		["webhooks", document.webhooks],
	] as const) {
		for (const [path, item] of Object.entries(items)) {
			for (const [method, operation] of Object.entries(item)) {
				add(`${group} ${method.toUpperCase()} ${path} request`, operation.requestBody?.content);
				for (const [status, response] of Object.entries(operation.responses ?? {})) {
					add(`${group} ${method.toUpperCase()} ${path} ${status}`, response.content);
				}
			}
		}
	}
	return bodies;
}

const FILE_FIELDS = ["print_file_id", "print_file_url"] as const;
/**
 * Schemas whose example is given elsewhere: the price book's (its seed lives beside it in code that
 * the schema's module cannot import; the publish route's body carries it), the landed-cost table's
 * (a table keyed by country, shortened to two destinations on its routes) and the error envelope's
 * (the error catalog's change gives it its examples).
 */
const COMPOSED_ELSEWHERE = new Set([
	"PriceBook",
	"PriceBookBody",
	"LandedCostTable",
	"LandedCostTablePublication",
	"Error",
]);
/** Keywords only a schema has: a node holding one of them and an `example` is a schema with its example. */
const SCHEMA_KEYWORDS = ["type", "$ref", "properties", "anyOf", "oneOf", "allOf", "enum"] as const;

/** What is wrong with an example value: a placeholder, an empty string, an item with both file fields. */
function valueProblems(value: unknown, at: string): string[] {
	if (value === "string") return [`${at}: the placeholder "string"`];
	if (value === "") return [`${at}: an empty string`];
	if (Array.isArray(value)) return value.flatMap((entry, index) => valueProblems(entry, `${at}[${index}]`));
	if (typeof value !== "object" || value === null) return [];
	const problems = FILE_FIELDS.every((field) => field in value) ? [`${at}: both ${FILE_FIELDS.join(" and ")}`] : [];
	return [...problems, ...Object.entries(value).flatMap(([name, entry]) => valueProblems(entry, `${at}.${name}`))];
}

/**
 * What a reader would see as a placeholder in `schema`'s composed example: each string reached
 * without an example of its own or of an enclosing schema, and each example value that
 * `valueProblems` refuses. Referenced schemas are checked once, under their own name.
 */
function exampleProblems(schema: unknown, components: SchemaComponents, at: string, seen: Set<string>): string[] {
	if (typeof schema !== "object" || schema === null) return [];
	const node = schema as {
		$ref?: string;
		example?: unknown;
		default?: unknown;
		enum?: unknown[];
		const?: unknown;
		type?: string | string[];
		format?: string;
		properties?: Record<string, unknown>;
		items?: unknown;
		allOf?: unknown[];
		anyOf?: unknown[];
		oneOf?: unknown[];
	};
	if (node.$ref !== undefined) {
		if (seen.has(node.$ref)) return [];
		seen.add(node.$ref);
		return exampleProblems(resolveSchema(node, components), components, node.$ref, seen);
	}
	const given = "example" in node ? node.example : node.default;
	if (given !== undefined) return valueProblems(given, at);
	if (node.enum !== undefined || "const" in node) return [];
	const parts = [...(node.allOf ?? []), ...(node.anyOf ?? []), ...(node.oneOf ?? [])];
	const nested = [
		...parts.flatMap((part, index) => exampleProblems(part, components, `${at}|${index}`, seen)),
		...Object.entries(node.properties ?? {}).flatMap(([name, property]) =>
			exampleProblems(property, components, `${at}.${name}`, seen),
		),
		...(node.items === undefined ? [] : exampleProblems(node.items, components, `${at}[]`, seen)),
	];
	const types = Array.isArray(node.type) ? node.type : [node.type];
	const bareString = types.includes("string") && node.format !== "binary";
	return bareString ? [`${at}: a string with no example`, ...nested] : nested;
}

/** Calls `visit` with every object in `node`, depth first, with its JSON pointer. */
function visitObjects(node: unknown, at: string, visit: (object: Record<string, unknown>, at: string) => void): void {
	if (Array.isArray(node)) {
		for (const [index, entry] of node.entries()) visitObjects(entry, `${at}/${index}`, visit);
		return;
	}
	if (typeof node !== "object" || node === null) return;
	const object = node as Record<string, unknown>;
	visit(object, at);
	for (const [key, value] of Object.entries(object)) visitObjects(value, `${at}/${key}`, visit);
}

/** Checks `example` against `schema`, with the document's components beside it for `$ref`s. */
function validationErrors(schema: unknown, example: unknown, document: OpenApiDocument): string[] {
	// The components only when the schema refers to them: the validator reads every one it is given, and
	// most examples are a string's or a number's beside a schema of a line.
	const refers = JSON.stringify(schema).includes('"$ref"');
	const root = (refers ? { ...(schema as object), components: document.components } : schema) as Schema;
	const result = new Validator(root, "2020-12", false).validate(example);
	return result.errors.map((error) => `${error.instanceLocation} ${error.error}`);
}

describe("the OpenAPI document's examples", () => {
	it('no example or default anywhere is the placeholder "string" or an empty string', async () => {
		const document = await fetchDocument();
		const problems: string[] = [];
		visitObjects(document, "#", (node, at) => {
			for (const key of ["example", "default"]) {
				const value = node[key];
				if (value === "string" || value === "") problems.push(`${at}/${key}`);
			}
		});
		expect(problems).toEqual([]);
	});

	it("every schema and JSON body composes to an example with a real value in every string", async () => {
		const document = await fetchDocument();
		const { schemas } = document.components;
		// The error envelope's schema belongs to the error catalog's work, which gives it its examples.
		const seen = new Set<string>(["#/components/schemas/Error"]);
		const problems = [
			...Object.keys(schemas).flatMap((name) =>
				exampleProblems({ $ref: `#/components/schemas/${name}` }, schemas, name, seen),
			),
			...jsonBodies(document).flatMap(({ at, schema }) => exampleProblems(schema, schemas, at, seen)),
		];
		expect(problems).toEqual([]);
	});

	it("every item example in a request names one print file field, never both", async () => {
		const document = await fetchDocument();
		const { schemas } = document.components;
		const requests = jsonBodies(document).filter(({ at }) => at.endsWith(" request"));
		const itemBodies = requests.filter(({ media }) =>
			JSON.stringify(exampleOfBody(media, schemas)).includes("print_file"),
		);
		expect(itemBodies.map(({ at }) => at)).toEqual(
			expect.arrayContaining(["paths POST /v1/orders request", "paths PATCH /v1/orders/{id}/items/{item_id} request"]),
		);
		for (const { at, media } of itemBodies) expect(valueProblems(exampleOfBody(media, schemas), at)).toEqual([]);
	});

	it("every example the document writes validates against the schema it is written on or beside", async () => {
		const document = await fetchDocument();
		const written: Array<{ at: string; schema: object; example: unknown }> = [];
		visitObjects(document, "#", (node, at) => {
			if (!("example" in node)) return;
			if (SCHEMA_KEYWORDS.some((keyword) => keyword in node)) written.push({ at, schema: node, example: node.example });
			// A body's or a parameter's own example, beside its schema.
			else if (typeof node.schema === "object" && node.schema !== null) {
				written.push({ at, schema: node.schema, example: node.example });
			}
		});
		expect(written.filter(({ at }) => at.endsWith("/content/application/json")).length).toBeGreaterThan(0);
		expect(written.length).toBeGreaterThan(150);
		const failures = written.flatMap(({ at, schema, example }) =>
			validationErrors(schema, example, document).map((error) => `${at}: ${error}`),
		);
		expect(failures).toEqual([]);
	});

	it("every request body and webhook body composes to an example that validates against its schema", async () => {
		const document = await fetchDocument();
		const { schemas } = document.components;
		const sent = jsonBodies(document).filter(({ at }) => at.endsWith(" request"));
		expect(sent.length).toBeGreaterThanOrEqual(18);
		const failures = sent.flatMap(({ at, schema, media }) => {
			const example = exampleOfBody(media, schemas);
			if (example === undefined) return [`${at}: no example`];
			return validationErrors(schema, example, document).map((error) => `${at}: ${error}`);
		});
		expect(failures).toEqual([]);
	});

	it("every schema composes to an example that validates against it, the price book's and the error envelope's aside", async () => {
		const document = await fetchDocument();
		const { schemas } = document.components;
		const names = Object.keys(schemas).filter((name) => !COMPOSED_ELSEWHERE.has(name));
		expect(names.length).toBeGreaterThan(45);
		const failures = names.flatMap((name) => {
			const schema = { $ref: `#/components/schemas/${name}` };
			const example = exampleOf(schema, schemas);
			return validationErrors(schema, example, document).map((error) => `${name}: ${error}`);
		});
		expect(failures).toEqual([]);
	});

	it("the ship-to example is a whole address: no empty address2, a real-looking street, city and postcode", async () => {
		const document = await fetchDocument();
		const shipTo = exampleOf({ $ref: "#/components/schemas/ShipTo" }, document.components.schemas) as Record<
			string,
			unknown
		>;
		expect(shipTo).toMatchObject({ name: expect.any(String), address1: expect.stringMatching(/\d+ \w+/) });
		expect(shipTo.address2 === undefined || String(shipTo.address2).length > 0).toBe(true);
		expect(Object.values(shipTo).every((value) => value !== "" && value !== "string")).toBe(true);
	});
});
