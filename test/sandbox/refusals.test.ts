/** Who the sandbox's controls refuse: live keys on every one, and other accounts' or other modes' orders and claims. */
import { describe, expect, it } from "vitest";
import { api, createPartner, expectError, send } from "../helpers.ts";
import { createOrder, orderBody, readyFile } from "../orders/order-helpers.ts";
import { sandboxPartner, simulate, simulateOk } from "./sandbox-helpers.ts";

/** Every sandbox control, as method, path and body, for an order and a claim id. */
function controls(orderId: string, claimId: string): Array<[string, string, unknown]> {
	return [
		["POST", `/v1/sandbox/orders/${orderId}/advance`, undefined],
		["POST", `/v1/sandbox/orders/${orderId}/simulate`, { action: "cancel" }],
		["POST", `/v1/sandbox/claims/${claimId}/simulate`, { action: "reject", message: "No." }],
		["GET", "/v1/sandbox/settings", undefined],
		["PUT", "/v1/sandbox/settings", { progress: "manual" }],
		["POST", "/v1/sandbox/events", { type: "order.shipped" }],
	];
}

describe("sandbox refusals", () => {
	it("refuses a live key on every sandbox control with 403 sandbox_needs_test_key, moving nothing", async () => {
		const { liveKey, file } = await sandboxPartner();
		const liveFile = await readyFile(liveKey, 2400, 3000);
		const live = await createOrder(liveKey, orderBody(liveFile));
		expect(file).not.toBe(liveFile);
		for (const [method, path, body] of controls(live.id, "clm_any")) {
			const response =
				body === undefined ? await api(path, { method, key: liveKey }) : await send(method, path, liveKey, body);
			const error = await expectError(response, "forbidden");
			expect([path, error.code]).toEqual([path, "sandbox_needs_test_key"]);
		}
		const read = await api(`/v1/orders/${live.id}`, { key: liveKey });
		expect(((await read.json()) as { status: string }).status).not.toBe("canceled");
	});

	it("answers 404 for another account's test order and for the same account's live order", async () => {
		const owner = await sandboxPartner({ progress: "manual" });
		const stranger = await sandboxPartner({ progress: "manual" });
		const order = await createOrder(owner.key, orderBody(owner.file));
		const liveFile = await readyFile(owner.liveKey, 2400, 3000);
		const live = await createOrder(owner.liveKey, orderBody(liveFile));
		const error = await expectError(await simulate(stranger.key, order.id, { action: "cancel" }), "not_found", "id");
		expect(error.code).toBe("order_not_found");
		const liveError = await expectError(await simulate(owner.key, live.id, { action: "cancel" }), "not_found", "id");
		expect(liveError.code).toBe("order_not_found");
		expect((await simulateOk(owner.key, order.id, { action: "validate" })).status).toBe("in_production");
	});

	it("answers 404 for another account's claim", async () => {
		const stranger = await sandboxPartner();
		const response = await send("POST", "/v1/sandbox/claims/clm_missing/simulate", stranger.key, {
			action: "approve",
			remedy: "refund",
		});
		const error = await expectError(response, "not_found", "id");
		expect(error.code).toBe("claim_not_found");
	});

	it("refuses a progress the sandbox does not know, keeping the setting", async () => {
		const partner = await createPartner();
		const key = partner.keys.test.key;
		const response = await send("PUT", "/v1/sandbox/settings", key, { progress: "sometimes" });
		expect(response.status).toBe(422);
		expect(await (await api("/v1/sandbox/settings", { key })).json()).toEqual({ progress: "automatic" });
	});
});
