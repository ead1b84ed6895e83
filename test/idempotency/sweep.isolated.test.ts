/**
 * The cron's expiry of idempotency keys. Isolated: the sweep deletes every expired key of the service,
 * and these tests count what it deletes.
 */
import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KEPT_FOR_MS } from "../../src/idempotency/rules.ts";
import { sweepExpiredIdempotencyKeys } from "../../src/idempotency/sweep.ts";
import worker from "../../src/index.ts";
import { api, createPartner } from "../helpers.ts";
import { hookUrl } from "../webhooks/webhook-helpers.ts";

/** Runs the Worker's scheduled handler, as the cron trigger would, and waits for what it started. */
async function runCron(): Promise<void> {
	const ctx = createExecutionContext();
	await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), env, ctx);
	await waitOnExecutionContext(ctx);
}

/** `count` answered keys of the account, each kept since `createdAgoMs` ago; their keys. */
async function insertAnsweredKeys(accountId: string, count: number, createdAgoMs: number): Promise<string[]> {
	const created = new Date(Date.now() - createdAgoMs);
	const keys = Array.from({ length: count }, () => crypto.randomUUID());
	await env.DB.batch(
		keys.map((key) =>
			env.DB.prepare(
				`INSERT INTO idempotency_keys
				   (account_id, mode, credential_kind, idempotency_key, request, body_sha256, claim_token, state, status, headers, body, created_at, expires_at)
				 VALUES (?1, 'live', 'partner', ?2, 'POST /v1/webhook-secret/rotate', 'e3b0', 'token', 'done', 200, '{}', '{}', ?3, ?4)`,
			).bind(accountId, key, created.toISOString(), new Date(created.getTime() + KEPT_FOR_MS).toISOString()),
		),
	);
	return keys;
}

/** The keys of the account still stored. */
async function storedKeys(accountId: string): Promise<string[]> {
	const { results } = await env.DB.prepare(
		"SELECT idempotency_key FROM idempotency_keys WHERE account_id = ?1 ORDER BY idempotency_key",
	)
		.bind(accountId)
		.all<{ idempotency_key: string }>();
	return results.map((row) => row.idempotency_key);
}

/** Creates a webhook endpoint of `url` under the Idempotency-Key `key`. */
function createEndpoint(apiKey: string, key: string, url: string): Promise<Response> {
	return api("/v1/webhook-endpoints", {
		method: "POST",
		key: apiKey,
		headers: { "Idempotency-Key": key },
		body: JSON.stringify({ url }),
	});
}

describe("the cron's expiry of idempotency keys", () => {
	it("deletes the keys past their 24 hours and keeps the others, whose retries still replay", async () => {
		const { account, keys } = await createPartner();
		const [kept, url] = [crypto.randomUUID(), hookUrl("swept")];
		expect((await createEndpoint(keys.live.key, kept, url)).status).toBe(201);
		const expired = await insertAnsweredKeys(account.id, 2, KEPT_FOR_MS + 60_000);
		expect(await storedKeys(account.id)).toEqual([kept, ...expired].sort());
		await runCron();
		expect(await storedKeys(account.id)).toEqual([kept]);
		const retry = await createEndpoint(keys.live.key, kept, url);
		expect(retry.status).toBe(201);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
	});

	it("a day on, the key is gone and the same request runs again", async () => {
		const { account, keys } = await createPartner();
		const [key, url] = [crypto.randomUUID(), hookUrl("swept")];
		expect((await createEndpoint(keys.live.key, key, url)).status).toBe(201);
		expect(await sweepExpiredIdempotencyKeys(env, new Date(Date.now() + KEPT_FOR_MS + 1000))).toBeGreaterThanOrEqual(1);
		expect(await storedKeys(account.id)).toEqual([]);
		// Another endpoint of the same URL is refused as such: the request ran, it was not replayed.
		const again = await createEndpoint(keys.live.key, key, url);
		expect(again.headers.get("Idempotent-Replayed")).toBeNull();
		expect(again.status).toBe(409);
	});

	it("deletes at most its batch a run, and the rest at the next", async () => {
		const { account } = await createPartner();
		await insertAnsweredKeys(account.id, 5, KEPT_FOR_MS + 60_000);
		expect(await sweepExpiredIdempotencyKeys(env, new Date(), 3)).toBe(3);
		expect(await storedKeys(account.id)).toHaveLength(2);
		expect(await sweepExpiredIdempotencyKeys(env, new Date(), 3)).toBe(2);
		expect(await sweepExpiredIdempotencyKeys(env, new Date(), 3)).toBe(0);
	});
});
