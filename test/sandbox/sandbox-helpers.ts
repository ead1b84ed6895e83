/** A partner rehearsing in the sandbox: its test key and secret, a ready test file, and its test endpoint. */
import { expect } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import type { Order } from "../../src/orders/response.ts";
import { api, createPartner, send } from "../helpers.ts";
import { readyFile } from "../orders/order-helpers.ts";
import { hookUrl } from "../webhooks/webhook-helpers.ts";

/** A fresh partner's test side: key, webhook secret, a ready 2400 × 3000 px file, and a test endpoint for every event. */
export async function sandboxPartner(options: { progress?: "automatic" | "manual" } = {}) {
	const partner = await createPartner("Sandbox Gallery");
	const key = partner.keys.test.key;
	if (options.progress !== undefined) {
		const set = await send("PUT", "/v1/sandbox/settings", key, { progress: options.progress });
		expect(set.status).toBe(200);
	}
	const hook = hookUrl("ok");
	const added = await send("POST", "/v1/webhook-endpoints", key, { url: hook });
	expect(added.status).toBe(201);
	const file = await readyFile(key, 2400, 3000);
	return { partner, key, liveKey: partner.keys.live.key, secret: partner.webhook_secrets.test, hook, file };
}

/** POST /v1/sandbox/orders/{id}/simulate: the response, whatever it is. */
export function simulate(key: string, orderId: string, body: unknown): Promise<Response> {
	return send("POST", `/v1/sandbox/orders/${orderId}/simulate`, key, body);
}

/** A simulation that must succeed: the order after it. */
export async function simulateOk(key: string, orderId: string, body: unknown): Promise<Order> {
	const response = await simulate(key, orderId, body);
	if (response.status !== 200) {
		throw new Error(`simulate ${JSON.stringify(body)}: expected 200, got ${response.status}: ${await response.text()}`);
	}
	return (await response.json()) as Order;
}

/** POST /v1/sandbox/claims/{id}/simulate, expecting 200: the claim after it. */
export async function decideOk(key: string, claimId: string, body: unknown): Promise<Claim> {
	const response = await send("POST", `/v1/sandbox/claims/${claimId}/simulate`, key, body);
	if (response.status !== 200)
		throw new Error(`decide: expected 200, got ${response.status}: ${await response.text()}`);
	return (await response.json()) as Claim;
}

/** The order as the test key reads it. */
export async function orderOf(key: string, orderId: string): Promise<Order> {
	const response = await api(`/v1/orders/${orderId}`, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as Order;
}
