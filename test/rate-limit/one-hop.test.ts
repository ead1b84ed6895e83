/**
 * Authentication and the rate limit in one round trip: the key's limiter holds the key's principal,
 * read from D1 once, and drops it when the API revokes the key or changes its account's limits.
 */
import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/accounts/keys.ts";
import { PRINCIPAL_TTL_MS } from "../../src/rate-limit/principal-hold.ts";
import { api, createAdminKey, createPartner, expectError, rateLimitHeaders, send } from "../helpers.ts";

async function limiterOf(key: string) {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(await hashApiKey(key)));
}

describe("authentication and the rate limit in one round trip", () => {
	it("reads the key's row once: a later change written straight to D1 is not read until the limiter forgets", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		expect((await api("/v1/events", { key })).status).toBe(200);
		// Straight to D1, as no API route would: the key loses events:read.
		await env.DB.prepare("UPDATE api_keys SET scopes = 'orders:read' WHERE id = ?1").bind(partner.keys.live.id).run();
		// The limiter answered from the principal it holds: no D1 read for this request's key.
		expect((await api("/v1/events", { key })).status).toBe(200);
		await runInDurableObject(await limiterOf(key), (limiter) => limiter.forget());
		await expectError(await api("/v1/events", { key }), "forbidden");
		expect(PRINCIPAL_TTL_MS).toBeLessThanOrEqual(60_000);
	});

	it("a key revoked through the API is refused on its very next request, though its limiter held it", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		expect((await api("/v1/catalog", { key })).status).toBe(200);
		const revoked = await api(`/v1/admin/keys/${partner.keys.live.id}/revoke`, {
			method: "POST",
			key: await createAdminKey(),
		});
		expect(revoked.status).toBe(200);
		const error = await expectError(await api("/v1/catalog", { key }), "unauthorized");
		expect(error.message).toContain("revoked");
		// The account's other key is untouched.
		expect((await api("/v1/catalog", { key: partner.keys.test.key })).status).toBe(200);
	});

	it("new limits set through the API apply to every key of the account on its very next request", async () => {
		const partner = await createPartner();
		for (const key of [partner.keys.live.key, partner.keys.test.key]) {
			expect(rateLimitHeaders(await api("/v1/catalog", { key })).limit).toBe(120);
		}
		const changed = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			requests_per_minute: 5,
		});
		expect(changed.status).toBe(200);
		for (const key of [partner.keys.live.key, partner.keys.test.key]) {
			expect(rateLimitHeaders(await api("/v1/catalog", { key })).limit).toBe(5);
		}
	});

	it("an unknown key is refused without being counted, and many requests with it at once all get 401", async () => {
		const unknown = `fps_live_${"Z9y8X7w6".repeat(4)}`;
		const answers = await Promise.all(Array.from({ length: 20 }, () => api("/v1/catalog", { key: unknown })));
		for (const answer of answers) {
			await expectError(answer, "unauthorized");
			expect(answer.headers.has("X-RateLimit-Limit")).toBe(false);
		}
		const counted = await runInDurableObject(await limiterOf(unknown), (_limiter, state) => {
			return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		});
		expect(counted).toBe(0);
	});
});
