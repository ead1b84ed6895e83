import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { chargeIfReleased, chargeReleasedOrders } from "../../src/orders/ledger-moves.ts";
import { findOrder } from "../../src/orders/store.ts";
import { damagedBody, deliveredOrder, postClaimOk } from "../claims/claim-helpers.ts";
import { api, createAdminKey, createKeyWithScopes, expectError, ISO_UTC, send } from "../helpers.ts";
import {
	closeWindow,
	createOrder,
	opsMoveOk,
	orderBody,
	partnerWithFile,
	partnerWithWindow,
	runOrderAlarm,
	settleValidation,
} from "../orders/order-helpers.ts";
import { currentMonth, entriesOfOrder, postAdjustment, statementOk } from "./ledger-helpers.ts";

/** A live order of a new partner, validated and in production (no edit window: released at once). */
async function releasedOrder() {
	const made = await partnerWithFile({ opsKey: true });
	const created = await createOrder(made.key, orderBody(made.file));
	const order = await settleValidation(made.key, created.id);
	expect(order.status).toBe("in_production");
	return { ...made, order };
}

describe("ledger entries written by the moves that cause them", () => {
	it("an order released to the floor at once is charged its total once, in the move to production", async () => {
		const { key, order } = await releasedOrder();
		const entries = await entriesOfOrder(order.id);
		expect(entries).toEqual([
			{
				id: expect.stringMatching(/^led_/),
				at: expect.stringMatching(ISO_UTC),
				type: "charge",
				order_id: order.id,
				claim_id: null,
				amount_cents: order.costs?.total,
				currency: "USD",
				memo: `Order ${order.external_id}`,
				tax_cents: 0,
				tax_treatment: "none",
				tax_rate_bp: 0,
			},
		]);
		const statement = await statementOk(key);
		expect(statement.entries).toEqual(entries);
		expect(statement.totals.charges_cents).toBe(order.costs?.total);
	});

	it("an order within its edit window is not charged; its alarm at the window's end charges it", async () => {
		const { key, file } = await partnerWithWindow(30);
		const created = await createOrder(key, orderBody(file));
		const order = await settleValidation(key, created.id);
		expect(order.status).toBe("in_production");
		expect(await entriesOfOrder(order.id)).toEqual([]);
		await closeWindow(order.id);
		// The move to production set the alarm for the window's end: it runs now, as its time has come.
		expect(await runOrderAlarm(order.id)).toBe(true);
		const entries = await entriesOfOrder(order.id);
		expect(entries.map((entry) => [entry.type, entry.amount_cents])).toEqual([["charge", order.costs?.total]]);
	});

	it("the cron's sweep charges an order whose window ended and whose alarm was lost, once", async () => {
		const { key, file } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		await closeWindow(order.id);
		const awaiting = () =>
			env.DB.prepare("SELECT awaiting_charge FROM orders WHERE id = ?1")
				.bind(order.id)
				.first<number | null>("awaiting_charge");
		expect(await awaiting()).toBe(1);
		expect(await chargeReleasedOrders(env.DB)).toBeGreaterThanOrEqual(1);
		// Charged, the order leaves the sweep's index: the next runs do not read it again.
		expect(await awaiting()).toBeNull();
		expect(await chargeReleasedOrders(env.DB)).toBe(0);
		expect((await entriesOfOrder(order.id)).map((entry) => entry.type)).toEqual(["charge"]);
	});

	it("the same release charged ten times at once writes one entry", async () => {
		const { key, file } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		await closeWindow(order.id);
		const stored = await findOrder(env.DB, order.id, env.PRINT_FILES);
		if (stored === null) throw new Error("order gone");
		await Promise.all(Array.from({ length: 10 }, () => chargeIfReleased(env.DB, stored.order, new Date())));
		expect(await entriesOfOrder(order.id)).toHaveLength(1);
	});

	it("canceling a charged order credits the whole charge back; a second cancel writes nothing", async () => {
		const { opsKey, key, order } = await releasedOrder();
		await opsMoveOk(opsKey, order.id, "cancel");
		await send("POST", `/v1/ops/orders/${order.id}/cancel`, opsKey, undefined);
		const entries = await entriesOfOrder(order.id);
		expect(entries.map((entry) => [entry.type, entry.amount_cents])).toEqual([
			["charge", order.costs?.total],
			["cancellation_credit", -(order.costs?.total ?? 0)],
		]);
		const statement = await statementOk(key);
		expect(statement.totals.net_cents).toBe(0);
		expect(statement.closing_balance_cents).toBe(statement.opening_balance_cents);
	});

	it("canceling an order never charged (still in its edit window) writes no credit", async () => {
		const { key, file, opsKey } = await partnerWithWindow(30);
		const order = await settleValidation(key, (await createOrder(key, orderBody(file))).id);
		await opsMoveOk(opsKey, order.id, "cancel");
		expect(await entriesOfOrder(order.id)).toEqual([]);
	});

	it("an item fix after an operator hold reprices a charged order by the difference", async () => {
		const { opsKey, key, order } = await releasedOrder();
		await opsMoveOk(opsKey, order.id, "hold", { message: "The mat is out of stock; choose another frame." });
		const itemId = order.items[0]?.id ?? "";
		const patched = await send("PATCH", `/v1/orders/${order.id}/items/${itemId}`, key, { frame: "gold-metal-075" });
		expect(patched.status).toBe(200);
		const after = await settleValidation(key, order.id);
		expect(after.status).toBe("in_production");
		const before = order.costs?.total ?? 0;
		const now = after.costs?.total ?? 0;
		expect(now).not.toBe(before);
		const entries = await entriesOfOrder(order.id);
		expect(entries.map((entry) => [entry.type, entry.amount_cents])).toEqual([
			["charge", before],
			["repricing", now - before],
		]);
	});

	it("a partner's change of shipping method on a charged order held by the floor writes its repricing in the change's batch", async () => {
		const { opsKey, key, order } = await releasedOrder();
		await opsMoveOk(opsKey, order.id, "hold", { message: "The moulding is back-ordered for a week." });
		const patched = await send("PATCH", `/v1/orders/${order.id}`, key, { shipping_method: "express" });
		expect(patched.status).toBe(200);
		const changed = (await patched.json()) as { costs: { total: number } | null };
		const before = order.costs?.total ?? 0;
		const now = changed.costs?.total ?? 0;
		expect(now).toBeGreaterThan(before);
		const entries = await entriesOfOrder(order.id);
		expect(entries.map((entry) => [entry.type, entry.amount_cents])).toEqual([
			["charge", before],
			["repricing", now - before],
		]);
		// Released again, it is not charged twice.
		await opsMoveOk(opsKey, order.id, "release");
		expect((await entriesOfOrder(order.id)).reduce((sum, entry) => sum + entry.amount_cents, 0)).toBe(now);
	});

	it("a partner's change of a charged order in production the floor has not started writes its repricing; the start writes nothing", async () => {
		const { opsKey, key, order } = await releasedOrder();
		expect(order.production_started_at).toBeNull();
		const patched = await send("PATCH", `/v1/orders/${order.id}`, key, { shipping_method: "express" });
		expect(patched.status).toBe(200);
		const now = ((await patched.json()) as { costs: { total: number } | null }).costs?.total ?? 0;
		const before = order.costs?.total ?? 0;
		expect(now).toBeGreaterThan(before);
		await opsMoveOk(opsKey, order.id, "start");
		expect((await entriesOfOrder(order.id)).map((entry) => [entry.type, entry.amount_cents])).toEqual([
			["charge", before],
			["repricing", now - before],
		]);
	});

	it("a refund approval credits the claim in the decision's batch; a reprint approval writes no entry", async () => {
		const { key, opsKey, order, itemId, photo } = await deliveredOrder(2);
		const refunded = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const approve = (claimId: string, remedy: string) =>
			send("POST", `/v1/ops/claims/${claimId}/approve`, opsKey, { remedy });
		expect((await approve(refunded.id, "refund")).status).toBe(200);
		expect((await approve(refunded.id, "refund")).status).toBe(409);
		const reprinted = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const reprintApproval = await approve(reprinted.id, "reprint");
		expect(reprintApproval.status).toBe(200);
		const { resolution } = (await reprintApproval.json()) as { resolution: { reprint_order_id: string } };
		const credits = (await entriesOfOrder(order.id)).filter((entry) => entry.type === "claim_credit");
		expect(credits).toEqual([
			expect.objectContaining({
				claim_id: refunded.id,
				amount_cents: -(order.items[0]?.unit_price?.total ?? 0),
				memo: `Claim ${refunded.id} on order ${order.external_id}`,
			}),
		]);
		const reprint = await settleValidation(key, resolution.reprint_order_id);
		expect(reprint.status).toBe("in_production");
		expect(await entriesOfOrder(reprint.id)).toEqual([]);
	});
});

describe("POST /v1/admin/accounts/{id}/adjustments", () => {
	it("adds an adjustment to the account's ledger of that mode only", async () => {
		const { partner, key } = await partnerWithFile();
		const admin = await createAdminKey();
		const response = await postAdjustment(admin, partner.account.id, {
			mode: "live",
			amount_cents: -2500,
			memo: "Goodwill credit",
		});
		expect(response.status).toBe(201);
		const entry = await response.json();
		expect(entry).toMatchObject({ type: "adjustment", amount_cents: -2500, memo: "Goodwill credit", order_id: null });
		const statement = await statementOk(key);
		expect(statement.entries).toEqual([entry]);
		expect(statement.totals).toEqual({
			charges_cents: 0,
			credits_cents: 0,
			adjustments_cents: -2500,
			net_cents: -2500,
			tax_cents: 0,
			net_with_tax_cents: -2500,
		});
		// The test-mode ledger and another account's are untouched.
		expect((await statementOk(partner.keys.test.key)).entries).toEqual([]);
		expect((await statementOk((await partnerWithFile()).key)).entries).toEqual([]);
	});

	it("refuses 0, more than ten million dollars either way, a 10 kB memo, an empty or multi-line memo with a 422", async () => {
		const { partner } = await partnerWithFile();
		const admin = await createAdminKey();
		const cases: Array<[Record<string, unknown>, string]> = [
			[{ amount_cents: 0 }, "amount_cents"],
			[{ amount_cents: 1_000_000_001 }, "amount_cents"],
			[{ amount_cents: -1_000_000_001 }, "amount_cents"],
			[{ amount_cents: 12.5 }, "amount_cents"],
			[{ amount_cents: "100" }, "amount_cents"],
			[{ memo: "x".repeat(10_000) }, "memo"],
			[{ memo: "   " }, "memo"],
			[{ memo: "line one\nline two" }, "memo"],
			[{ mode: "staging" }, "mode"],
		];
		for (const [change, field] of cases) {
			const body = { mode: "live", amount_cents: 100, memo: "Correction", ...change };
			await expectError(await postAdjustment(admin, partner.account.id, body), "validation_error", field);
		}
		expect(
			(await postAdjustment(admin, partner.account.id, { mode: "live", amount_cents: 1_000_000_000, memo: "Max" }))
				.status,
		).toBe(201);
	});

	it("refuses a partner key or an ops key with 403, and an unknown account with 404", async () => {
		const { partner, key } = await partnerWithFile();
		const body = { mode: "live", amount_cents: -100, memo: "Credit" };
		await expectError(await postAdjustment(key, partner.account.id, body), "forbidden");
		await expectError(await postAdjustment(await createKeyWithScopes(["ops"]), partner.account.id, body), "forbidden");
		await expectError(await postAdjustment(await createAdminKey(), "acct_nope", body), "not_found", "id");
		expect((await statementOk(key)).entries).toEqual([]);
	});
});

describe("GET /v1/statements/{month}", () => {
	it("refuses 2026-13, 1999-01, next month and ../x with a 422 on month, never a 500", async () => {
		const { key } = await partnerWithFile();
		const now = new Date();
		const next = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString().slice(0, 7);
		for (const month of ["2026-13", "2026-00", "1999-01", "2019-12", next, "..%2Fx", "2026-1", "202611", "%00"]) {
			await expectError(await api(`/v1/statements/${month}`, { key }), "validation_error", "month");
		}
		const traversal = await api("/v1/statements/../x", { key });
		expect(traversal.status).toBe(404);
	});

	it("answers an empty statement for a month with no entries, opening and closing at the balance before it", async () => {
		const { key } = await partnerWithFile();
		expect(await statementOk(key, "2020-01")).toEqual({
			month: "2020-01",
			currency: "USD",
			opening_balance_cents: 0,
			entries: [],
			totals: {
				charges_cents: 0,
				credits_cents: 0,
				adjustments_cents: 0,
				net_cents: 0,
				tax_cents: 0,
				net_with_tax_cents: 0,
			},
			closing_balance_cents: 0,
		});
	});

	it("refuses a request without a key with 401", async () => {
		const response = await api(`/v1/statements/${currentMonth()}`);
		expect(response.status).toBe(401);
	});

	it("gives CSV for Accept: text/csv where no cell a partner wrote runs as a formula", async () => {
		const { partner, key } = await partnerWithFile();
		const admin = await createAdminKey();
		const memos = ['=HYPERLINK("http://evil","x")', "+1+1", "-2+3", "@SUM(A1)", 'say "hi", then go'];
		for (const memo of memos) {
			const response = await postAdjustment(admin, partner.account.id, { mode: "live", amount_cents: 100, memo });
			expect(response.status).toBe(201);
		}
		const response = await api(`/v1/statements/${currentMonth()}`, { key, headers: { Accept: "text/csv" } });
		expect(response.status).toBe(200);
		expect(response.headers.get("content-type")).toContain("text/csv");
		expect(response.headers.get("content-disposition")).toContain(`statement-${currentMonth()}-live.csv`);
		const lines = (await response.text()).split("\r\n");
		expect(lines[0]).toBe(
			"id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp",
		);
		const memoCells = lines
			.slice(1, -1)
			.map((line) => line.slice(line.indexOf(",USD,") + 5, line.length - ",0,none,0".length));
		expect(memoCells).toEqual([
			'"\'=HYPERLINK(""http://evil"",""x"")"',
			"'+1+1",
			"'-2+3",
			"'@SUM(A1)",
			'"say ""hi"", then go"',
		]);
	});
});
