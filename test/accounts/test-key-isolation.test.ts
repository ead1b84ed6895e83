/**
 * A test key never changes what live orders do: every account-level write a partner key can make
 * (the brand profile, webhook endpoints, the webhook secret) made with the test key leaves the live
 * side exactly as it was. Operator and admin settings (the edit window, limits, prices) need live-only keys.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { signingSecrets } from "../../src/webhooks/secret-store.ts";
import { api, createPartner, expectError, insertKeyRow, send } from "../helpers.ts";
import { HOOKS } from "../webhooks/webhook-helpers.ts";

/** What a live order ships and is told with: the live brand, the live endpoints, the live signing secret. */
async function liveSide(liveKey: string, accountId: string) {
	return {
		branding: await (await api("/v1/branding", { key: liveKey })).json(),
		endpoints: await (await api("/v1/webhook-endpoints", { key: liveKey })).json(),
		secrets: await signingSecrets(env.DB, accountId, "live", new Date()),
	};
}

describe("a test key never changes the settings live orders ship and are told with", () => {
	it("PUT and DELETE /v1/branding, endpoints registered and removed, and a secret rotation with the test key leave the live side as it was", async () => {
		const partner = await createPartner("Lumen Prints");
		const [live, test] = [partner.keys.live.key, partner.keys.test.key];
		expect((await send("PUT", "/v1/branding", live, { brand_name: "Lumen Prints" })).status).toBe(200);
		const liveEndpoint = await send("POST", "/v1/webhook-endpoints", live, {
			url: `${HOOKS}/live`,
			events: ["order.shipped"],
		});
		expect(liveEndpoint.status).toBe(201);
		const before = await liveSide(live, partner.account.id);

		expect((await send("PUT", "/v1/branding", test, { brand_name: "Sandbox Brand" })).status).toBe(200);
		expect((await api("/v1/branding", { method: "DELETE", key: test })).status).toBe(204);
		const testEndpoint = await send("POST", "/v1/webhook-endpoints", test, {
			url: `${HOOKS}/test`,
			events: ["order.shipped"],
		});
		expect(testEndpoint.status).toBe(201);
		const { id } = (await testEndpoint.json()) as { id: string };
		expect((await api(`/v1/webhook-endpoints/${id}`, { method: "DELETE", key: test })).status).toBe(204);
		expect((await api("/v1/webhook-secret/rotate", { method: "POST", key: test })).status).toBe(201);
		// The live endpoint is not the test key's to remove.
		const { id: liveId } = (await liveEndpoint.json()) as { id: string };
		await expectError(await api(`/v1/webhook-endpoints/${liveId}`, { method: "DELETE", key: test }), "not_found", "id");

		expect(await liveSide(live, partner.account.id)).toEqual(before);
	});

	it("the account's own settings are an admin's, and a test key can hold no admin scope", async () => {
		const partner = await createPartner();
		const refused = await send("PUT", `/v1/admin/accounts/${partner.account.id}/settings`, partner.keys.test.key, {
			edit_window_minutes: 30,
		});
		expect(refused.status).toBe(403);
		// Even a test key holding admin (issued before the rule) is refused outright.
		const testAdmin = await insertKeyRow(["admin"], "test");
		const body = { edit_window_minutes: 30 };
		const asAdmin = await send("PUT", `/v1/admin/accounts/${partner.account.id}/settings`, testAdmin, body);
		expect(asAdmin.status).toBe(403);
	});
});
