import { Webhook } from "standardwebhooks";
import { describe, expect, it } from "vitest";
import { generateWebhookSecret } from "../../src/accounts/keys.ts";
import { standardWebhookHeaders } from "../../src/webhooks/standard-webhooks.ts";

describe("standardWebhookHeaders", () => {
	const issued = "whsec_Zm9yMjRieXRlc29ma2V5bWF0ZXJpYWwhIQ00";
	const rotatedFrom = "whsec_b2xkc2VjcmV0b2xkc2VjcmV0b2xkc2VjcmV0";

	it("signs id.timestamp.body as the standardwebhooks library verifies, with the secret as issued", () => {
		const body = JSON.stringify({ id: "evt_1", event: "order.shipped" });
		const now = Math.floor(Date.now() / 1000);
		const headers = standardWebhookHeaders("evt_1", body, [issued], now);
		expect(headers["webhook-id"]).toBe("evt_1");
		expect(headers["webhook-timestamp"]).toBe(String(now));
		expect(new Webhook(issued).verify(body, headers)).toEqual(JSON.parse(body));
		expect(() => new Webhook(rotatedFrom).verify(body, headers)).toThrow();
	});

	it("during a rotation carries one v1 per secret, new first, and either verifies", () => {
		const body = "{}";
		const headers = standardWebhookHeaders("evt_2", body, [issued, rotatedFrom], Math.floor(Date.now() / 1000));
		expect(headers["webhook-signature"].split(" ")).toHaveLength(2);
		expect(new Webhook(issued).verify(body, headers)).toEqual({});
		expect(new Webhook(rotatedFrom).verify(body, headers)).toEqual({});
	});

	it("a service secret (whsec_ and 32 base62 characters) is a valid Standard Webhooks secret", () => {
		const secret = generateWebhookSecret();
		const headers = standardWebhookHeaders("evt_3", "{}", [secret], Math.floor(Date.now() / 1000));
		expect(new Webhook(secret).verify("{}", headers)).toEqual({});
	});

	it("is keyed as documented: HMAC-SHA256 of id.timestamp.body under the bytes the base64 after whsec_ decodes to", async () => {
		const secret = generateWebhookSecret();
		const body = JSON.stringify({ id: "evt_4", note: "naïve – ünïcode" });
		const headers = standardWebhookHeaders("evt_4", body, [secret], 1_800_000_000);
		const keyBytes = Uint8Array.from(atob(secret.slice("whsec_".length)), (character) => character.charCodeAt(0));
		expect(keyBytes).toHaveLength(24);
		const key = await crypto.subtle.importKey("raw", keyBytes, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
		const content = new TextEncoder().encode(`evt_4.1800000000.${body}`);
		const digest = new Uint8Array(await crypto.subtle.sign("HMAC", key, content));
		expect(headers["webhook-signature"]).toBe(`v1,${btoa(String.fromCharCode(...digest))}`);
	});

	it("refuses to sign without a secret, or with one that is not whsec_ and base64", () => {
		expect(() => standardWebhookHeaders("evt_5", "{}", [], 1_800_000_000)).toThrow();
		expect(() => standardWebhookHeaders("evt_5", "{}", ["whsec_not base64!"], 1_800_000_000)).toThrow();
	});
});
