import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { databaseOf } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { errorResponses, okOrThrow } from "../http/errors.ts";
import { accountBillingOf, setAccountBilling } from "../money/account-billing.ts";
import { AccountBillingSchema, BillingPatchBody, billingAfter } from "./billing-settings.ts";

const getBilling = protectedRoute(null, {
	method: "get",
	path: "/account/billing",
	tags: ["Billing"],
	summary: "The account's billing: its currency, default duty terms for orders abroad, tax country and VAT number",
	description: "One setting per account: live and test keys read the same.",
	responses: { 200: jsonResponse(AccountBillingSchema, "The account's billing.") },
});

const patchBilling = protectedRoute("orders:write", {
	method: "patch",
	path: "/account/billing",
	tags: ["Billing"],
	summary: "Change the account's default duty terms, tax country or VAT number (the currency is the service team's)",
	description:
		"A field left out is kept. `tax_id` is checked for its country's format and check digits, and must be of `tax_country`; changing `tax_country` under a stored VAT number needs the new `tax_id` (or null) too. The settings are the account's, for both modes: a test key's change is the live orders' too. Orders made already keep their duty terms and their partner tax.",
	request: { body: { required: true, content: { "application/json": { schema: BillingPatchBody } } } },
	responses: {
		200: jsonResponse(AccountBillingSchema, "The account's billing now."),
		...errorResponses(400, 422),
	},
});

/** `GET` and `PATCH /v1/account/billing`: the key's account's billing. */
export const accountBillingRoutes = createApp<AuthedEnv>()
	.openapi(getBilling, async (c) => {
		const { accountId } = c.var.principal;
		const billing = await accountBillingOf(databaseOf(c.env, accountId), accountId);
		return c.json({ account_id: accountId, ...billing }, 200);
	})
	.openapi(patchBilling, async (c) => {
		const { accountId } = c.var.principal;
		const db = databaseOf(c.env, accountId);
		const { billing } = okOrThrow(billingAfter(await accountBillingOf(db, accountId), c.req.valid("json")));
		await setAccountBilling(db, accountId, billing, new Date());
		return c.json({ account_id: accountId, ...billing }, 200);
	});
