import { type Schema, Validator } from "@cfworker/json-schema";
import { describe, expect, it } from "vitest";
import type { AddressCheck } from "../../src/addresses/address-check.ts";
import { OPENAPI_PATH } from "../../src/openapi/document.ts";
import { api, createPartner, expectError, send } from "../helpers.ts";
import { SHIP_TO } from "../orders/order-helpers.ts";

const CHECK = "/v1/addresses/check";

type Document = {
	paths: Record<string, Record<string, { requestBody: { content: Record<string, { schema: Schema }> } }>>;
	components: Record<string, unknown>;
};

/** The request body schema the served document gives POST /v1/addresses/check, as a validator. */
async function documentedRequest(): Promise<Validator> {
	const document = (await (await api(OPENAPI_PATH)).json()) as Document;
	const schema = document.paths[CHECK]?.post?.requestBody.content["application/json"]?.schema;
	if (schema === undefined) throw new Error(`${CHECK} has no JSON request body in the document`);
	return new Validator({ ...schema, components: document.components } as Schema, "2020-12", false);
}

/** The addresses the check exists to judge: each is answered 200 with its problems, never refused. */
const JUDGED: Array<[string, Record<string, unknown>]> = [
	["a US ZIP code in the wrong format", { ...SHIP_TO, zip: "1011" }],
	["an unknown US state", { ...SHIP_TO, state: "XX" }],
	["an unknown country", { ...SHIP_TO, country: "ZZ" }],
	["a missing required field", { name: "Ada Lovelace", address1: "12 Harbour Street", country: "US" }],
	["a line far past its length", { ...SHIP_TO, address1: "x".repeat(500) }],
	["a phone that is not one", { ...SHIP_TO, phone: "call me" }],
];

describe("POST /v1/addresses/check: the request schema takes what the route judges", () => {
	it.each(JUDGED)(
		"the documented request schema accepts %s, and the route answers it with problems",
		async (_, shipTo) => {
			const validator = await documentedRequest();
			const body = { ship_to: shipTo, shipping_method: "standard" };
			expect(validator.validate(body).errors).toEqual([]);
			const response = await send("POST", CHECK, (await createPartner()).keys.live.key, body);
			expect(response.status).toBe(200);
			const verdict = (await response.json()) as AddressCheck;
			expect(verdict.deliverable).toBe(false);
			expect(verdict.problems.length).toBeGreaterThan(0);
		},
	);

	it("the documented schema and the route both refuse a truly malformed body: an unknown field, a field of the wrong type", async () => {
		const validator = await documentedRequest();
		const key = (await createPartner()).keys.live.key;
		const malformed: Array<[unknown, string]> = [
			[{ ship_to: SHIP_TO, status: "deliverable" }, "status"],
			[{ ship_to: { ...SHIP_TO, verified: true } }, "ship_to.verified"],
			[{ ship_to: { ...SHIP_TO, zip: 4101 } }, "ship_to.zip"],
		];
		for (const [body, field] of malformed) {
			expect(validator.validate(body).valid, JSON.stringify(body)).toBe(false);
			await expectError(await send("POST", CHECK, key, body), "validation_error", field);
		}
	});
});
