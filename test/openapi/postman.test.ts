/**
 * The Postman collections made from the OpenAPI documents (committed, and checked for drift by
 * `npm run postman:check`), as the worker serves them: the partner's rehearsal run at
 * GET /v1/postman.json, the floor's at GET /v1/ops/postman.json and the service team's at
 * GET /v1/admin/postman.json. test/cli/postman-collection.test.ts runs the partner's with newman.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleOfBody } from "../../scripts/lib/openapi-examples.ts";
import { POSTMAN_SCHEMA_URL } from "../../scripts/lib/postman-collection.ts";
import { editedBody } from "../../scripts/lib/postman-rehearsal.ts";
import { LEFT_OUT, REHEARSAL } from "../../scripts/lib/postman-rehearsal-steps.ts";
import { AUDIENCE_DOCUMENTS } from "../../src/openapi/audiences.ts";
import { OPENAPI_PATH, POSTMAN_COLLECTIONS, POSTMAN_PATH } from "../../src/openapi/document.ts";
import { api } from "../helpers.ts";

const KeyValue = z.strictObject({
	key: z.string().min(1),
	value: z.string().optional(),
	description: z.string().optional(),
	disabled: z.boolean().optional(),
});
const Auth = z.union([
	z.strictObject({
		type: z.literal("bearer"),
		bearer: z.array(z.strictObject({ key: z.literal("token"), value: z.string(), type: z.literal("string") })),
	}),
	z.strictObject({ type: z.literal("noauth") }),
]);
const Url = z.strictObject({
	raw: z.string().startsWith("{{base_url}}/v1/"),
	host: z.tuple([z.literal("{{base_url}}")]),
	path: z.array(z.string().min(1)),
	variable: z.array(KeyValue).optional(),
	query: z.array(KeyValue).optional(),
});
const Script = z.strictObject({
	listen: z.enum(["prerequest", "test"]),
	script: z.strictObject({ type: z.literal("text/javascript"), exec: z.array(z.string()).min(1) }),
});
const RequestItem = z.strictObject({
	name: z.string().min(1),
	request: z.strictObject({
		method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
		description: z.string().optional(),
		auth: Auth.optional(),
		header: z.array(KeyValue),
		// The upload's URL is the one an earlier answer gave, whole.
		url: z.union([Url, z.literal("{{upload_url}}")]),
		body: z
			.union([
				z.strictObject({
					mode: z.literal("raw"),
					raw: z.string().min(1),
					options: z.strictObject({ raw: z.strictObject({ language: z.enum(["json", "text"]) }) }),
				}),
				z.strictObject({ mode: z.literal("file"), file: z.strictObject({ src: z.string().nullable() }) }),
			])
			.optional(),
	}),
	event: z.array(Script).min(1),
});
type Request = z.infer<typeof RequestItem>;
/** The collection format v2.1 as far as this service writes it, closed to anything else. */
const Collection = z.strictObject({
	info: z.strictObject({
		name: z.string(),
		description: z.string(),
		version: z.string(),
		schema: z.literal(POSTMAN_SCHEMA_URL),
	}),
	auth: Auth,
	variable: z.array(
		z.strictObject({ key: z.string(), value: z.string(), type: z.literal("string"), description: z.string() }),
	),
	item: z.array(z.strictObject({ name: z.string(), description: z.string().optional(), item: z.array(RequestItem) })),
});

type MediaType = { schema?: unknown; example?: unknown };
type Operation = {
	requestBody?: { content: Record<string, MediaType> };
	security?: unknown[];
	responses?: Record<string, { content?: Record<string, MediaType> }>;
};
type OpenApiDocument = {
	info: { version: string; description: string };
	paths: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, unknown> };
};

/** `POST /v1/orders/{id}` for a request's method and URL path; the upload's is the signed upload's operation. */
function operationOf({ request }: Request): string {
	if (typeof request.url === "string") return "PUT /v1/uploads/{id}";
	return `${request.method} /${request.url.path.map((segment) => segment.replace(/^:(.+)$/, "{$1}")).join("/")}`;
}

function testScript(request: Request): string {
	return request.event
		.filter((event) => event.listen === "test")
		.flatMap((event) => event.script.exec)
		.join("\n");
}

/** A served collection and the document it was made from. */
async function fetchBoth(collectionPath = POSTMAN_PATH, documentPath = OPENAPI_PATH) {
	const served = await api(collectionPath);
	expect(served.status).toBe(200);
	expect(served.headers.get("Content-Type")).toMatch(/^application\/json/);
	const collection = Collection.parse(await served.json());
	const document = (await (await api(documentPath)).json()) as OpenApiDocument;
	const requests = collection.item.flatMap((folder) => folder.item);
	return { collection, document, requests };
}

function operationsIn(document: OpenApiDocument): string[] {
	return Object.entries(document.paths).flatMap(([path, item]) =>
		Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
	);
}

describe("GET /v1/postman.json", () => {
	it("is public, parses as a Postman v2.1 collection, and carries the document's version and introduction", async () => {
		const { collection, document } = await fetchBoth();
		expect(collection.info.version).toBe(document.info.version);
		expect(collection.info.description.startsWith(document.info.description)).toBe(true);
	});

	it("sends every partner operation but those its description names as left out, with why, and nothing else", async () => {
		const { collection, document, requests } = await fetchBoth();
		const operations = operationsIn(document);
		expect(operations.length).toBeGreaterThan(30);
		const sent = new Set(requests.map(operationOf));
		expect([...sent, ...Object.keys(LEFT_OUT)].sort()).toEqual(operations.sort());
		for (const [operation, why] of Object.entries(LEFT_OUT)) {
			expect(collection.info.description).toContain(`\`${operation}\`: ${why}`);
		}
	});

	it("runs the rehearsal's requests in its order, in a folder per stage", async () => {
		const { collection } = await fetchBoth();
		expect(collection.item.map((folder) => folder.item.map((request) => request.name))).toEqual(
			REHEARSAL.map((stage) => stage.steps.map((step) => step.name)),
		);
	});

	it("sends the key as a bearer token from {{api_key}}, none on public operations, and points at this origin as {{base_url}}", async () => {
		const { collection, document, requests } = await fetchBoth();
		expect(collection.auth).toEqual({
			type: "bearer",
			bearer: [{ key: "token", value: "{{api_key}}", type: "string" }],
		});
		expect(collection.variable.find((variable) => variable.key === "base_url")?.value).toBe("https://api.test");
		expect(collection.variable.map((variable) => variable.key).slice(0, 2)).toEqual(["base_url", "api_key"]);
		for (const request of requests) {
			const [method = "", path = ""] = operationOf(request).split(" ");
			const isPublic = (document.paths[path]?.[method.toLowerCase()]?.security ?? []).length === 0;
			expect(request.request.auth?.type, operationOf(request)).toBe(isPublic ? "noauth" : undefined);
		}
	});

	it("every JSON body is the document's own example for that operation, with the rehearsal's ids and edits", async () => {
		const { document, requests } = await fetchBoth();
		const steps = new Map(REHEARSAL.flatMap((stage) => stage.steps).map((step) => [step.name, step]));
		let compared = 0;
		for (const request of requests) {
			const [method = "", path = ""] = operationOf(request).split(" ");
			const media = document.paths[path]?.[method.toLowerCase()]?.requestBody?.content["application/json"];
			if (media === undefined) continue;
			const body = request.request.body;
			expect(body?.mode, request.name).toBe("raw");
			const raw = body?.mode === "raw" ? body.raw : "";
			const example = exampleOfBody(media, document.components.schemas);
			expect(JSON.parse(raw), request.name).toEqual(editedBody(example, steps.get(request.name)?.body));
			expect(request.request.header).toContainEqual({ key: "Content-Type", value: "application/json" });
			compared++;
		}
		expect(compared).toBeGreaterThanOrEqual(10);
	});

	it("takes each id from a collection variable an earlier request's script set", async () => {
		const { collection, requests } = await fetchBoth();
		const set = new Set(["base_url", "api_key"]);
		let carried = 0;
		for (const request of requests) {
			const scripts = request.event.map((event) => event.script.exec.join("\n"));
			for (const script of scripts.filter((_, index) => request.event[index]?.listen === "prerequest")) {
				for (const [, name] of script.matchAll(/collectionVariables\.set\("([a-z_]+)"/g)) set.add(name ?? "");
			}
			const text = JSON.stringify(request.request);
			for (const [, name] of text.matchAll(/\{\{([a-z_]+)\}\}/g)) {
				expect(set.has(name ?? ""), `${request.name} uses {{${name}}} before a request sets it`).toBe(true);
				carried++;
			}
			for (const script of scripts.filter((_, index) => request.event[index]?.listen === "test")) {
				for (const [, name] of script.matchAll(/collectionVariables\.set\("([a-z_]+)"/g)) set.add(name ?? "");
			}
		}
		expect(carried).toBeGreaterThan(20);
		expect(collection.variable.map((variable) => variable.key).sort()).toEqual([...set].sort());
	});

	it("checks the status of every request and the shape of every JSON answer against the document", async () => {
		const { document, requests } = await fetchBoth();
		const steps = new Map(REHEARSAL.flatMap((stage) => stage.steps).map((step) => [step.name, step]));
		for (const request of requests) {
			const status = steps.get(request.name)?.status;
			const [method = "", path = ""] = operationOf(request).split(" ");
			const answer = document.paths[path]?.[method.toLowerCase()]?.responses?.[String(status)];
			const script = testScript(request);
			expect(script, request.name).toContain(`.to.be.oneOf([${status}])`);
			expect(script.includes("pm.response.to.have.jsonSchema(schema)"), request.name).toBe(
				answer?.content?.["application/json"] !== undefined,
			);
		}
	});
});

describe("GET /v1/ops/postman.json and GET /v1/admin/postman.json", () => {
	for (const [audience, key] of [
		["ops", "ops_key"],
		["admin", "admin_key"],
	] as const) {
		it(`${audience}: one request per operation of its document, with {{${key}}} as the bearer key and a status test each`, async () => {
			const { collection, document, requests } = await fetchBoth(
				POSTMAN_COLLECTIONS[audience].path,
				AUDIENCE_DOCUMENTS[audience].path,
			);
			expect(collection.info.description.startsWith(document.info.description)).toBe(true);
			expect(collection.auth).toEqual({
				type: "bearer",
				bearer: [{ key: "token", value: `{{${key}}}`, type: "string" }],
			});
			expect(requests.map(operationOf).sort()).toEqual(operationsIn(document).sort());
			for (const request of requests) {
				expect(testScript(request), request.name).toContain("pm.response.code");
				for (const variable of typeof request.request.url === "string" ? [] : (request.request.url.variable ?? [])) {
					expect(variable.value, `${request.name} :${variable.key}`).toMatch(/^\S+$/);
				}
			}
			const variables = collection.variable.map((variable) => variable.key);
			expect(variables.slice(0, 2)).toEqual(["base_url", key]);
			expect(collection.variable.find((variable) => variable.key === "base_url")?.value).toBe("https://api.test");
		});
	}

	it("names each id after what it is (an order's {id} is {{order_id}}) and starts it at the document's example", async () => {
		const { collection, requests } = await fetchBoth(POSTMAN_COLLECTIONS.ops.path, AUDIENCE_DOCUMENTS.ops.path);
		const ship = requests.find((request) => operationOf(request) === "POST /v1/ops/orders/{id}/ship");
		const url = ship?.request.url;
		expect(typeof url === "string" ? undefined : url?.variable).toContainEqual(
			expect.objectContaining({ key: "id", value: "{{order_id}}" }),
		);
		expect(collection.variable.find((variable) => variable.key === "order_id")?.value).toBe("ord_3kq9");
	});
});
