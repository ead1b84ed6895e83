import { createExecutionContext, createScheduledController, waitOnExecutionContext } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { describe, expect, it, vi } from "vitest";
import { allowsLocalUrls } from "../../src/config.ts";
import worker from "../../src/index.ts";
import { STALLED_AFTER_MS } from "../../src/orders/resume.ts";
import type { StoredOrder } from "../../src/orders/rows.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";
import { validateOrder } from "../../src/orders/validate-order.ts";
import { createPartner } from "../helpers.ts";
import { partnerFileServer } from "../print-files/file-hosting.ts";
import { insertRawOrder, rawOrder, readOrder, runOrderAlarm, settleValidation } from "./order-helpers.ts";

const MINUTE_MS = 60_000;

const { sharpFileUrl } = partnerFileServer("cron");

/** A live order of `accountId` in `status`, last moved `ageMs` ago, with one 8 × 10 in item from `printFileUrl`. */
function storedOrder(accountId: string, status: OrderStatus, ageMs: number, printFileUrl: string): StoredOrder {
	return rawOrder({ accountId, mode: "live" }, status, printFileUrl, { now: new Date(Date.now() - ageMs) });
}

/**
 * Writes an order straight to D1, as one whose Durable Object was never reached (the create route's
 * `begin` failed): nothing but the cron will start it.
 */
async function insertStalledOrder(accountId: string, status: OrderStatus, ageMs: number): Promise<string> {
	const { id } = await insertRawOrder({ accountId, mode: "live" }, status, await sharpFileUrl(), {
		now: new Date(Date.now() - ageMs),
	});
	return id;
}

/** Runs the Worker's scheduled handler, as the cron trigger would, and waits for what it started. */
async function runCron(cronEnv: Env = env): Promise<void> {
	const ctx = createExecutionContext();
	await worker.scheduled(createScheduledController({ scheduledTime: Date.now(), cron: "* * * * *" }), cronEnv, ctx);
	await waitOnExecutionContext(ctx);
}

/** `db`, except that a statement whose SQL `fails` matches throws when it is prepared. */
function failingFor(db: D1Database, fails: RegExp): D1Database {
	return new Proxy(db, {
		get(target, property) {
			if (property === "prepare") {
				return (sql: string) => {
					if (fails.test(sql)) throw new Error("D1 refused the deliveries' read");
					return target.prepare(sql);
				};
			}
			const value: unknown = Reflect.get(target, property);
			return typeof value === "function" ? value.bind(target) : value;
		},
	});
}

/** The JSON log lines a console method was called with. */
function logLines(method: { mock: { calls: unknown[][] } }): Record<string, unknown>[] {
	return method.mock.calls.map(([line]) => JSON.parse(String(line)) as Record<string, unknown>);
}

describe("the scheduled handler", () => {
	it("restarts an order stuck in received for more than 5 minutes, and it validates", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const orderId = await insertStalledOrder(partner.account.id, "received", 6 * MINUTE_MS);
		// Nothing else will move it: its machine has no alarm.
		expect(await runOrderAlarm(orderId)).toBe(false);
		expect((await readOrder(key, orderId)).status).toBe("received");

		await runCron();
		const settled = await settleValidation(key, orderId);
		expect(settled.status).toBe("in_production");
		expect(settled.items[0]?.effective_dpi).toBe(300);
	});

	it("restarts an order aged through D1 (UPDATE orders SET updated_at)", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const orderId = await insertStalledOrder(partner.account.id, "received", 0);
		await env.DB.prepare("UPDATE orders SET updated_at = ?2 WHERE id = ?1")
			.bind(orderId, new Date(Date.now() - 6 * MINUTE_MS).toISOString())
			.run();
		await runCron();
		expect((await settleValidation(key, orderId)).status).toBe("in_production");
	});

	it("restarts an order stuck in validating (its alarm lost) and it reaches its verdict", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const orderId = await insertStalledOrder(partner.account.id, "validating", 10 * MINUTE_MS);
		await runCron();
		expect((await settleValidation(key, orderId)).status).toBe("in_production");
	});

	it("leaves a fresh received order alone, and one just under 5 minutes old", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const fresh = await insertStalledOrder(partner.account.id, "received", 0);
		const almost = await insertStalledOrder(partner.account.id, "received", STALLED_AFTER_MS - MINUTE_MS);
		await runCron();
		for (const orderId of [fresh, almost]) {
			// No alarm was set for it, and it has not moved.
			expect(await runOrderAlarm(orderId)).toBe(false);
			expect((await readOrder(key, orderId)).status).toBe("received");
		}
	});

	it("leaves old orders in other statuses alone", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const held = await insertStalledOrder(partner.account.id, "on_hold", 60 * MINUTE_MS);
		const inProduction = await insertStalledOrder(partner.account.id, "in_production", 60 * MINUTE_MS);
		await runCron();
		expect(await runOrderAlarm(held)).toBe(false);
		expect(await runOrderAlarm(inProduction)).toBe(false);
		expect((await readOrder(key, held)).status).toBe("on_hold");
		expect((await readOrder(key, inProduction)).status).toBe("in_production");
	});
});

describe("the cron's jobs, each on its own", () => {
	it("a job that throws is logged as cron.job_failed; the other jobs still run, and the run's line keeps their counts", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const orderId = await insertStalledOrder(partner.account.id, "received", 6 * MINUTE_MS);
		// The deliveries sweep's read of overdue deliveries fails: that job, and only that one, throws.
		const broken: Env = { ...env, DB: failingFor(env.DB, /SELECT id, event_id, url FROM deliveries/) };
		const errors = vi.spyOn(console, "error").mockImplementation(() => undefined);
		const infos = vi.spyOn(console, "log").mockImplementation(() => undefined);
		try {
			await runCron(broken);
			expect(logLines(errors)).toEqual([
				expect.objectContaining({
					level: "error",
					event: "cron.job_failed",
					job: "sweep-deliveries",
					error: "Error",
					message: "D1 refused the deliveries' read",
				}),
			]);
			const ran = logLines(infos).find((line) => line.event === "cron.ran");
			expect(ran).toMatchObject({ job: "cron", swept_deliveries: 0 });
			expect(ran?.restarted_orders).toBeGreaterThanOrEqual(1);
		} finally {
			errors.mockRestore();
			infos.mockRestore();
		}
		// The restart that ran beside the failed job did its work.
		expect((await settleValidation(key, orderId)).status).toBe("in_production");
	});
});

describe("the development setting for local URLs", () => {
	const development: Env = { ...env, ENVIRONMENT: "development" };
	const production: Env = { ...env, ENVIRONMENT: "production" };

	it("allows local URLs in development only", () => {
		expect(allowsLocalUrls(development)).toBe(true);
		expect(allowsLocalUrls(production)).toBe(false);
		expect(allowsLocalUrls(env)).toBe(false);
	});

	it("in development, a loopback print_file_url is fetched (and fails as a fetch), not refused", async () => {
		const partner = await createPartner();
		const stored = storedOrder(partner.account.id, "validating", 0, "http://127.0.0.1:9/x");
		const result = await validateOrder(development, stored);
		expect(result.verdict.kind).toBe("fail");
		if (result.verdict.kind !== "fail") return;
		expect(result.verdict.holdReason).toBe("file_fetch_failed");
		const message = result.verdict.holdDetails[0]?.message ?? "";
		// The request went out (the tests' outside world answers 502 for any host but the file server).
		expect(message).toMatch(/answered \d{3} for the print_file_url|could not be fetched/);
		expect(message).not.toMatch(/loopback|refused|only calls public hosts|must use https/);
	});

	it("in production, the same print_file_url is refused as a forbidden address", async () => {
		const partner = await createPartner();
		const stored = storedOrder(partner.account.id, "validating", 0, "http://127.0.0.1:9/x");
		const result = await validateOrder(production, stored);
		expect(result.verdict).toEqual({
			kind: "fail",
			holdReason: "file_fetch_failed",
			holdDetails: [
				{
					item_id: stored.items[0]?.id,
					field: "print_file_url",
					code: "file_fetch_failed",
					message: expect.any(String),
				},
			],
		});
		if (result.verdict.kind !== "fail") return;
		// http is the first thing refused; over https the loopback address is.
		expect(result.verdict.holdDetails[0]?.message).toMatch(/must use https/);
		const overHttps = storedOrder(partner.account.id, "validating", 0, "https://127.0.0.1:9/x");
		const refused = await validateOrder(production, overHttps);
		expect(refused.verdict.kind === "fail" && refused.verdict.holdDetails[0]?.message).toMatch(
			/127\.0\.0\.1 is a loopback address .*only calls public hosts/,
		);
	});

	it("in development, private (non-loopback) addresses stay refused", async () => {
		const partner = await createPartner();
		const stored = storedOrder(partner.account.id, "validating", 0, "http://10.0.0.1/x");
		const result = await validateOrder(development, stored);
		expect(result.verdict.kind === "fail" && result.verdict.holdDetails[0]?.message).toMatch(
			/10\.0\.0\.1 is a private address/,
		);
	});
});
