/**
 * The Postman collections' generator (scripts/lib/postman-*.ts) and the collections it committed:
 * the partner's holds only partner operations, each request with a test script, and none that
 * touches a setting the partner relies on; the schemas in its scripts stand alone.
 */
import { describe, expect, it } from "vitest";
import type { OpenApiSource, PostmanRequestItem } from "../../scripts/lib/postman-collection.ts";
import { internalCollection } from "../../scripts/lib/postman-internal.ts";
import { editedBody, partnerCollection } from "../../scripts/lib/postman-rehearsal.ts";
import { LEFT_OUT, REHEARSAL } from "../../scripts/lib/postman-rehearsal-steps.ts";
import { standaloneSchema } from "../../scripts/lib/postman-schema.ts";
import adminFile from "../../src/openapi/postman-admin-collection.json";
import partnerFile from "../../src/openapi/postman-collection.json";
import opsFile from "../../src/openapi/postman-ops-collection.json";

type Collection = { item: Array<{ item: PostmanRequestItem[] }> };

function requestsOf(collection: Collection): PostmanRequestItem[] {
	return collection.item.flatMap((folder) => folder.item);
}

/** `DELETE /v1/branding` for a request (the upload's URL is the one an earlier answer gave). */
function operationOf({ request }: PostmanRequestItem): string {
	if (typeof request.url === "string") return `${request.method} ${request.url}`;
	return `${request.method} /${request.url.path.join("/")}`;
}

function script(request: PostmanRequestItem | undefined, listen: "prerequest" | "test"): string {
	return (request?.event ?? [])
		.filter((event) => event.listen === listen)
		.flatMap((event) => event.script.exec)
		.join("\n");
}

const partner = partnerFile as unknown as Collection;

describe("the partner's collection (src/openapi/postman-collection.json)", () => {
	const requests = requestsOf(partner);

	it("holds no request of the floor's or the service team's", () => {
		expect(requests.length).toBeGreaterThan(30);
		for (const request of requests) {
			expect(operationOf(request)).not.toMatch(/^\S+ \/v1\/(ops|admin)\//);
		}
	});

	it("gives every request a test script that checks its status", () => {
		for (const request of requests) {
			expect(script(request, "test"), request.name).toMatch(/pm\.test\("answers \d{3}", function \(\) \{/);
		}
	});

	it("sends no webhook secret rotation, no brand profile DELETE and no endpoint ping, redelivery or sample event", () => {
		const operations = requests.map(operationOf);
		for (const refused of [
			"POST /v1/webhook-secret/rotate",
			"DELETE /v1/branding",
			"POST /v1/webhook-endpoints/:id/test",
			"POST /v1/events/:id/redeliver",
			"POST /v1/sandbox/events",
		]) {
			expect(operations).not.toContain(refused);
		}
		expect(Object.keys(LEFT_OUT).sort()).toEqual([
			"DELETE /v1/branding",
			"POST /v1/events/{id}/redeliver",
			"POST /v1/sandbox/events",
			"POST /v1/webhook-endpoints/{id}/test",
			"POST /v1/webhook-secret/rotate",
		]);
	});

	it("stops at its first request unless the key is a test key, and asks for nothing live", () => {
		const [first] = requests;
		expect(script(first, "test")).toContain('indexOf("fps_test_") === 0');
		expect(script(first, "test")).toContain("pm.execution.setNextRequest(null)");
		for (const { name, request } of requests) {
			const sent = JSON.stringify({ url: request.url, body: request.body });
			expect(sent, name).not.toMatch(/\blive\b/i);
			// An order's callback_url would send its webhooks out of the service.
			expect(sent, name).not.toContain("callback_url");
		}
	});

	it("registers its webhook endpoint for an event the run never causes, and deletes it", () => {
		const register = requests.find((request) => operationOf(request) === "POST /v1/webhook-endpoints");
		const body = register?.request.body;
		expect(body?.mode === "raw" ? JSON.parse(body.raw) : undefined).toEqual(
			expect.objectContaining({ events: ["claim.approved"], url: expect.stringMatching(/^https:\/\/example\.com\//) }),
		);
		expect(requests.map(operationOf)).toContain("DELETE /v1/webhook-endpoints/:id");
	});
});

describe("the floor's and the service team's collections", () => {
	for (const [audience, file, key] of [
		["ops", opsFile, "ops_key"],
		["admin", adminFile, "admin_key"],
	] as const) {
		it(`${audience}: every request is one of its audience's, with a status test, and the collection's key is {{${key}}}`, () => {
			const requests = requestsOf(file as unknown as Collection);
			expect(requests.length).toBeGreaterThan(5);
			for (const request of requests) {
				expect(operationOf(request)).toMatch(new RegExp(`^\\S+ /v1/${audience}/`));
				expect(script(request, "test"), request.name).toContain("pm.response.code");
			}
			expect(file.auth).toEqual({ type: "bearer", bearer: [{ key: "token", value: `{{${key}}}`, type: "string" }] });
		});
	}
});

/** A document of two partner operations, one with an order id in its path. */
function smallDocument(extra: OpenApiSource["paths"] = {}): OpenApiSource {
	return {
		info: { title: "t", version: "1", description: "d" },
		paths: {
			"/v1/health": { get: { responses: { "200": {} } } },
			"/v1/ops/orders/{id}/ship": {
				post: {
					tags: ["Operations"],
					parameters: [{ name: "id", in: "path", required: true, example: "ord_1" }],
					responses: { "200": { content: { "application/json": { schema: { $ref: "#/components/schemas/O" } } } } },
				},
			},
			...extra,
		},
		components: { schemas: { O: { type: "object", properties: { id: { type: "string", example: "ord_1" } } } } },
	};
}

describe("the generator", () => {
	it("refuses a partner operation that the run neither sends nor leaves out", () => {
		expect(() => partnerCollection(smallDocument({ "/v1/new": { get: { responses: { "200": {} } } } }))).toThrow(
			/neither sends nor leaves out .*GET \/v1\/new: add each to REHEARSAL or LEFT_OUT/,
		);
	});

	it("names an internal request's id after the resource before it and checks the answer's shape", () => {
		const collection = internalCollection(smallDocument(), "ops");
		const [ship] = requestsOf(collection).filter((request) => operationOf(request) === "POST /v1/ops/orders/:id/ship");
		expect(typeof ship?.request.url === "string" ? undefined : ship?.request.url.variable).toEqual([
			{ key: "id", value: "{{order_id}}" },
		]);
		expect(collection.variable).toContainEqual(expect.objectContaining({ key: "order_id", value: "ord_1" }));
		expect(script(ship, "test")).toContain('const schema = {"type":"object","properties":{"id":{"type":"string"}}};');
	});

	it("writes a response schema out whole, without examples, and refuses one that contains itself", () => {
		const components = {
			Item: { type: "object", properties: { example: { type: "string" } }, example: { example: "x" } },
			Loop: { type: "object", properties: { next: { $ref: "#/components/schemas/Loop" } } },
		};
		expect(standaloneSchema({ type: "array", items: { $ref: "#/components/schemas/Item" } }, components)).toEqual({
			type: "array",
			items: { type: "object", properties: { example: { type: "string" } } },
		});
		expect(() => standaloneSchema({ $ref: "#/components/schemas/Loop" }, components)).toThrow(/refers to itself/);
	});

	it("edits an example body by dotted path, and refuses a path the example has not", () => {
		const example = { items: [{ width_in: 16, print_file_id: "pf_1" }], size_bytes: 3 };
		expect(editedBody(example, { set: { "items.0.width_in": 8 }, remove: ["size_bytes"] })).toEqual({
			items: [{ width_in: 8, print_file_id: "pf_1" }],
		});
		expect(example.size_bytes).toBe(3);
		expect(() => editedBody(example, { remove: ["nothing"] })).toThrow(/no nothing to remove/);
	});

	it("names every step once, so a wait can ask for itself again", () => {
		const names = REHEARSAL.flatMap((stage) => stage.steps.map((step) => step.name));
		expect(new Set(names).size).toBe(names.length);
	});
});
