import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ERROR_CODES, type ErrorCode } from "../../src/error-catalog.ts";
import type { PublicEnv } from "../../src/http/app-env.ts";
import { ApiError, ERROR_STATUS } from "../../src/http/errors.ts";
import { renderError } from "../../src/http/on-error.ts";
import { stampRequestId } from "../../src/http/request-id.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";
import {
	createOrder,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	postOrder,
	readyFile,
	settleValidation,
} from "../orders/order-helpers.ts";

/** The service's error plumbing around one route that throws the error made from `code`. */
function codeProbeApp() {
	const probe = new Hono<PublicEnv>();
	probe.use("*", stampRequestId);
	probe.onError(renderError);
	probe.get("/code/:code", (c) => {
		throw new ApiError(c.req.param("code") as ErrorCode, "A refusal.");
	});
	return probe;
}

describe("error codes in the envelope", () => {
	it.each(Object.keys(ERROR_CODES) as ErrorCode[])(
		"%s is always sent with its own type and that type's status",
		async (code) => {
			const response = await codeProbeApp().request(`/code/${code}`, {}, env);
			const error = await expectError(response, ERROR_CODES[code].type);
			expect(error.code).toBe(code);
			expect(response.status).toBe(ERROR_STATUS[ERROR_CODES[code].type]);
		},
	);

	it("an error made from a bare type carries no code", async () => {
		const error = new ApiError("conflict", "Something conflicts.");
		expect(error.type).toBe("conflict");
		expect(error.code).toBeUndefined();
	});

	it("an invalid JSON body is 400 malformed_json", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: '{"name":' });
		expect((await expectError(response, "bad_request")).code).toBe("malformed_json");
	});

	it("a missing required field is 400 field_required, naming the field", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: "{}" });
		expect((await expectError(response, "bad_request", "name")).code).toBe("field_required");
	});

	it("a field breaking a rule is 422 invalid_field, naming the field", async () => {
		const admin = await createAdminKey();
		const response = await send("POST", "/v1/admin/accounts", admin, { name: "" });
		expect((await expectError(response, "validation_error", "name")).code).toBe("invalid_field");
	});

	it("a request without a key is 401 api_key_missing", async () => {
		expect((await expectError(await api("/v1/catalog"), "unauthorized")).code).toBe("api_key_missing");
	});

	it("an unknown path is 404 route_not_found", async () => {
		const partner = await createPartner();
		const response = await api("/v1/no-such-thing", { key: partner.keys.live.key });
		expect((await expectError(response, "not_found")).code).toBe("route_not_found");
	});

	it("an unknown print file's GET is 404 print_file_not_found", async () => {
		const partner = await createPartner();
		const response = await api("/v1/print-files/pf_doesnotexist", { key: partner.keys.live.key });
		expect((await expectError(response, "not_found", "id")).code).toBe("print_file_not_found");
	});

	it("an order naming an unknown print file is 422 unknown_print_file on the item's print_file_id", async () => {
		const partner = await createPartner();
		const response = await postOrder(partner.keys.live.key, orderBody("pf_doesnotexist"));
		const error = await expectError(response, "validation_error", "items[0].print_file_id");
		expect(error.code).toBe("unknown_print_file");
		expect(error.message).toContain("pf_doesnotexist");
	});

	it("an order whose uploaded file is under 150 DPI at its size is 422 file_resolution_too_low, as a hold would say", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const file = await readyFile(key, 800, 1000);
		const response = await postOrder(key, orderBody(file));
		const error = await expectError(response, "validation_error", "items[0].print_file_id");
		expect(error.code).toBe("file_resolution_too_low");
	});

	it("a reused external_id with other content is 409 idempotency_key_reused", async () => {
		const { key, file } = await partnerWithFile();
		const body = orderBody(file);
		await createOrder(key, body);
		const response = await postOrder(key, { ...body, items: [{ ...body.items[0], width_in: 9 }] });
		expect((await expectError(response, "conflict", "external_id")).code).toBe("idempotency_key_reused");
	});

	it("changing an item of an order the floor has started is 409 order_not_editable", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		expect(order.status).toBe("in_production");
		await opsMoveOk(opsKey, order.id, "start");
		const response = await send("PATCH", `/v1/orders/${order.id}/items/${order.items[0]?.id}`, key, { width_in: 9 });
		expect((await expectError(response, "conflict")).code).toBe("order_not_editable");
	});

	it("canceling a shipped order is 409 order_move_refused", async () => {
		const { key, file, opsKey } = await partnerWithFile({ opsKey: true });
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		await opsMoveOk(opsKey, order.id, "ship", {
			carrier: "UPS",
			number: "1Z999AA10123456784",
			url: "https://www.ups.com/track?tracknum=1Z999AA10123456784",
		});
		const response = await api(`/v1/orders/${order.id}/cancel`, { method: "POST", key });
		expect((await expectError(response, "conflict")).code).toBe("order_move_refused");
	});

	it("a key over its request limit is 429 rate_limit_exceeded with Retry-After", async () => {
		const partner = await createPartner();
		await env.DB.prepare("UPDATE accounts SET requests_per_minute = 1 WHERE id = ?1").bind(partner.account.id).run();
		const key = partner.keys.live.key;
		expect((await api("/v1/catalog", { key })).status).toBe(200);
		const response = await api("/v1/catalog", { key });
		expect((await expectError(response, "rate_limited")).code).toBe("rate_limit_exceeded");
		expect(Number(response.headers.get("Retry-After"))).toBeGreaterThan(0);
	});

	it("an order beyond the account's order burst is 429 order_rate_limit_exceeded", async () => {
		const { key, file } = await partnerWithFile({ orderBurst: 1 });
		await createOrder(key, orderBody(file));
		const response = await postOrder(key, orderBody(file));
		expect((await expectError(response, "rate_limited")).code).toBe("order_rate_limit_exceeded");
	});

	it("an order on hold lists each problem with its own code, the first being the hold reason", async () => {
		const { key, file } = await partnerWithFile();
		const created = await createOrder(key, orderBody(file, {}, { frame: "no-such-frame", mat: "no-such-mat" }));
		const held = await settleValidation(key, created.id);
		expect(held.status).toBe("on_hold");
		expect(held.hold_details.map((detail) => [detail.field, detail.code])).toEqual([
			["frame", "frame_not_found"],
			["mat", "mat_not_found"],
		]);
		expect(held.hold_reason).toBe(held.hold_details[0]?.code);
	});
});
