import { describe, expect, it } from "vitest";
import type { AddressCheck } from "../../src/addresses/address-check.ts";
import {
	api,
	createKeyWithScopes,
	createPartner,
	expectError,
	jsonWithRawBytes,
	rateLimitHeaders,
	send,
	sendBytes,
} from "../helpers.ts";
import { SHIP_TO } from "../orders/order-helpers.ts";

const CHECK = "/v1/addresses/check";

async function partnerKey(mode: "live" | "test" = "live"): Promise<string> {
	return (await createPartner()).keys[mode].key;
}

/** The check of `body` with a fresh partner key, expected to answer 200. */
async function check(body: unknown, key?: string): Promise<AddressCheck> {
	const response = await send("POST", CHECK, key ?? (await partnerKey()), body);
	expect(response.status).toBe(200);
	return (await response.json()) as AddressCheck;
}

describe("POST /v1/addresses/check", () => {
	it("finds a complete US address deliverable, with no problems or warnings, in normal form", async () => {
		const verdict = await check({ ship_to: SHIP_TO });
		expect(verdict).toEqual({ deliverable: true, problems: [], warnings: [], normalized: SHIP_TO });
	});

	it("normalizes: trims, collapses spaces, upper-cases a US state and a Canadian state and postcode", async () => {
		const us = await check({
			ship_to: {
				...SHIP_TO,
				name: "  Ada   Lovelace ",
				address1: " 12  Harbour   Street",
				state: "me",
				country: "us",
			},
		});
		expect(us.normalized).toEqual(SHIP_TO);
		const canada = await check({
			ship_to: {
				name: "Grace Hopper",
				address1: "111 Wellington Street",
				city: "Ottawa",
				state: "on",
				zip: "k1a0a9",
				country: "CA",
				phone: "+1 613 555 0100",
			},
		});
		expect(canada.normalized).toMatchObject({ state: "ON", zip: "K1A 0A9" });
		expect(canada.deliverable).toBe(true);
	});

	it("lists as problems exactly what creating an order would refuse, one per field, with creation's codes", async () => {
		const key = await partnerKey();
		const shipTo = { ...SHIP_TO, zip: "1011", state: "XX" };
		const verdict = await check({ ship_to: shipTo }, key);
		expect(verdict.deliverable).toBe(false);
		expect(verdict.normalized).toBeNull();
		expect(verdict.warnings).toEqual([]);
		expect(verdict.problems).toEqual([
			{ field: "ship_to.state", code: "invalid_field", message: expect.stringContaining("US state") },
			{ field: "ship_to.zip", code: "invalid_field", message: expect.stringContaining("12345-6789") },
		]);
		// As at creation, the country's rules (state, postcode) are judged once every field is well formed.
		const withoutCity = await check({ ship_to: { ...shipTo, city: undefined, name: "x".repeat(101) } }, key);
		expect(withoutCity.problems).toEqual([
			{ field: "ship_to.name", code: "invalid_field", message: "ship_to.name: must be at most 100 characters" },
			{ field: "ship_to.city", code: "field_required", message: "ship_to.city is required." },
		]);
		// The create refuses the same address, on one of those fields, with the same code.
		const created = await send("POST", "/v1/orders", key, {
			external_id: "PO-check-1",
			ship_to: { ...SHIP_TO, zip: "1011" },
			items: [{ print_file_url: "https://example.com/a.tif", width_in: 8, height_in: 10 }],
		});
		const refused = await expectError(created, "validation_error", "ship_to.zip");
		expect(refused.code).toBe("invalid_field");
		expect(verdict.problems.find((problem) => problem.field === "ship_to.zip")?.message).toBe(refused.message);
	});

	it("answers an address with every field missing with a problem for each required field", async () => {
		const verdict = await check({ ship_to: {} });
		expect(verdict.deliverable).toBe(false);
		expect(verdict.problems.map((problem) => problem.field)).toEqual([
			"ship_to.name",
			"ship_to.address1",
			"ship_to.city",
			"ship_to.country",
		]);
		expect(new Set(verdict.problems.map((problem) => problem.code))).toEqual(new Set(["field_required"]));
	});

	it("warns of a line over 35 characters, a PO box shipped express and a ZIP code of another state", async () => {
		const verdict = await check({
			ship_to: {
				...SHIP_TO,
				address1: "P.O. Box 1234",
				address2: "Attention: Receiving Department, Floor 21",
				zip: "90210",
			},
			shipping_method: "express",
		});
		expect(verdict.deliverable).toBe(true);
		expect(verdict.warnings.map(({ field, code }) => ({ field, code }))).toEqual([
			{ field: "ship_to.address2", code: "address_line_too_long" },
			{ field: "ship_to.address1", code: "po_box_not_served" },
			{ field: "ship_to.zip", code: "postcode_state_mismatch" },
		]);
	});

	it("gives no PO box warning for standard shipping, or when no method is named", async () => {
		const shipTo = { ...SHIP_TO, address1: "PO Box 1234" };
		expect((await check({ ship_to: shipTo, shipping_method: "standard" })).warnings).toEqual([]);
		expect((await check({ ship_to: shipTo })).warnings).toEqual([]);
	});

	it("warns of a missing phone outside the US, and of a postcode not in the country's format", async () => {
		const verdict = await check({
			ship_to: { name: "Max Planck", address1: "Unter den Linden 6", city: "Berlin", zip: "1011", country: "DE" },
		});
		expect(verdict.deliverable).toBe(true);
		expect(verdict.warnings.map(({ field, code }) => ({ field, code }))).toEqual([
			{ field: "ship_to.zip", code: "postcode_format_unrecognized" },
			{ field: "ship_to.phone", code: "phone_missing" },
		]);
	});

	it("takes emoji and right-to-left text like other text", async () => {
		const verdict = await check({
			ship_to: {
				name: "نور الهدى 🌙",
				address1: "شارع الملك فهد 12",
				city: "الرياض",
				zip: "11564",
				country: "SA",
				phone: "+966 11 555 0100",
			},
		});
		expect(verdict).toMatchObject({ deliverable: true, problems: [], warnings: [] });
		expect(verdict.normalized?.name).toBe("نور الهدى 🌙");
	});

	it("answers 10 kB strings in every field with problems, not an error", async () => {
		const huge = "x".repeat(10_000);
		const verdict = await check({
			ship_to: { name: huge, address1: huge, address2: huge, city: huge, state: huge, zip: huge, country: huge },
		});
		expect(verdict.deliverable).toBe(false);
		expect(verdict.problems.map((problem) => problem.field)).toEqual([
			"ship_to.name",
			"ship_to.address1",
			"ship_to.address2",
			"ship_to.city",
			"ship_to.state",
			"ship_to.zip",
			"ship_to.country",
		]);
		expect(verdict.problems.every((problem) => problem.code === "invalid_field")).toBe(true);
	});

	it("refuses text holding half an emoji with the 422 a create gives", async () => {
		const body = jsonWithRawBytes(JSON.stringify({ ship_to: { ...SHIP_TO, name: "Ada HALF" } }), "HALF", [
			...new TextEncoder().encode("\\ud83c"),
		]);
		const response = await sendBytes("POST", CHECK, await partnerKey(), body);
		const error = await expectError(response, "validation_error", "ship_to.name");
		expect(error.code).toBe("text_not_well_formed");
	});

	it("refuses a body that is not an object, or has no ship_to object, as a create would", async () => {
		const key = await partnerKey();
		const notObject = await expectError(await send("POST", CHECK, key, ["ship_to"]), "bad_request");
		expect(notObject.code).toBe("body_not_object");
		const missing = await expectError(await send("POST", CHECK, key, {}), "bad_request", "ship_to");
		expect(missing.code).toBe("field_required");
		await expectError(await send("POST", CHECK, key, { ship_to: "350 Fifth Avenue" }), "validation_error", "ship_to");
		await expectError(
			await send("POST", CHECK, key, { ship_to: SHIP_TO, shipping_method: "teleport" }),
			"validation_error",
			"shipping_method",
		);
		const malformed = await expectError(await api(CHECK, { method: "POST", key, body: "{" }), "bad_request");
		expect(malformed.code).toBe("malformed_json");
	});

	it("refuses another content type with a 400 that says to send JSON", async () => {
		const body = new TextEncoder().encode(JSON.stringify({ ship_to: SHIP_TO }));
		const response = await sendBytes("POST", CHECK, await partnerKey(), body, "text/plain");
		const error = await expectError(response, "bad_request");
		expect(error.code).toBe("unsupported_media_type");
	});

	it("works the same with a test key, and counts against the key's rate limit", async () => {
		const response = await send("POST", CHECK, await partnerKey("test"), { ship_to: SHIP_TO });
		expect(response.status).toBe(200);
		expect(rateLimitHeaders(response).limit).toBeGreaterThan(0);
		expect(rateLimitHeaders(response).remaining).toBeLessThan(rateLimitHeaders(response).limit);
	});

	it("needs orders:read: a key without it, an ops key and no key are refused", async () => {
		const body = { ship_to: SHIP_TO };
		const filesOnly = await createKeyWithScopes(["files:write"]);
		expect((await expectError(await send("POST", CHECK, filesOnly, body), "forbidden")).code).toBe("scope_missing");
		const ops = await createKeyWithScopes(["ops"]);
		expect((await expectError(await send("POST", CHECK, ops, body), "forbidden")).code).toBe("scope_missing");
		await expectError(await api(CHECK, { method: "POST", body: JSON.stringify(body) }), "unauthorized");
	});
});
