import { describe, expect, it } from "vitest";
import {
	bodySha256,
	credentialKindOf,
	isKeptStatus,
	MAX_KEY_LENGTH,
	readIdempotencyKey,
	requestLine,
} from "../../src/idempotency/rules.ts";

describe("readIdempotencyKey", () => {
	it("no header is no key, and no refusal", () => {
		expect(readIdempotencyKey(undefined)).toBeNull();
	});

	it("takes 1 to 255 printable ASCII characters as they are", () => {
		for (const key of ["k", "5f0c1e0e-7a43-4d1e-9c55-2b6a1d3e8f10", "order 42 / retry", "~".repeat(MAX_KEY_LENGTH)]) {
			expect(readIdempotencyKey(key)).toEqual({ ok: true, key });
		}
	});

	it("refuses an empty value, a longer one, and any character outside printable ASCII, saying which", () => {
		const refused = (value: string) => {
			const reading = readIdempotencyKey(value);
			return reading !== null && !reading.ok ? reading.message : null;
		};
		expect(refused("")).toContain("empty");
		expect(refused("k".repeat(MAX_KEY_LENGTH + 1))).toContain("256 characters");
		for (const value of ["tab\there", "caf\u00e9", "del\u007f", "\u{1f600}"])
			expect(refused(value)).toContain("printable ASCII");
	});
});

describe("credentialKindOf", () => {
	it("an admin key, an ops key and a partner key each have a key space of their own", () => {
		expect(credentialKindOf(["admin"])).toBe("admin");
		expect(credentialKindOf(["ops", "admin"])).toBe("admin");
		expect(credentialKindOf(["ops"])).toBe("ops");
		expect(credentialKindOf(["orders:read", "orders:write", "files:write", "events:read"])).toBe("partner");
	});
});

describe("what makes two requests the same", () => {
	it("the body's SHA-256 over its bytes, in hex", async () => {
		expect(await bodySha256(new Uint8Array(0))).toBe(
			"e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
		);
		expect(await bodySha256(new TextEncoder().encode('{"a":1}'))).not.toBe(
			await bodySha256(new TextEncoder().encode('{"a": 1}')),
		);
	});

	it("the method and the path with its query, without the origin", () => {
		expect(requestLine("post", "https://api.test/v1/orders/ord_1/cancel")).toBe("POST /v1/orders/ord_1/cancel");
		expect(requestLine("POST", "http://localhost:8787/v1/quotes?x=1")).toBe("POST /v1/quotes?x=1");
	});
});

describe("isKeptStatus", () => {
	it("keeps successes and refusals of the request, never a 429 or a 5xx", () => {
		expect([200, 201, 204, 400, 404, 409, 422].every(isKeptStatus)).toBe(true);
		expect([429, 500, 502, 503].some(isKeptStatus)).toBe(false);
	});
});
