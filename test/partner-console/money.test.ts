/**
 * The partner console's money: a month's statement on screen (the current month so far by default) and
 * as CSV, read by the API's statementFor for the signed-in account in the page's mode, each entry
 * linked to its order or claim, the CSV safe to open in a spreadsheet. Attacks: another account's and
 * the other mode's entries never show; a support user cannot see money.
 */
import { describe, expect, it } from "vitest";
import type { Claim } from "../../src/claims/schema.ts";
import { statementCsv } from "../../src/ledger/statement.ts";
import { dollarsText } from "../../src/pricing/money.ts";
import { damagedBody, deliveredOrder, postClaimOk } from "../claims/claim-helpers.ts";
import { createAdminKey, send } from "../helpers.ts";
import { currentMonth, postAdjustment, statementOk } from "../ledger/ledger-helpers.ts";
import { request, signedInUser } from "./console-client.ts";

/** A delivered (so charged) live order of a new account, and a signed-in user of `role` on it. */
async function chargedWithUser(role: "owner" | "support" | "viewer" | "developer") {
	const made = await deliveredOrder(2);
	return { ...made, user: await signedInUser(role, made.partner) };
}

/** Writes an adjustment of `cents` with `memo` to the account's `mode` ledger through the admin route. */
async function adjust(accountId: string, mode: "live" | "test", cents: number, memo: string): Promise<void> {
	const response = await postAdjustment(await createAdminKey(), accountId, { mode, amount_cents: cents, memo });
	expect(response.status, await response.clone().text()).toBe(201);
}

describe("the month's statement", () => {
	it("shows the current month so far: balances, each entry in words linked to its order, amounts in dollars", async () => {
		const { key, order, user } = await chargedWithUser("viewer");
		const response = await user.get("/partner/money");
		expect(response.status).toBe(200);
		const html = await response.text();
		const statement = await statementOk(key);
		expect(html).toContain(" so far");
		expect(html).toContain("Balance now");
		expect(html).toContain("Charge");
		expect(html).toContain(`href="/partner/orders/${order.id}"`);
		expect(html).toContain(`Order ${order.external_id}`);
		expect(html).toContain(dollarsText(statement.closing_balance_cents));
		expect(html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
		expect(html).not.toContain(statement.entries[0]?.at ?? "none");
		expect(html).toContain(`href="/partner/money/csv?month=${currentMonth()}"`);
	});

	it("links a claim's credit to the claim's page and its order's", async () => {
		const { key, opsKey, order, itemId, photo, user } = await chargedWithUser("owner");
		const claim = await postClaimOk(key, order.id, damagedBody(itemId, 1, [photo]));
		const decided = await send("POST", `/v1/ops/claims/${claim.id}/approve`, opsKey ?? "", { remedy: "refund" });
		const credit = ((await decided.json()) as Claim).resolution?.credit_cents ?? 0;
		const html = await (await user.get("/partner/money")).text();
		expect(html).toContain("Claim credit");
		expect(html).toContain(`href="/partner/claims/${claim.id}"`);
		expect(html).toContain(dollarsText(-credit));
	});

	it("shows an earlier month's statement, empty when it had no entries, not marked as so far", async () => {
		const { user } = await chargedWithUser("developer");
		const html = await (await user.get("/partner/money?month=2024-02")).text();
		expect(html).toContain("Statement · February 2024");
		expect(html).not.toContain("February 2024 so far");
		expect(html).toContain("No entries in February 2024.");
		expect(html).toContain("Closing balance");
	});

	it("refuses a month to come or malformed with a 422 page in words, never a 500", async () => {
		const user = await signedInUser("viewer");
		const future = await user.get("/partner/money?month=2999-01");
		expect(future.status).toBe(422);
		expect(await future.text()).toContain("The month 2999-01 has no statement");
		const malformed = await user.get("/partner/money?month=2026-13");
		expect(malformed.status).toBe(422);
		expect(await malformed.text()).toContain("Choose a month as year and month");
		expect((await user.get(`/partner/money/csv?month=${"9".repeat(5000)}`)).status).toBe(422);
	});
});

describe("the statement's CSV", () => {
	it("is the API's CSV of the same month, an attachment, a formula in a memo made inert", async () => {
		const { key, partner, user } = await chargedWithUser("viewer");
		await adjust(partner.account.id, "live", 250, '=HYPERLINK("https://evil.example","refund")');
		const response = await user.get(`/partner/money/csv?month=${currentMonth()}`);
		expect(response.status).toBe(200);
		expect(response.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
		expect(response.headers.get("Content-Disposition")).toBe(
			`attachment; filename="statement-${currentMonth()}-live.csv"`,
		);
		const csv = await response.text();
		expect(csv).toBe(statementCsv(await statementOk(key)));
		expect(csv).toContain(`"'=HYPERLINK(""https://evil.example"",""refund"")"`);
		expect(csv.split("\r\n")[0]).toBe(
			"id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp",
		);
	});
});

describe("money attacks", () => {
	it("never shows another account's entries, on the page or in the CSV", async () => {
		const { order } = await deliveredOrder(2);
		const stranger = await signedInUser("owner");
		const html = await (await stranger.get("/partner/money")).text();
		expect(html).not.toContain(order.id);
		expect(html).toContain("No entries in");
		const csv = await (await stranger.get("/partner/money/csv")).text();
		expect(csv).toBe("id,at,type,order_id,claim_id,amount_cents,currency,memo,tax_cents,tax_treatment,tax_rate_bp\r\n");
	});

	it("shows the test data's entries only in test mode, and the live data's only in live", async () => {
		const { order, partner, user } = await chargedWithUser("owner");
		await adjust(partner.account.id, "test", -700, "Sandbox goodwill credit");
		const live = await (await user.get("/partner/money")).text();
		expect(live).toContain(order.id);
		expect(live).not.toContain("Sandbox goodwill credit");
		const test = await (await user.get("/partner/money?mode=test")).text();
		expect(test).toContain("Sandbox goodwill credit");
		expect(test).not.toContain(order.id);
		expect(test).toContain("Test data: nothing on these pages");
		expect(test).toContain(`href="/partner/money/csv?month=${currentMonth()}&amp;mode=test"`);
		const testCsv = await (await user.get("/partner/money/csv?mode=test")).text();
		expect(testCsv).toContain("Sandbox goodwill credit");
		expect(testCsv).not.toContain(order.id);
	});

	it("refuses a support user the statement and its CSV (403); the top bar offers them no Money", async () => {
		const { user } = await chargedWithUser("support");
		const response = await user.get("/partner/money");
		expect(response.status).toBe(403);
		expect(await response.text()).toContain("Your role cannot do this.");
		const csv = await user.get(`/partner/money/csv?month=${currentMonth()}`);
		expect(csv.status).toBe(403);
		expect(csv.headers.get("Content-Type")).not.toContain("text/csv");
		expect(await (await user.get("/partner")).text()).not.toContain('href="/partner/money"');
	});

	it("sends a signed-out visitor to sign in", async () => {
		const response = await request("/partner/money/csv");
		expect(response.status).toBe(303);
		expect(response.headers.get("Location")).toBe("/partner/sign-in");
	});
});
