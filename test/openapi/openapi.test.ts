import { describe, expect, it } from "vitest";
import packageManifest from "../../package.json";
import { exampleOf } from "../../scripts/lib/openapi-examples.ts";
import { app } from "../../src/app.ts";
import { FRAMING_FIELDS } from "../../src/framing/spec.ts";
import { AUDIENCE_DOCUMENTS } from "../../src/openapi/audiences.ts";
import { OPENAPI_PATH, POSTMAN_COLLECTIONS } from "../../src/openapi/document.ts";
import { api, createPartner } from "../helpers.ts";
import { readyFile, settleValidation } from "../orders/order-helpers.ts";
import { ORDER_SHIPPED_FIELDS } from "../webhooks/webhook-helpers.ts";

type Operation = {
	security?: Array<Record<string, string[]>>;
	parameters?: unknown[];
	responses?: Record<string, unknown>;
};
type ObjectSchema = { properties: Record<string, { type?: unknown; description?: string }>; required?: string[] };
type OpenApiDocument = {
	openapi: string;
	info: { title: string; version: string };
	paths: Record<string, Record<string, Operation>>;
	components: { securitySchemes: Record<string, unknown>; schemas: Record<string, unknown> };
};

/** Routes without a bearer key: health, and the signed upload URL (its signature is the authority). */
const PUBLIC_ROUTES = new Set(["GET /v1/health", "PUT /v1/uploads/{id}"]);
const DOCUMENTATION_ROUTES = new Set([
	...Object.values(AUDIENCE_DOCUMENTS).map((document) => document.path),
	...Object.values(POSTMAN_COLLECTIONS).map((collection) => collection.path),
	"/v1/docs",
]);

/**
 * Every method and path of the API the app serves (Hono's route list; `ALL` entries are middleware), in
 * OpenAPI form. Only `/v1`: the operator console's HTML pages under `/ops` are for people, not the API.
 */
function servedRoutes(): Array<{ method: string; path: string }> {
	const seen = new Map<string, { method: string; path: string }>();
	for (const route of app.routes) {
		if (
			route.method === "ALL" ||
			DOCUMENTATION_ROUTES.has(route.path) ||
			route.path.startsWith("/v1/docs/") ||
			!route.path.startsWith("/v1/")
		)
			continue;
		const path = route.path.replace(/:([A-Za-z0-9_]+)/g, "{$1}");
		seen.set(`${route.method} ${path}`, { method: route.method, path });
	}
	return [...seen.values()];
}

async function fetchDocument(path = OPENAPI_PATH): Promise<OpenApiDocument> {
	const response = await api(path);
	expect(response.status).toBe(200);
	expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
	return JSON.parse(await response.text()) as OpenApiDocument;
}

/** The three served documents as one: the partner's, the floor's and the service team's paths side by side. */
async function everyDocument(): Promise<OpenApiDocument> {
	const [partner, ...others] = await Promise.all(
		Object.values(AUDIENCE_DOCUMENTS).map((document) => fetchDocument(document.path)),
	);
	if (partner === undefined) throw new Error("no partner document");
	for (const document of others) {
		partner.paths = { ...partner.paths, ...document.paths };
		partner.components.schemas = { ...partner.components.schemas, ...document.components.schemas };
	}
	return partner;
}

describe("GET /v1/openapi.json", () => {
	it("is public JSON in OpenAPI 3.1.0", async () => {
		const document = await fetchDocument();
		expect(document.openapi).toBe("3.1.0");
		expect(document.info.title).toBeTruthy();
	});

	it("info.version is package.json's version", async () => {
		const document = await fetchDocument();
		expect(packageManifest.version).toMatch(/^\d+\.\d+\.\d+/);
		expect(document.info.version).toBe(packageManifest.version);
	});

	it("declares the bearer security scheme and the Error schema", async () => {
		const document = await fetchDocument();
		expect(document.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
		expect(document.components.schemas.Error).toMatchObject({
			type: "object",
			required: ["error"],
			properties: { error: { required: ["type", "message", "request_id"] } },
		});
	});

	it("the route list being checked is not empty", () => {
		const routes = servedRoutes();
		expect(routes.length).toBeGreaterThanOrEqual(6);
		expect(routes).toContainEqual({ method: "POST", path: "/v1/admin/accounts/{id}/keys" });
	});

	it("lists every route the app serves, in one of the three documents", async () => {
		const document = await everyDocument();
		for (const { method, path } of servedRoutes()) {
			expect(document.paths[path], `${method} ${path}`).toBeDefined();
			expect(document.paths[path]?.[method.toLowerCase()], `${method} ${path}`).toBeDefined();
		}
	});

	it("lists no route the app does not serve", async () => {
		const document = await everyDocument();
		const served = new Set(servedRoutes().map(({ method, path }) => `${method} ${path}`));
		for (const [path, operations] of Object.entries(document.paths)) {
			for (const method of Object.keys(operations)) expect(served).toContain(`${method.toUpperCase()} ${path}`);
		}
	});

	it("documents branding (GET, PUT, DELETE), the ops order view and the packing slip as HTML with its paper option", async () => {
		const document = await everyDocument();
		expect(Object.keys(document.paths["/v1/branding"] ?? {}).sort()).toEqual(["delete", "get", "put"]);
		expect(document.paths["/v1/ops/orders/{id}"]?.get).toBeDefined();
		const slip = document.paths["/v1/ops/orders/{id}/packing-slip"]?.get;
		expect(slip?.responses?.["200"]).toMatchObject({ content: { "text/html": { schema: { type: "string" } } } });
		expect(slip?.parameters).toContainEqual(
			expect.objectContaining({
				name: "paper",
				in: "query",
				required: false,
				schema: expect.objectContaining({ enum: ["letter", "a4"] }),
			}),
		);
		expect(document.components.schemas.BrandProfileRequest).toMatchObject({ type: "object", required: ["brand_name"] });
	});

	it("documents gift_message: optional on CreateOrderRequest, a nullable string on Order", async () => {
		const document = await fetchDocument();
		const request = document.components.schemas.CreateOrderRequest as ObjectSchema;
		// JSON Schema counts a string's length in code points, as the service does.
		expect(request.properties.gift_message).toMatchObject({ type: "string", minLength: 1, maxLength: 300 });
		expect(request.properties.gift_message?.description).toMatch(/packing slip/);
		expect(request.required).not.toContain("gift_message");
		const order = document.components.schemas.Order as ObjectSchema;
		expect(order.properties.gift_message).toMatchObject({ type: ["string", "null"] });
	});

	it("documents the framing fields, shipping_method and quote_id on CreateOrderRequest, and costs on Order", async () => {
		const document = await fetchDocument();
		const request = document.components.schemas.CreateOrderRequest as ObjectSchema;
		expect(Object.keys(request.properties)).toEqual(expect.arrayContaining(["shipping_method", "quote_id"]));
		expect(request.required).not.toContain("shipping_method");
		const item = document.components.schemas.OrderItemInput as ObjectSchema;
		for (const field of FRAMING_FIELDS) {
			expect(item.properties[field]?.description, field).toBeTruthy();
		}
		const order = document.components.schemas.Order as ObjectSchema;
		expect(Object.keys(order.properties)).toEqual(expect.arrayContaining(["shipping_method", "costs"]));
		const orderItem = document.components.schemas.OrderItem as ObjectSchema;
		expect(Object.keys(orderItem.properties)).toEqual(
			expect.arrayContaining(["dimensions", "united_inches", "unit_price", "line_total", "image_cropped_percent"]),
		);
	});

	it("every catalog slug the document gives as an example is in the catalog", async () => {
		const document = await fetchDocument();
		const key = (await createPartner()).keys.live.key;
		const catalog = (await (await api("/v1/catalog", { key })).json()) as Record<
			"frames" | "mats" | "glazings" | "papers",
			{ slug: string }[]
		>;
		const slugs = (list: { slug: string }[]) => new Set(list.map((entry) => entry.slug));
		const known: Record<string, Set<string>> = {
			frame: slugs(catalog.frames),
			mat: slugs(catalog.mats),
			inner_mat: slugs(catalog.mats),
			glazing: slugs(catalog.glazings),
			paper: slugs(catalog.papers),
		};
		const examples: [string, unknown][] = [];
		const walk = (node: unknown): void => {
			if (Array.isArray(node)) {
				for (const entry of node) walk(entry);
				return;
			}
			if (typeof node !== "object" || node === null) return;
			for (const [key, value] of Object.entries(node)) {
				if (key in known && typeof value === "object" && value !== null && "example" in value) {
					examples.push([key, (value as { example: unknown }).example]);
				}
				walk(value);
			}
		};
		walk(document);
		expect(examples.length).toBeGreaterThanOrEqual(10);
		for (const [field, example] of examples)
			expect(known[field]?.has(String(example)), `${field}: ${String(example)}`).toBe(true);
	});

	it("writes every timestamp as date-time, and ship_to in answers as the typed address", async () => {
		const document = await fetchDocument();
		const order = document.components.schemas.Order as ObjectSchema & {
			properties: Record<string, { format?: string; $ref?: string; type?: unknown }>;
		};
		for (const field of ["created_at", "updated_at", "shipped_at", "delivered_at", "canceled_at"]) {
			expect(order.properties[field]?.format, field).toBe("date-time");
		}
		expect(order.properties.ship_to?.$ref).toBe("#/components/schemas/ShipTo");
		const quote = document.components.schemas.Quote as ObjectSchema & {
			properties: Record<string, { format?: string }>;
		};
		expect(quote.properties.expires_at?.format).toBe("date-time");
		// No timestamp anywhere left a plain string.
		const untyped: string[] = [];
		const walk = (node: unknown, at: string): void => {
			if (typeof node !== "object" || node === null) return;
			for (const [key, value] of Object.entries(node)) {
				if (key.endsWith("_at") && typeof value === "object" && value !== null && "type" in value) {
					const format = (value as { format?: string }).format;
					if (format !== "date-time") untyped.push(`${at}.${key}`);
				}
				walk(value, `${at}.${key}`);
			}
		};
		walk(document.components.schemas, "schemas");
		expect(untyped).toEqual([]);
	});

	it("documents the webhooks (OAS 3.1): each sent event's body and the endpoint ping, with the signature headers", async () => {
		const document = (await fetchDocument()) as OpenApiDocument & {
			webhooks: Record<
				string,
				{
					post: {
						operationId: string;
						requestBody: { content: Record<string, { schema: { $ref: string } }> };
						parameters: { name: string; in: string }[];
					};
				}
			>;
		};
		expect(Object.keys(document.webhooks).sort()).toEqual(
			[
				"claim.approved",
				"claim.created",
				"claim.rejected",
				"order.canceled",
				"order.delivered",
				"order.in_production",
				"order.on_hold",
				"order.shipped",
				"order.updated",
				"ping",
				"shipment.created",
				"shipment.delivered",
				"shipment.returned",
			].sort(),
		);
		expect(document.webhooks.ping?.post.requestBody.content["application/json"]?.schema.$ref).toBe(
			"#/components/schemas/PingEvent",
		);
		const shipped = document.webhooks["order.shipped"]?.post;
		expect(shipped?.operationId).toBe("orderShipped");
		expect(shipped?.requestBody.content["application/json"]?.schema.$ref).toBe(
			"#/components/schemas/OrderShippedEvent",
		);
		expect(
			shipped?.parameters
				.filter((parameter) => parameter.in === "header")
				.map((parameter) => parameter.name)
				.sort(),
		).toEqual(["svc-signature", "webhook-id", "webhook-signature", "webhook-timestamp"]);
		const schema = document.components.schemas.OrderShippedEvent as ObjectSchema;
		expect(Object.keys(schema.properties).sort()).toEqual([...ORDER_SHIPPED_FIELDS].sort());
	});

	it("documents the response headers the service sends, and a real answer carries what its response lists", async () => {
		type Responses = Record<string, { headers?: Record<string, { $ref: string }> }>;
		const document = (await fetchDocument()) as OpenApiDocument & {
			components: { headers: Record<string, { description: string }> };
		};
		const responses = (method: string, path: string) =>
			(document.paths[path]?.[method] as { responses: Responses } | undefined)?.responses ?? {};
		const names = (method: string, path: string, status: string) =>
			Object.keys(responses(method, path)[status]?.headers ?? {}).sort();
		expect(Object.keys(document.components.headers).sort()).toEqual(
			[
				"ETag",
				"Idempotent-Replayed",
				"Retry-After",
				"X-RateLimit-Limit",
				"X-RateLimit-Remaining",
				"X-RateLimit-Reset",
				"X-Request-Id",
			].sort(),
		);
		expect(names("get", "/v1/catalog", "200")).toEqual(
			["Bookmark", "ETag", "X-RateLimit-Limit", "X-RateLimit-Remaining", "X-RateLimit-Reset", "X-Request-Id"].sort(),
		);
		expect(names("post", "/v1/orders", "200")).toContain("Idempotent-Replayed");
		expect(names("get", "/v1/orders/{id}", "429")).toContain("Retry-After");
		// Refused before the key's reads begin: no bookmark.
		expect(names("get", "/v1/orders/{id}", "429")).not.toContain("Bookmark");
		expect(names("get", "/v1/orders/{id}", "401")).not.toContain("Bookmark");
		expect(names("get", "/v1/health", "200")).toEqual(["X-Request-Id"]);
		// What the document lists for a protected 404 is what a real one carries.
		const key = (await createPartner()).keys.live.key;
		const missing = await api("/v1/orders/ord_nothing", { key });
		expect(missing.status).toBe(404);
		for (const header of names("get", "/v1/orders/{id}", "404")) {
			expect(missing.headers.get(header), header).not.toBeNull();
		}
	});

	it("every operation has its own operationId, and every tag in use is described", async () => {
		const document = (await fetchDocument()) as OpenApiDocument & { tags: { name: string; description: string }[] };
		const ids: string[] = [];
		const tags = new Set<string>();
		for (const item of Object.values(document.paths)) {
			for (const operation of Object.values(item) as (Operation & { operationId?: string; tags?: string[] })[]) {
				ids.push(operation.operationId ?? "");
				for (const tag of operation.tags ?? []) tags.add(tag);
			}
		}
		expect(ids.every((id) => /^[a-z][A-Za-z0-9]+$/.test(id))).toBe(true);
		expect(new Set(ids).size).toBe(ids.length);
		expect(ids).toContain("postOrders");
		expect(ids).toContain("getOrdersById");
		expect(document.tags.map((tag) => tag.name).sort()).toEqual([...tags].sort());
		expect(document.tags.every((tag) => tag.description.length > 10)).toBe(true);
	});

	it("protected routes require the bearer key and document 401, 403 and 429; health and signed uploads are public", async () => {
		const document = await everyDocument();
		for (const { method, path } of servedRoutes()) {
			const operation = document.paths[path]?.[method.toLowerCase()];
			if (PUBLIC_ROUTES.has(`${method} ${path}`)) {
				// Public, and saying so: no key needed, as tools read `security: []`.
				expect(operation?.security, `${method} ${path}`).toEqual([]);
				continue;
			}
			expect(operation?.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
			expect(Object.keys(operation?.responses ?? {}), `${method} ${path}`).toEqual(
				expect.arrayContaining(["401", "403", "429"]),
			);
		}
	});
});

describe("the documented example order", () => {
	it("built from the document's examples, with a real print file and without the example's quote id, reaches in_production", async () => {
		const document = await fetchDocument();
		const body = exampleOf(document.components.schemas.CreateOrderRequest, document.components.schemas) as {
			quote_id?: string;
			callback_url?: string;
			items: Array<Record<string, unknown>>;
		};
		// Every framing field the catalog checks is in the example, with the document's value.
		expect(Object.keys(body.items[0] ?? {})).toEqual(
			expect.arrayContaining([...FRAMING_FIELDS, "width_in", "height_in"]),
		);
		// The two things an example cannot hold: a file and a quote of this account.
		expect(body.quote_id).toMatch(/^quo_/);
		delete body.quote_id;
		delete body.callback_url;
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const item = body.items[0] ?? {};
		const widthIn = Number(item.width_in);
		const heightIn = Number(item.height_in);
		item.print_file_id = await readyFile(key, widthIn * 300, heightIn * 300);
		const created = await api("/v1/orders", { method: "POST", key, body: JSON.stringify(body) });
		expect(created.status, await created.clone().text()).toBe(201);
		const order = (await created.json()) as { id: string };
		const settled = await settleValidation(key, order.id);
		expect(settled.hold_details).toEqual([]);
		expect(settled.status).toBe("in_production");
	});
});

describe("GET /v1/docs", () => {
	it("serves the HTML reference page without a key, pointing at the document", async () => {
		const response = await api("/v1/docs");
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
		expect(await response.text()).toContain(OPENAPI_PATH);
	});

	it("may not be framed: CSP frame-ancestors 'none' and X-Frame-Options DENY", async () => {
		const response = await api("/v1/docs");
		expect(directivesOf(response.headers.get("Content-Security-Policy")).get("frame-ancestors")).toEqual(["'none'"]);
		expect(response.headers.get("X-Frame-Options")).toBe("DENY");
	});

	it("runs only the scripts it serves: its own copy of Scalar's script and its inline script by hash, nothing else", async () => {
		const response = await api("/v1/docs");
		const html = await response.text();
		const directives = directivesOf(response.headers.get("Content-Security-Policy"));
		expect(directives.get("default-src")).toEqual(["'none'"]);
		const scriptSources = directives.get("script-src") ?? [];
		expect(scriptSources).not.toContain("'unsafe-inline'");
		expect(scriptSources).not.toContain("'unsafe-eval'");

		const external = [...html.matchAll(/<script[^>]*\ssrc="([^"]+)"/g)].map((match) => match[1] ?? "");
		// The worker's own copy of the installed package's bundle, named by its version: nothing from another origin.
		expect(external).toEqual([expect.stringMatching(/^\/v1\/docs\/scalar-\d+\.\d+\.\d+\.js$/)]);
		const script = await api(external[0] ?? "");
		expect(script.status).toBe(200);
		expect(script.headers.get("Content-Type")).toMatch(/^text\/javascript/);
		expect(script.headers.get("Cache-Control")).toContain("immutable");
		expect((await script.text()).length).toBeGreaterThan(1_000_000);
		const inline = [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)].map(
			(match) => match[1] ?? "",
		);
		expect(inline.length).toBeGreaterThan(0);
		const hashes = await Promise.all(inline.map(async (script) => `'sha256-${await sha256Base64(script)}'`));
		expect([...scriptSources].sort()).toEqual(["'self'", ...hashes].sort());
		// The document and "Test request" calls go to this origin only.
		expect(directives.get("connect-src")).toEqual(["'self'"]);
	});
});

/** A Content-Security-Policy header as its directives, each with its sources. */
function directivesOf(policy: string | null): Map<string, string[]> {
	const directives = new Map<string, string[]>();
	for (const directive of (policy ?? "").split(";")) {
		const [name, ...sources] = directive.trim().split(/\s+/);
		if (name !== undefined && name !== "") directives.set(name.toLowerCase(), sources);
	}
	return directives;
}

/** Standard base64 of the SHA-256 of `text`'s UTF-8 bytes, as CSP hash sources write it. */
async function sha256Base64(text: string): Promise<string> {
	const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text)));
	return btoa(String.fromCharCode(...digest));
}
