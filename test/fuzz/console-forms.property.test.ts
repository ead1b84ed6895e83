import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { Order } from "../../src/orders/response.ts";
import { consoleRequest, type Operator, signedInOperator } from "../console/console-helpers.ts";
import { createPartner } from "../helpers.ts";
import { createOrder, orderBody, readyFile, settleValidation } from "../orders/order-helpers.ts";

/**
 * Fuzzing the console's form posts: whatever body, content type or path arrives, the answer is never
 * a 5xx, and it is a page (HTML) or a redirect, never the API's JSON.
 */

const SEED = 20261121;
const NUM_RUNS = 40;

/** Form bodies: arbitrary text, arbitrary fields, and the valid form with one field changed or dropped. */
function formBodies(valid: Record<string, string>): fc.Arbitrary<string> {
	const field = fc.oneof(fc.string({ maxLength: 30 }), fc.string({ unit: "grapheme", maxLength: 30 }));
	const changed = fc
		.tuple(fc.constantFrom(...Object.keys(valid)), fc.option(field, { nil: undefined, freq: 4 }))
		.map(([name, value]) => {
			const fields = { ...valid };
			if (value === undefined) delete fields[name];
			else fields[name] = value;
			return new URLSearchParams(fields).toString();
		});
	return fc.oneof(
		fc.string({ maxLength: 200 }),
		fc.string({ unit: "binary", maxLength: 80 }),
		fc.dictionary(field, field, { maxKeys: 5 }).map((fields) => new URLSearchParams(fields).toString()),
		{ weight: 3, arbitrary: changed },
		{ weight: 1, arbitrary: fc.constant(new URLSearchParams(valid).toString()) },
	);
}

const contentTypes = fc.oneof(
	{ weight: 6, arbitrary: fc.constant("application/x-www-form-urlencoded") },
	{
		weight: 1,
		arbitrary: fc.constantFrom(
			"application/json",
			"text/plain",
			"multipart/form-data",
			"multipart/form-data; boundary=xyz",
			"application/octet-stream",
			";;;",
		),
	},
);

/** The property: below 500; a redirect, or an HTML page. Returns the status. */
async function checkPage(response: Response): Promise<number> {
	const text = await response.text();
	if (response.status >= 500) throw new Error(`5xx: HTTP ${response.status} ${text.slice(0, 500)}`);
	if (response.status === 303) return response.status;
	if (!/^text\/html/.test(response.headers.get("Content-Type") ?? "")) {
		throw new Error(`not a page: HTTP ${response.status} ${text.slice(0, 500)}`);
	}
	return response.status;
}

let operator: Operator;
let shipTarget: Order;
let holdTarget: Order;
let unitsTarget: Order;

beforeAll(async () => {
	const partner = await createPartner("Console Fuzz Gallery");
	const live = partner.keys.live.key;
	const fileId = await readyFile(live, 2400, 3000);
	shipTarget = await settleValidation(live, (await createOrder(live, orderBody(fileId))).id);
	holdTarget = await settleValidation(live, (await createOrder(live, orderBody(fileId))).id);
	unitsTarget = await settleValidation(live, (await createOrder(live, orderBody(fileId, {}, { quantity: 3 }))).id);
	expect([shipTarget.status, holdTarget.status, unitsTarget.status]).toEqual([
		"in_production",
		"in_production",
		"in_production",
	]);
	operator = await signedInOperator();
}, 60_000);

type FormCase = { name: string; path: () => string; valid: () => Record<string, string>; signedIn: boolean };

const FORMS: FormCase[] = [
	{ name: "POST /ops/sign-in", path: () => "/ops/sign-in", valid: () => ({ key: operator.key }), signedIn: false },
	{
		name: "POST /ops/orders/{id}/ship",
		path: () => `/ops/orders/${shipTarget.id}/ship`,
		valid: () => ({
			_csrf: operator.csrf,
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://track.example/1Z999AA10123456784",
		}),
		signedIn: true,
	},
	{
		name: "POST /ops/orders/{id}/hold",
		path: () => `/ops/orders/${holdTarget.id}/hold`,
		valid: () => ({ _csrf: operator.csrf, message: "Frame stock ran out." }),
		signedIn: true,
	},
	{
		name: "POST /ops/orders/{id}/shipments",
		path: () => `/ops/orders/${unitsTarget.id}/shipments`,
		valid: () => ({
			_csrf: operator.csrf,
			[`units.${unitsTarget.items[0]?.id ?? ""}`]: "1",
			carrier: "UPS",
			number: "1Z999AA10123456784",
		}),
		signedIn: true,
	},
	{
		name: "POST /ops/orders/{id}/shipments/{shipment}/deliver",
		path: () => `/ops/orders/${unitsTarget.id}/shipments/shp_fuzz/deliver`,
		valid: () => ({ _csrf: operator.csrf }),
		signedIn: true,
	},
];

describe("console forms under fuzzed bodies", () => {
	for (const form of FORMS) {
		it(`${form.name}: never 5xx, always a page or a redirect`, async () => {
			await fc.assert(
				fc.asyncProperty(formBodies(form.valid()), contentTypes, async (body, contentType) => {
					const response = await consoleRequest(form.path(), {
						method: "POST",
						body,
						headers: { "Content-Type": contentType },
						...(form.signedIn ? { cookie: operator.cookie } : {}),
					});
					await checkPage(response);
				}),
				{ seed: SEED, numRuns: NUM_RUNS },
			);
		});
	}

	it("any path under /ops, any method: never 5xx, always a page or a redirect", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.constantFrom("GET", "POST", "PUT", "DELETE", "PATCH"),
				fc.oneof(
					fc.string({ maxLength: 40 }).map((tail) => `/ops/${encodeURIComponent(tail)}`),
					fc.string({ maxLength: 40 }).map((id) => `/ops/orders/${encodeURIComponent(id)}`),
					fc.string({ maxLength: 40 }).map((query) => `/ops/orders?${query}`),
				),
				async (method, path) => {
					const response = await consoleRequest(path, { method, cookie: operator.cookie });
					await checkPage(response);
				},
			),
			{ seed: SEED, numRuns: NUM_RUNS },
		);
	});
});
