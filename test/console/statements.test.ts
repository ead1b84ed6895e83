import { describe, expect, it } from "vitest";
import { createAdminKey, createPartner } from "../helpers.ts";
import { currentMonth, postAdjustment } from "../ledger/ledger-helpers.ts";
import { consoleRequest, htmlOf, signedInOperator, textOf } from "./console-helpers.ts";

/** A partner with a live adjustment of `cents` this month, made by an admin. */
async function partnerWithAdjustment(name: string, cents: number, memo = "Goodwill credit") {
	const partner = await createPartner(name);
	const response = await postAdjustment(await createAdminKey(), partner.account.id, {
		mode: "live",
		amount_cents: cents,
		memo,
	});
	expect(response.status).toBe(201);
	return partner;
}

describe("the console's statements", () => {
	it("lists each partner's month with its opening, net and closing, and links to its entries and CSV", async () => {
		const partner = await partnerWithAdjustment("Ledger Overview Gallery", -2500);
		const { cookie } = await signedInOperator();
		const html = await htmlOf(await consoleRequest("/ops/statements", { cookie }), 200);
		const start = html.indexOf(`/ops/statements/${partner.account.id}?`);
		const row = html.slice(html.indexOf(">", start) + 1, html.indexOf("</tr>", start));
		expect(textOf(row.replaceAll("</td>", "|"))).toBe("Ledger Overview Gallery|$0.00|−$25.00|−$25.00|CSV|");
		expect(html).toContain(`/ops/statements/${partner.account.id}/csv?month=${currentMonth()}&amp;mode=live`);
	});

	it("shows one partner's month with its entries, and an earlier month opening at the balance so far", async () => {
		const partner = await partnerWithAdjustment("Ledger Partner Page", 1234, "=SUM(A1) <b>bold</b>");
		const { cookie } = await signedInOperator();
		const html = await htmlOf(await consoleRequest(`/ops/statements/${partner.account.id}`, { cookie }), 200);
		expect(html).toContain("=SUM(A1) &lt;b&gt;bold&lt;/b&gt;");
		expect(textOf(html)).toContain("Closing$12.34");
		const empty = await htmlOf(
			await consoleRequest(`/ops/statements/${partner.account.id}?month=2020-01`, { cookie }),
			200,
		);
		expect(textOf(empty)).toContain("No entries in 2020-01.");
	});

	it("downloads any month's CSV, formula-safe", async () => {
		const partner = await partnerWithAdjustment("Ledger CSV Gallery", 100, "@cmd");
		const { cookie } = await signedInOperator();
		const response = await consoleRequest(
			`/ops/statements/${partner.account.id}/csv?month=${currentMonth()}&mode=live`,
			{
				cookie,
			},
		);
		expect(response.status).toBe(200);
		expect(response.headers.get("content-disposition")).toContain("attachment");
		const body = await response.text();
		expect(body.split("\r\n")[1]).toMatch(/,adjustment,,,100,USD,'@cmd,0,none,0$/);
	});

	it("answers a bad month, a bad mode, a month to come and an unknown partner with an error page, never a 500", async () => {
		const partner = await createPartner("Ledger Errors Gallery");
		const { cookie } = await signedInOperator();
		const base = `/ops/statements/${partner.account.id}`;
		for (const path of [
			"/ops/statements?month=2026-13",
			"/ops/statements?month=2999-01",
			"/ops/statements?mode=staging",
			`${base}?month=1999-01`,
			`${base}/csv?month=..%2Fx`,
		]) {
			expect((await consoleRequest(path, { cookie })).status, path).toBe(422);
		}
		expect((await consoleRequest("/ops/statements/acct_nope", { cookie })).status).toBe(404);
	});

	it("is only for a signed-in operator", async () => {
		const response = await consoleRequest("/ops/statements");
		expect(response.status).toBe(303);
	});
});
