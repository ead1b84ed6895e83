import { describe, expect, it } from "vitest";
import { AUDIENCE_DOCUMENTS, type Audience } from "../../src/openapi/audiences.ts";
import { OPENAPI_PATH } from "../../src/openapi/document.ts";
import { api } from "../helpers.ts";

type Operation = { tags?: string[]; security?: unknown[] };
type Document = {
	info: { title: string; description: string };
	paths: Record<string, Record<string, Operation>>;
	webhooks?: Record<string, unknown>;
	tags: Array<{ name: string }>;
	components: Record<string, Record<string, unknown>>;
};

async function served(path: string): Promise<Document> {
	const response = await api(path);
	expect(response.status).toBe(200);
	return (await response.json()) as Document;
}

/** Every `#/components/...` reference in `value`. */
function references(value: unknown, found: string[] = []): string[] {
	if (Array.isArray(value)) for (const entry of value) references(entry, found);
	else if (typeof value === "object" && value !== null) {
		for (const [key, entry] of Object.entries(value)) {
			if (key === "$ref" && typeof entry === "string") found.push(entry);
			else references(entry, found);
		}
	}
	return found;
}

function operations(document: Document): Array<{ path: string; method: string; operation: Operation }> {
	return Object.entries(document.paths).flatMap(([path, item]) =>
		Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
	);
}

describe("the partner reference holds only what a partner can call; ops and admin have their own", () => {
	it("GET /v1/openapi.json has no ops or admin operation, and keeps the webhooks", async () => {
		const partner = await served(OPENAPI_PATH);
		const internal = operations(partner).filter(
			({ path, operation }) =>
				/^\/v1\/(ops|admin)\//.test(path) ||
				(operation.tags ?? []).some((tag) => tag === "Operations" || tag === "Admin"),
		);
		expect(internal.map(({ method, path }) => `${method.toUpperCase()} ${path}`)).toEqual([]);
		expect(operations(partner).length).toBeGreaterThan(30);
		expect(partner.tags.map((tag) => tag.name)).not.toContain("Operations");
		expect(partner.tags.map((tag) => tag.name)).not.toContain("Admin");
		expect(Object.keys(partner.webhooks ?? {})).toContain("order.shipped");
	});

	it.each([
		["ops", "Operations", /^\/v1\/ops\//],
		["admin", "Admin", /^\/v1\/admin\//],
	] as const)(
		"the %s document holds exactly the %s operations, every one behind a key, and no webhooks",
		async (audience, tag, pattern) => {
			const document = await served(AUDIENCE_DOCUMENTS[audience].path);
			const all = operations(document);
			expect(all.length).toBeGreaterThan(3);
			for (const { path, method, operation } of all) {
				expect(path, `${method} ${path}`).toMatch(pattern);
				expect(operation.tags, `${method} ${path}`).toEqual([tag]);
				expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
			}
			expect(document.webhooks).toBeUndefined();
		},
	);

	it("the three documents together hold each operation once", async () => {
		const seen = new Map<string, Audience>();
		for (const audience of Object.keys(AUDIENCE_DOCUMENTS) as Audience[]) {
			for (const { path, method } of operations(await served(AUDIENCE_DOCUMENTS[audience].path))) {
				const name = `${method.toUpperCase()} ${path}`;
				expect(seen.get(name), name).toBeUndefined();
				seen.set(name, audience);
			}
		}
		expect(seen.get("POST /v1/orders")).toBe("partner");
		expect(seen.get("POST /v1/ops/orders/{id}/ship")).toBe("ops");
		expect(seen.get("POST /v1/admin/accounts")).toBe("admin");
	});

	it("each document's references all resolve in it, and it carries no component nothing refers to", async () => {
		for (const { path } of Object.values(AUDIENCE_DOCUMENTS)) {
			const document = await served(path);
			const { components } = document;
			const referred = new Set(references({ paths: document.paths, webhooks: document.webhooks, components }));
			for (const reference of referred) {
				const [, , kind = "", name = ""] = reference.split("/");
				expect(components[kind]?.[name], `${path}: ${reference}`).toBeDefined();
			}
			for (const [kind, group] of Object.entries(components)) {
				if (kind === "securitySchemes") continue;
				for (const name of Object.keys(group)) {
					expect(referred.has(`#/components/${kind}/${name}`), `${path}: ${kind}/${name} is unused`).toBe(true);
				}
			}
		}
	});
});
