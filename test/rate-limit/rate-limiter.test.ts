import { runInDurableObject } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { authenticate } from "../../src/access/auth.ts";
import type { AuthedEnv } from "../../src/accounts/authed-env.ts";
import { hashApiKey } from "../../src/accounts/keys.ts";
import { DEFAULT_LIMITS } from "../../src/accounts/store.ts";
import { renderError, renderNotFound } from "../../src/http/on-error.ts";
import { stampRequestId } from "../../src/http/request-id.ts";
import { api, createAdminKey, createPartner, expectError, rateLimitHeaders, send } from "../helpers.ts";

const MINUTE = 60_000;

/** The limiter of a name that no other test uses. */
function freshLimiter() {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(`test-${crypto.randomUUID()}`));
}

async function limiterOfKey(key: string) {
	return env.RATE_LIMITER.get(env.RATE_LIMITER.idFromName(await hashApiKey(key)));
}

/** Unix seconds now, for checking X-RateLimit-Reset. */
function nowSeconds(): number {
	return Date.now() / 1000;
}

describe("per-key request limit (every authenticated route)", () => {
	it("200 concurrent requests with one key: exactly 120 succeed and 80 are 429", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const responses = await Promise.all(Array.from({ length: 200 }, () => api("/v1/catalog", { key })));
		const ok = responses.filter((response) => response.status === 200);
		const limited = responses.filter((response) => response.status === 429);
		expect(ok).toHaveLength(120);
		expect(limited).toHaveLength(80);

		// Each admitted request got its own slot: remaining values are exactly 119 down to 0.
		const remaining = ok.map((response) => rateLimitHeaders(response).remaining).sort((a, b) => b - a);
		expect(remaining).toEqual(Array.from({ length: 120 }, (_, i) => 119 - i));

		for (const response of limited) {
			const error = await expectError(response, "rate_limited");
			expect(error.message).toContain("120 per minute");
			const retryAfter = Number(response.headers.get("Retry-After"));
			expect(Number.isInteger(retryAfter)).toBe(true);
			expect(retryAfter).toBeGreaterThanOrEqual(1);
			expect(retryAfter).toBeLessThanOrEqual(60);
			const headers = rateLimitHeaders(response);
			expect(headers.limit).toBe(120);
			expect(headers.remaining).toBe(0);
			expect(Number.isInteger(headers.reset)).toBe(true);
		}
		for (const response of ok) await response.body?.cancel();
	});

	it("success responses carry X-RateLimit-Limit 120, a decreasing Remaining and a Reset within the next minute", async () => {
		const partner = await createPartner();
		const seen: Array<{ limit: number; remaining: number; reset: number }> = [];
		for (let i = 0; i < 3; i++) {
			const response = await api("/v1/catalog", { key: partner.keys.live.key });
			expect(response.status).toBe(200);
			expect(response.headers.get("Retry-After")).toBeNull();
			seen.push(rateLimitHeaders(response));
		}
		expect(seen.map((headers) => headers.limit)).toEqual([120, 120, 120]);
		expect(seen.map((headers) => headers.remaining)).toEqual([119, 118, 117]);
		for (const { reset } of seen) {
			expect(Number.isInteger(reset)).toBe(true);
			expect(reset).toBeGreaterThan(nowSeconds());
			expect(reset).toBeLessThanOrEqual(nowSeconds() + 61);
		}
		// Reset is when the first request of the window leaves it, so it holds still while that one is counted.
		expect(new Set(seen.map((headers) => headers.reset)).size).toBe(1);
	});

	it("error responses of authenticated routes carry the headers too (a 403 and a 422)", async () => {
		const partner = await createPartner();
		const forbidden = await send("POST", "/v1/admin/accounts", partner.keys.live.key, { name: "x" });
		await expectError(forbidden, "forbidden");
		expect(rateLimitHeaders(forbidden)).toMatchObject({ limit: 120, remaining: 119 });
		expect(Number.isInteger(rateLimitHeaders(forbidden).reset)).toBe(true);

		const admin = await createAdminKey();
		const invalid = await send("POST", "/v1/admin/accounts", admin, { name: "" });
		await expectError(invalid, "validation_error", "name");
		expect(rateLimitHeaders(invalid)).toMatchObject({ limit: 120, remaining: 119 });
	});

	it("a refused request does not use up a slot", async () => {
		const partner = await createPartner();
		await env.DB.prepare("UPDATE accounts SET requests_per_minute = 2 WHERE id = ?1").bind(partner.account.id).run();
		const key = partner.keys.live.key;
		for (let i = 0; i < 2; i++) expect((await api("/v1/catalog", { key })).status).toBe(200);
		for (let i = 0; i < 3; i++) await expectError(await api("/v1/catalog", { key }), "rate_limited");
		const count = await runInDurableObject(await limiterOfKey(partner.keys.live.key), (_limiter, state) => {
			return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		});
		expect(count).toBe(2);
	});

	it("separate keys have separate windows, even on one account", async () => {
		const partner = await createPartner();
		await env.DB.prepare("UPDATE accounts SET requests_per_minute = 3 WHERE id = ?1").bind(partner.account.id).run();
		for (let i = 0; i < 3; i++) expect((await api("/v1/catalog", { key: partner.keys.live.key })).status).toBe(200);
		await expectError(await api("/v1/catalog", { key: partner.keys.live.key }), "rate_limited");

		const testKey = await api("/v1/catalog", { key: partner.keys.test.key });
		expect(testKey.status).toBe(200);
		expect(rateLimitHeaders(testKey)).toMatchObject({ limit: 3, remaining: 2 });

		const otherPartner = await createPartner();
		expect((await api("/v1/catalog", { key: otherPartner.keys.live.key })).status).toBe(200);
	});

	it("the key's limiter is the Durable Object named by its key's SHA-256 hash", async () => {
		const partner = await createPartner();
		for (let i = 0; i < 4; i++) await api("/v1/catalog", { key: partner.keys.test.key });
		const count = await runInDurableObject(await limiterOfKey(partner.keys.test.key), (_limiter, state) => {
			return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		});
		expect(count).toBe(4);
	});
});

describe("RateLimiter Durable Object", () => {
	it("hitRequest admits up to the limit, then refuses with a retry time", async () => {
		const limiter = freshLimiter();
		const decisions = [];
		for (let i = 0; i < 4; i++) decisions.push(await limiter.hitRequest(3, MINUTE));
		expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, false]);
		expect(decisions.map((decision) => decision.remaining)).toEqual([2, 1, 0, 0]);
		expect(decisions[3]?.retryAfterSeconds).toBeGreaterThanOrEqual(59);
		expect(decisions[3]?.retryAfterSeconds).toBeLessThanOrEqual(60);
	});

	it("a request is counted without reading the window: 5,000 logged requests, and a hit reads a handful of rows", async () => {
		const limiter = freshLimiter();
		const rowsRead = await runInDurableObject(limiter, (instance, state) => {
			const sql = state.storage.sql;
			// A busy key's last minute, logged before this instance counts anything.
			sql.exec(
				`WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5000)
				 INSERT INTO request_log (at) SELECT ? - i FROM n`,
				Date.now(),
			);
			const first = instance.hitRequest(1_000_000, MINUTE);
			expect(first).toMatchObject({ allowed: true, remaining: 1_000_000 - 5001 });
			// What the next hits read, cursor by cursor.
			const cursors: SqlStorageCursor<Record<string, SqlStorageValue>>[] = [];
			const exec = sql.exec.bind(sql);
			sql.exec = ((query: string, ...bindings: unknown[]) => {
				const cursor = exec(query, ...bindings);
				cursors.push(cursor);
				return cursor;
			}) as typeof sql.exec;
			const second = instance.hitRequest(1_000_000, MINUTE);
			const third = instance.hitRequest(1_000_000, MINUTE);
			sql.exec = exec;
			expect([second.remaining, third.remaining]).toEqual([1_000_000 - 5002, 1_000_000 - 5003]);
			return cursors.reduce((sum, cursor) => sum + cursor.rowsRead, 0);
		});
		// Two hits: the prune, the oldest entry and the insert, each an index lookup. The count is not read.
		expect(rowsRead).toBeLessThan(20);
		// And the count kept beside the log is the log's.
		const logged = await runInDurableObject(limiter, (_instance, state) => {
			return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		});
		expect(logged).toBe(5003);
	});

	it("hitRequest admits again once the window has passed", async () => {
		const limiter = freshLimiter();
		for (let i = 0; i < 3; i++) await limiter.hitRequest(3, MINUTE);
		expect((await limiter.hitRequest(3, MINUTE)).allowed).toBe(false);

		// Age every logged request by a full window instead of waiting one.
		await runInDurableObject(limiter, (_limiter, state) => {
			state.storage.sql.exec("UPDATE request_log SET at = at - ?", MINUTE);
		});
		const after = await limiter.hitRequest(3, MINUTE);
		expect(after.allowed).toBe(true);
		expect(after.remaining).toBe(2);
		const logged = await runInDurableObject(limiter, (_limiter, state) => {
			return state.storage.sql.exec<{ n: number }>("SELECT count(*) AS n FROM request_log").one().n;
		});
		expect(logged).toBe(1);
	});

	it("the window slides: only the requests that aged out free their slots", async () => {
		const limiter = freshLimiter();
		for (let i = 0; i < 3; i++) await limiter.hitRequest(3, MINUTE);
		// Move one logged request out of the window and one to 30 s ago.
		await runInDurableObject(limiter, (_limiter, state) => {
			const rows = state.storage.sql.exec<{ rowid: number }>("SELECT rowid FROM request_log ORDER BY rowid").toArray();
			state.storage.sql.exec("UPDATE request_log SET at = at - ? WHERE rowid = ?", MINUTE + 1, rows[0]?.rowid ?? -1);
			state.storage.sql.exec("UPDATE request_log SET at = at - ? WHERE rowid = ?", 30_000, rows[1]?.rowid ?? -1);
		});
		const admitted = await limiter.hitRequest(3, MINUTE);
		expect(admitted).toMatchObject({ allowed: true, remaining: 0 });
		// The oldest counted request is now the one 30 s old: the window resets about 30 s from now.
		expect(admitted.resetAt).toBeGreaterThanOrEqual(Math.floor(nowSeconds() + 29));
		expect(admitted.resetAt).toBeLessThanOrEqual(Math.ceil(nowSeconds() + 31));
		const refused = await limiter.hitRequest(3, MINUTE);
		expect(refused.allowed).toBe(false);
		expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(29);
		expect(refused.retryAfterSeconds).toBeLessThanOrEqual(31);
	});

	it("takeOrderToken admits a burst of 30, then refuses with retryAfterSeconds of at least 1", async () => {
		const limiter = freshLimiter();
		const decisions = [];
		for (let i = 0; i < 31; i++) decisions.push(await limiter.takeOrderToken(1, 30));
		expect(decisions.slice(0, 30).every((decision) => decision.allowed)).toBe(true);
		expect(decisions[0]?.remaining).toBe(29);
		const refused = decisions[30];
		expect(refused?.allowed).toBe(false);
		expect(refused?.retryAfterSeconds).toBeGreaterThanOrEqual(1);
	});

	it("takeOrderToken refills from the stored state as time passes", async () => {
		const limiter = freshLimiter();
		for (let i = 0; i < 30; i++) await limiter.takeOrderToken(1, 30);
		expect((await limiter.takeOrderToken(1, 30)).allowed).toBe(false);
		// Pretend the bucket was last touched 5 s ago instead of waiting 5 s.
		await runInDurableObject(limiter, (_limiter, state) => {
			state.storage.sql.exec("UPDATE order_bucket SET updated_at = updated_at - 5000");
		});
		const refilled = [];
		for (let i = 0; i < 6; i++) refilled.push((await limiter.takeOrderToken(1, 30)).allowed);
		expect(refilled).toEqual([true, true, true, true, true, false]);
	});

	it("concurrent takes never exceed the burst", async () => {
		const limiter = freshLimiter();
		const decisions = await Promise.all(Array.from({ length: 50 }, () => limiter.takeOrderToken(0.001, 30)));
		expect(decisions.filter((decision) => decision.allowed)).toHaveLength(30);
	});
});

describe("limitRequestsAndOrderCreation middleware", () => {
	/** A stand-in order-creation route behind the real auth middleware, the bucket and the real onError. */
	function orderApp() {
		const orders = new Hono<AuthedEnv>();
		orders.use("*", stampRequestId);
		orders.onError(renderError);
		orders.notFound(renderNotFound);
		orders.post("/v1/orders", authenticate({ orderCreate: true }), (c) => c.json({ created: true }, 201));
		return orders;
	}

	function createOrder(key: string): Promise<Response> {
		return Promise.resolve(
			orderApp().request("/v1/orders", { method: "POST", headers: { Authorization: `Bearer ${key}` } }, env),
		);
	}

	it("the 31st immediate order is a 429 naming the order-creation limit", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const burst = await Promise.all(Array.from({ length: DEFAULT_LIMITS.orderBurst }, () => createOrder(key)));
		expect(burst.map((response) => response.status)).toEqual(Array(30).fill(201));
		const refused = await createOrder(key);
		const error = await expectError(refused, "rate_limited");
		expect(error.message).toMatch(/order creation limit/i);
		expect(error.message).toContain("burst of 30");
		expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThanOrEqual(1);
	});

	it("an empty order bucket does not stop other requests, and creates count in the request window too", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		await Promise.all(Array.from({ length: 31 }, () => createOrder(key)));
		await expectError(await createOrder(key), "rate_limited");
		const read = await api("/v1/catalog", { key });
		expect(read.status).toBe(200);
		// 32 creates (admitted by the window, whatever the bucket said) and this read.
		expect(rateLimitHeaders(read).remaining).toBe(120 - 33);
	});

	it("each key has its own bucket", async () => {
		const partner = await createPartner();
		await Promise.all(Array.from({ length: 31 }, () => createOrder(partner.keys.live.key)));
		expect((await createOrder(partner.keys.test.key)).status).toBe(201);
	});

	it("an account override of the burst and rate changes the limit", async () => {
		const partner = await createPartner();
		const override = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			orders_per_second: 0.01,
			order_burst: 3,
		});
		expect(override.status).toBe(200);
		const key = partner.keys.live.key;
		for (let i = 0; i < 3; i++) expect((await createOrder(key)).status).toBe(201);
		const refused = await createOrder(key);
		const error = await expectError(refused, "rate_limited");
		expect(error.message).toContain("burst of 3");
		expect(error.message).toContain("0.01 per second");
		// One token per 100 s at 0.01 a second.
		expect(Number(refused.headers.get("Retry-After"))).toBeGreaterThan(90);
	});

	it("a larger burst override admits more than 30 at once", async () => {
		const partner = await createPartner();
		await env.DB.prepare("UPDATE accounts SET order_burst = 40 WHERE id = ?1").bind(partner.account.id).run();
		const key = partner.keys.live.key;
		const burst = await Promise.all(Array.from({ length: 40 }, () => createOrder(key)));
		expect(burst.every((response) => response.status === 201)).toBe(true);
	});

	it("without a key the bucket is never reached: 401", async () => {
		await expectError(await createOrder("sk_123"), "unauthorized");
	});
});
