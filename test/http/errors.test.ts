import { z } from "@hono/zod-openapi";
import { Hono } from "hono";
import { afterEach, describe, expect, it, vi } from "vitest";
import { MAX_JSON_BODY_BYTES } from "../../src/app.ts";
import type { PublicEnv } from "../../src/http/app-env.ts";
import { ApiError, ERROR_STATUS, type ErrorType } from "../../src/http/errors.ts";
import { renderError, renderNotFound } from "../../src/http/on-error.ts";
import { stampRequestId } from "../../src/http/request-id.ts";
import { fieldPath, malformedTextPath, validationErrorFrom } from "../../src/http/validation.ts";
import { api, createAdminKey, createPartner, expectError, jsonWithRawBytes, sendBytes } from "../helpers.ts";

/**
 * A tiny app with the service's error plumbing (request id as in src/app.ts, the real onError and
 * notFound), for error types no real route produces yet.
 */
function errorProbeApp() {
	const probe = new Hono<PublicEnv>();
	probe.use("*", stampRequestId);
	probe.onError(renderError);
	probe.notFound(renderNotFound);
	probe.get("/conflict", () => {
		throw new ApiError("conflict", "Order ord_123 already uses this external_id.", "external_id");
	});
	probe.get("/crash", () => {
		throw new Error("boom with secret stack");
	});
	probe.get("/typed/:type", (c) => {
		throw new ApiError(c.req.param("type") as ErrorType, `A ${c.req.param("type")} error.`);
	});
	return probe;
}

afterEach(() => {
	vi.restoreAllMocks();
});

describe("error envelope over HTTP", () => {
	it("malformed JSON is a 400 bad_request", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: '{"name":' });
		await expectError(response, "bad_request");
	});

	it("a body over 1 MiB is a 400 bad_request", async () => {
		const admin = await createAdminKey();
		const body = JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES) });
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body });
		const error = await expectError(response, "bad_request");
		expect(error.message).toContain("1 MiB");
	});

	it("a body of exactly 1 MiB is not refused for its size", async () => {
		const admin = await createAdminKey();
		const padding = MAX_JSON_BODY_BYTES - JSON.stringify({ name: "" }).length;
		const body = JSON.stringify({ name: " ".repeat(padding) });
		expect(body.length).toBe(MAX_JSON_BODY_BYTES);
		// All spaces trim to an empty name: a 422 from validation proves the size check let it through.
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body });
		await expectError(response, "validation_error", "name");
	});

	it("a missing required field is a 400 bad_request naming the field", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: "{}" });
		await expectError(response, "bad_request", "name");
	});

	it("a body that is not a JSON object is a 400 bad_request", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: "[]" });
		await expectError(response, "bad_request");
	});

	it("a JSON body sent as text/plain is a 400 bad_request", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", {
			method: "POST",
			key: admin,
			body: '{"name":"Gallery"}',
			headers: { "Content-Type": "text/plain" },
		});
		await expectError(response, "bad_request");
	});

	it("no key is a 401 unauthorized", async () => {
		await expectError(await api("/v1/catalog"), "unauthorized");
	});

	it("a key without the needed scope is a 403 forbidden", async () => {
		const partner = await createPartner();
		const response = await api("/v1/admin/accounts", { method: "POST", key: partner.keys.live.key, body: "{}" });
		await expectError(response, "forbidden");
	});

	it("an unknown route is a 404 not_found", async () => {
		await expectError(await api("/v1/no-such-thing"), "not_found");
	});

	it("a path outside /v1 is a 404 not_found", async () => {
		await expectError(await api("/"), "not_found");
	});

	it("a wrong method on a known path is a 404 not_found", async () => {
		const partner = await createPartner();
		await expectError(await api("/v1/catalog", { method: "DELETE", key: partner.keys.live.key }), "not_found");
		await expectError(await api("/v1/health", { method: "POST", body: "{}" }), "not_found");
	});

	it("an unknown field is a 422 validation_error naming it", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", {
			method: "POST",
			key: admin,
			body: '{"name":"x","status":"y"}',
		});
		const error = await expectError(response, "validation_error", "status");
		expect(error.message).toContain("status");
	});

	it("a field breaking a rule is a 422 validation_error naming it", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", {
			method: "POST",
			key: admin,
			body: JSON.stringify({ name: "x".repeat(201) }),
		});
		await expectError(response, "validation_error", "name");
	});

	it("a field of the wrong type is a 422 validation_error, not a missing field", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: '{"name":42}' });
		await expectError(response, "validation_error", "name");
	});

	it("an error body echoes a sane incoming request id", async () => {
		const response = await api("/v1/catalog", { headers: { "X-Request-Id": "partner-trace-7" } });
		const error = await expectError(response, "unauthorized");
		expect(error.request_id).toBe("partner-trace-7");
	});
});

describe("X-Content-Type-Options", () => {
	it("is nosniff on every response: a success, errors from routes and from middleware, 404s, docs and console pages", async () => {
		const admin = await createAdminKey();
		const responses = [
			await api("/v1/health"),
			await api("/v1/catalog", { key: admin }),
			await api("/v1/catalog"),
			await api("/v1/admin/accounts", { method: "POST", key: admin, body: "{}" }),
			await api("/v1/admin/accounts", {
				method: "POST",
				key: admin,
				body: JSON.stringify({ name: "x".repeat(MAX_JSON_BODY_BYTES) }),
			}),
			await api("/v1/no-such-thing"),
			await api("/"),
			await api("/v1/openapi.json"),
			await api("/v1/docs"),
			await api("/ops/sign-in"),
		];
		for (const response of responses) {
			expect(response.headers.get("X-Content-Type-Options"), `${response.status} ${response.url}`).toBe("nosniff");
		}
	});
});

describe("renderError and renderNotFound", () => {
	it("a conflict renders as 409 with its field", async () => {
		const response = await errorProbeApp().request("/conflict");
		const error = await expectError(response, "conflict", "external_id");
		expect(error.message).toBe("Order ord_123 already uses this external_id.");
	});

	it("an unexpected exception is a 500 server_error with a generic message and no internals", async () => {
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		const response = await errorProbeApp().request("/crash");
		const text = await response.clone().text();
		const error = await expectError(response, "server_error");
		expect(text).not.toContain("boom");
		expect(text).not.toContain("secret");
		expect(text).not.toMatch(/stack|\bat \S+ \(/);
		expect(error.message).toMatch(/request id/);
		// The stack goes to the log instead, with the request id.
		expect(logged).toHaveBeenCalledTimes(1);
		const line = String(logged.mock.calls[0]?.[0]);
		expect(line).toContain("boom with secret stack");
		expect(line).toContain(error.request_id);
		expect(JSON.parse(line)).toHaveProperty("stack");
	});

	it("an ApiError is not logged as unexpected", async () => {
		const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
		await errorProbeApp().request("/conflict");
		expect(logged).not.toHaveBeenCalled();
	});

	it("an unmatched path renders as 404 not_found naming the method and path", async () => {
		const response = await errorProbeApp().request("/nowhere", { method: "PATCH" });
		const error = await expectError(response, "not_found");
		expect(error.message).toContain("PATCH /nowhere");
	});

	it.each(Object.entries(ERROR_STATUS))("type %s renders with status %i", async (type, status) => {
		vi.spyOn(console, "error").mockImplementation(() => undefined);
		const response = await errorProbeApp().request(`/typed/${type}`);
		expect(response.status).toBe(status);
		await expectError(response, type as ErrorType);
	});

	it("the nine types of the spec are the only ones", () => {
		expect(ERROR_STATUS).toEqual({
			bad_request: 400,
			unauthorized: 401,
			forbidden: 403,
			not_found: 404,
			conflict: 409,
			validation_error: 422,
			rate_limited: 429,
			server_error: 500,
			unavailable: 503,
		});
	});
});

describe("validation (src/http/validation.ts)", () => {
	const OrderLike = z.strictObject({
		external_id: z.string().min(1),
		ship_to: z.strictObject({ name: z.string(), country: z.string().length(2) }),
		items: z.array(z.strictObject({ width_in: z.number().positive(), frame: z.string().optional() })).min(1),
	});
	const valid = { external_id: "A-1", ship_to: { name: "Ada", country: "GB" }, items: [{ width_in: 8 }] };

	function errorFor(input: unknown): ApiError {
		const result = OrderLike.safeParse(input);
		if (result.success) throw new Error("expected the input to fail validation");
		return validationErrorFrom(result.error, input);
	}

	it("fieldPath writes array indexes in brackets and keys with dots", () => {
		expect(fieldPath(["items", 0, "width_in"])).toBe("items[0].width_in");
		expect(fieldPath(["ship_to", "country"])).toBe("ship_to.country");
		expect(fieldPath(["items", 12])).toBe("items[12]");
		expect(fieldPath(["name"])).toBe("name");
		expect(fieldPath([])).toBe("");
	});

	it("a nested missing field is a 400 with its path", () => {
		const error = errorFor({ ...valid, items: [{ width_in: 8 }, {}] });
		expect(error.type).toBe("bad_request");
		expect(error.status).toBe(400);
		expect(error.field).toBe("items[1].width_in");
	});

	it("a missing object field is a 400 with its dotted path", () => {
		const error = errorFor({ ...valid, ship_to: { name: "Ada" } });
		expect(error.type).toBe("bad_request");
		expect(error.field).toBe("ship_to.country");
	});

	it("a nested rule failure is a 422 with its path", () => {
		const error = errorFor({ ...valid, items: [{ width_in: -3 }] });
		expect(error.type).toBe("validation_error");
		expect(error.status).toBe(422);
		expect(error.field).toBe("items[0].width_in");
	});

	it("a nested unknown field is a 422 naming its full path", () => {
		const error = errorFor({ ...valid, items: [{ width_in: 8, status: "shipped" }] });
		expect(error.type).toBe("validation_error");
		expect(error.field).toBe("items[0].status");
	});

	it("a missing field wins over another field's rule failure", () => {
		const error = errorFor({ external_id: "", ship_to: { country: "GB" }, items: [{ width_in: 8 }] });
		expect(error.type).toBe("bad_request");
		expect(error.field).toBe("ship_to.name");
	});

	it("a missing enum, literal or union field is a 400 too, not a 422", () => {
		const Choice = z.strictObject({
			mode: z.enum(["live", "test"]),
			kind: z.literal("framed"),
			size: z.union([z.number(), z.string()]),
		});
		for (const [input, field] of [
			[{ kind: "framed", size: 8 }, "mode"],
			[{ mode: "live", size: 8 }, "kind"],
			[{ mode: "live", kind: "framed" }, "size"],
		] as const) {
			const result = Choice.safeParse(input);
			if (result.success) throw new Error("expected the input to fail validation");
			const error = validationErrorFrom(result.error, input);
			expect(error.type).toBe("bad_request");
			expect(error.field).toBe(field);
		}
	});

	it("a wrong enum value is a 422", () => {
		const Choice = z.strictObject({ mode: z.enum(["live", "test"]) });
		const input = { mode: "staging" };
		const result = Choice.safeParse(input);
		if (result.success) throw new Error("expected the input to fail validation");
		const error = validationErrorFrom(result.error, input);
		expect(error.type).toBe("validation_error");
		expect(error.field).toBe("mode");
	});

	it("a body that is not an object is a 400 without a field", () => {
		for (const input of [null, [], "text", 7]) {
			const error = errorFor(input);
			expect(error.type).toBe("bad_request");
			expect(error.field).toBeUndefined();
		}
	});
});

describe("malformedTextPath", () => {
	it("finds the first string holding half an emoji, at any depth, and nothing in well-formed text", () => {
		expect(malformedTextPath({ a: "ok", b: ["fine", { c: "x\ud800" }] })).toEqual(["b", 1, "c"]);
		expect(malformedTextPath("\udc00")).toEqual([]);
		expect(malformedTextPath({ a: "😀", b: [1, null, true, "Ä"] })).toBeNull();
	});
});

describe("half an emoji in any request", () => {
	it("is a 422 naming the field on every validated route, not only the order routes (a print file's filename)", async () => {
		const key = (await createPartner()).keys.live.key;
		const response = await api("/v1/print-files", {
			method: "POST",
			key,
			body: JSON.stringify({ content_type: "image/png", filename: "art\ud800.png" }),
		});
		const error = await expectError(response, "validation_error", "filename");
		expect(error.message).toContain("well-formed Unicode");
	});
});

describe("a JSON body that is not valid UTF-8", () => {
	// Each would otherwise be read as U+FFFD, so different bytes would become the same text.
	it.each([
		["a lone 0xFF", [0xff]],
		["a lead byte without its continuation", [0xc3, 0x28]],
		["an overlong encoding of NUL", [0xc0, 0x80]],
		["an encoded UTF-16 surrogate", [0xed, 0xa0, 0x80]],
		["a code point above U+10FFFF", [0xf4, 0x90, 0x80, 0x80]],
		["a sequence cut short", [0xe2, 0x82]],
	])("holding %s is a 400 bad_request, not text with a replacement character", async (_name, bytes) => {
		const admin = await createAdminKey();
		const body = jsonWithRawBytes('{"name":"Gallery <>"}', "<>", bytes);
		const error = await expectError(await sendBytes("POST", "/v1/admin/accounts", admin, body), "bad_request");
		expect(error.message).toContain("UTF-8");
	});

	it("is a 400 on PUT /v1/branding too, and no profile is stored", async () => {
		const key = (await createPartner()).keys.live.key;
		const body = jsonWithRawBytes('{"brand_name":"Lumen <>"}', "<>", [0xff]);
		await expectError(await sendBytes("PUT", "/v1/branding", key, body), "bad_request");
		await expectError(await api("/v1/branding", { key }), "not_found");
	});

	it("is a 400 even when the Content-Type names another charset (JSON is UTF-8)", async () => {
		const admin = await createAdminKey();
		const latin1 = jsonWithRawBytes('{"name":"Caf<>"}', "<>", [0xe9]);
		const response = await sendBytes(
			"POST",
			"/v1/admin/accounts",
			admin,
			latin1,
			"application/json; charset=iso-8859-1",
		);
		await expectError(response, "bad_request");
	});

	it("is still a 401 without a key: authentication comes before reading the body", async () => {
		const body = jsonWithRawBytes('{"name":"<>"}', "<>", [0xff]);
		const response = await api("/v1/admin/accounts", {
			method: "POST",
			body,
			headers: { "Content-Type": "application/json" },
		});
		await expectError(response, "unauthorized");
	});

	it("well-formed multi-byte UTF-8 after a byte order mark is accepted, the mark dropped (RFC 8259 8.1)", async () => {
		const admin = await createAdminKey();
		const body = jsonWithRawBytes('<>{"name":"Galería Ünïcødé 😀"}', "<>", [0xef, 0xbb, 0xbf]);
		const response = await sendBytes("POST", "/v1/admin/accounts", admin, body);
		expect(response.status).toBe(201);
		expect(((await response.json()) as { account: { name: string } }).account.name).toBe("Galería Ünïcødé 😀");
	});
});
