/**
 * GET /v1/postman.json: the Postman collection made from the OpenAPI document (committed, and
 * checked for drift by `npm run postman:check`), as the worker serves it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { exampleOfBody } from "../../scripts/lib/openapi-examples.ts";
import { POSTMAN_SCHEMA_URL } from "../../scripts/lib/postman-collection.ts";
import { OPENAPI_PATH, POSTMAN_PATH } from "../../src/openapi/document.ts";
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
const RequestItem = z.strictObject({
	name: z.string().min(1),
	request: z.strictObject({
		method: z.enum(["GET", "POST", "PUT", "PATCH", "DELETE"]),
		description: z.string().optional(),
		auth: Auth.optional(),
		header: z.array(KeyValue),
		url: z.strictObject({
			raw: z.string().startsWith("{{base_url}}/v1/"),
			host: z.tuple([z.literal("{{base_url}}")]),
			path: z.array(z.string().min(1)),
			variable: z.array(KeyValue).optional(),
			query: z.array(KeyValue).optional(),
		}),
		body: z
			.union([
				z.strictObject({
					mode: z.literal("raw"),
					raw: z.string().min(1),
					options: z.strictObject({ raw: z.strictObject({ language: z.enum(["json", "text"]) }) }),
				}),
				z.strictObject({ mode: z.literal("file"), file: z.strictObject({ src: z.null() }) }),
			])
			.optional(),
	}),
});
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
type Operation = { requestBody?: { content: Record<string, MediaType> }; security?: unknown[] };
type OpenApiDocument = {
	info: { version: string; description: string };
	paths: Record<string, Record<string, Operation>>;
	components: { schemas: Record<string, unknown> };
};

async function fetchBoth() {
	const served = await api(POSTMAN_PATH);
	expect(served.status).toBe(200);
	expect(served.headers.get("Content-Type")).toMatch(/^application\/json/);
	const collection = Collection.parse(await served.json());
	const document = (await (await api(OPENAPI_PATH)).json()) as OpenApiDocument;
	const requests = collection.item.flatMap((folder) => folder.item);
	/** `POST /v1/orders/{id}` for a request's method and URL path. */
	const operationOf = ({ request }: z.infer<typeof RequestItem>) =>
		`${request.method} /${request.url.path.map((segment) => segment.replace(/^:(.+)$/, "{$1}")).join("/")}`;
	return { collection, document, requests, operationOf };
}

describe("GET /v1/postman.json", () => {
	it("is public, parses as a Postman v2.1 collection, and carries the document's version and introduction", async () => {
		const { collection, document } = await fetchBoth();
		expect(collection.info.version).toBe(document.info.version);
		expect(collection.info.description).toBe(document.info.description);
	});

	it("has exactly one request per operation of the document", async () => {
		const { document, requests, operationOf } = await fetchBoth();
		const operations = Object.entries(document.paths).flatMap(([path, item]) =>
			Object.keys(item).map((method) => `${method.toUpperCase()} ${path}`),
		);
		expect(operations.length).toBeGreaterThan(30);
		expect(requests.map(operationOf).sort()).toEqual(operations.sort());
	});

	it("sends the key as a bearer token from {{api_key}}, none on public operations, and points at this origin as {{base_url}}", async () => {
		const { collection, document, requests, operationOf } = await fetchBoth();
		expect(collection.auth).toEqual({
			type: "bearer",
			bearer: [{ key: "token", value: "{{api_key}}", type: "string" }],
		});
		expect(collection.variable.find((variable) => variable.key === "base_url")?.value).toBe("https://api.test");
		expect(collection.variable.map((variable) => variable.key).sort()).toEqual(["api_key", "base_url"]);
		for (const request of requests) {
			const [method = "", path = ""] = operationOf(request).split(" ");
			const isPublic = (document.paths[path]?.[method.toLowerCase()]?.security ?? []).length === 0;
			expect(request.request.auth?.type, operationOf(request)).toBe(isPublic ? "noauth" : undefined);
		}
	});

	it("every JSON body is the document's own example for that operation", async () => {
		const { document, requests, operationOf } = await fetchBoth();
		let compared = 0;
		for (const request of requests) {
			const [method = "", path = ""] = operationOf(request).split(" ");
			const media = document.paths[path]?.[method.toLowerCase()]?.requestBody?.content["application/json"];
			if (media === undefined) continue;
			const body = request.request.body;
			expect(body?.mode, operationOf(request)).toBe("raw");
			const raw = body?.mode === "raw" ? body.raw : "";
			expect(JSON.parse(raw), operationOf(request)).toEqual(exampleOfBody(media, document.components.schemas));
			expect(request.request.header).toContainEqual({ key: "Content-Type", value: "application/json" });
			compared++;
		}
		expect(compared).toBeGreaterThanOrEqual(10);
	});

	it("fills each path variable with the parameter's example, so a request reads as a real one", async () => {
		const { requests } = await fetchBoth();
		const order = requests.find((request) => request.request.url.raw === "{{base_url}}/v1/orders/:id");
		expect(order?.request.url.variable).toContainEqual(expect.objectContaining({ key: "id", value: "ord_3kq9" }));
		for (const request of requests) {
			for (const variable of request.request.url.variable ?? []) {
				expect(variable.value, `${request.request.url.raw} :${variable.key}`).toMatch(/^\S+$/);
			}
		}
	});
});
