/**
 * The cron's restart of stalled orders and the sandbox's parked test orders: an order left `received`
 * under manual progress is the partner's to move, so the safety net neither reads nor restarts it.
 * Isolated: the restart reads every database's stalled orders.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { resumeStalledOrders } from "../../src/orders/resume.ts";
import { insertOrder } from "../../src/orders/store.ts";
import { createPartner } from "../helpers.ts";
import { rawOrder } from "../orders/order-helpers.ts";

describe("parked sandbox orders", () => {
	it("restarts a stalled order that moves by itself but leaves a test order parked under manual progress", async () => {
		const partner = await createPartner();
		const owner = { accountId: partner.account.id, mode: "test" as const };
		const longAgo = new Date(Date.now() - 3_600_000);
		const automatic = rawOrder(owner, "received", "https://files.partner.example/missing.png", { now: longAgo });
		const parked = rawOrder(owner, "received", "https://files.partner.example/missing.png", { now: longAgo });
		parked.order.sandbox_progress = "manual";
		await insertOrder(env.DB, automatic.order, automatic.items, longAgo);
		await insertOrder(env.DB, parked.order, parked.items, longAgo);
		expect(await resumeStalledOrders(env)).toBe(1);
		const row = await env.DB.prepare("SELECT status, version FROM orders WHERE id = ?1")
			.bind(parked.order.id)
			.first<{ status: string; version: number }>();
		expect(row).toEqual({ status: "received", version: 1 });
	});
});
