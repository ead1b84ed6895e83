/**
 * The partner's document as a partner generates types from it: `openapi-typescript` on its DEFAULT
 * settings (no option at all), then `tsc` on the documented requests. A request field with a default
 * (an item's `quantity`) must stay optional: the document describes its request schemas as inputs
 * (src/openapi/request-defaults.ts), so the walkthrough's order, which leaves `quantity` out,
 * type-checks. The document is the one built in this process (scripts/lib/openapi-document.ts);
 * test/cli/typed-client.test.ts checks it is the served one.
 */
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import openapiTS, { astToString } from "openapi-typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildOpenApiDocument } from "../../scripts/lib/openapi-document.ts";
import { exampleOfBody, type SchemaComponents } from "../../scripts/lib/openapi-examples.ts";
import { typeErrorsOf } from "./cli-support.ts";

let folder = "";

beforeAll(async () => {
	folder = await mkdtemp(path.join(tmpdir(), "fps-openapi-default-types-"));
});

afterAll(async () => {
	await rm(folder, { recursive: true, force: true });
});

type JsonObject = Record<string, unknown>;

function isJsonObject(value: unknown): value is JsonObject {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The value at `keys` in `value`, each step an object's property; undefined when one is missing. */
function at(value: unknown, ...keys: string[]): unknown {
	let current = value;
	for (const key of keys) current = isJsonObject(current) ? current[key] : undefined;
	return current;
}

/** The documented example of an operation's JSON request body. */
function requestExample(document: JsonObject, route: string, components: SchemaComponents): JsonObject {
	const media = at(document, "paths", route, "post", "requestBody", "content", "application/json");
	const example = exampleOfBody(isJsonObject(media) ? media : undefined, components);
	if (!isJsonObject(example)) throw new Error(`POST ${route} has no documented request example`);
	return example;
}

/** The example with every item's `quantity` left out, as the walkthrough sends it (quantity: 1 by default). */
function withoutQuantities(example: JsonObject): JsonObject {
	const items = Array.isArray(example.items) ? example.items : [];
	return {
		...example,
		items: items.map((item: unknown) => {
			if (!isJsonObject(item)) return item;
			const { quantity: _default, ...rest } = item;
			return rest;
		}),
	};
}

describe("openapi-typescript on its default settings", () => {
	it("types the documented create-order and quote requests, with quantity left out, and still refuses a body without ship_to", async () => {
		const document = await buildOpenApiDocument();
		const components = at(document, "components", "schemas");
		if (!isJsonObject(components)) throw new Error("the document has no component schemas");
		const order = requestExample(document, "/v1/orders", components);
		const quote = requestExample(document, "/v1/quotes", components);

		// No options: what `npx openapi-typescript <url>` writes.
		const schema = astToString(await openapiTS(JSON.stringify(document)));
		expect(schema).toMatch(/quantity\?: number;/);
		await writeFile(path.join(folder, "schema.d.ts"), schema);

		const { ship_to: _shipTo, ...noShipTo } = withoutQuantities(order);
		const consumer = `import type { paths } from "./schema.js";

type JsonBody<Path extends "/v1/orders" | "/v1/quotes"> = NonNullable<
	paths[Path]["post"]["requestBody"]
>["content"]["application/json"];

export const documentedOrder: JsonBody<"/v1/orders"> = ${JSON.stringify(order)};
export const walkthroughOrder: JsonBody<"/v1/orders"> = ${JSON.stringify(withoutQuantities(order))};
export const documentedQuote: JsonBody<"/v1/quotes"> = ${JSON.stringify(quote)};
export const walkthroughQuote: JsonBody<"/v1/quotes"> = ${JSON.stringify(withoutQuantities(quote))};
// @ts-expect-error: ship_to is required, so the types are not so loose that anything passes.
export const noShipTo: JsonBody<"/v1/orders"> = ${JSON.stringify(noShipTo)};
`;
		await writeFile(path.join(folder, "consumer.ts"), consumer);
		const errors = await typeErrorsOf(path.join(folder, "consumer.ts"), folder, { timeoutMs: 60_000 });
		expect(errors).toBe("");
	});
});
