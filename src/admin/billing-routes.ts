import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { AccountIdParams } from "../accounts/schema.ts";
import { accountExists } from "../accounts/store.ts";
import { AccountBillingSchema, BillingPutBody } from "../customs/billing-settings.ts";
import { directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { setBillingByAdmin } from "./currency-change.ts";

const putBilling = protectedRoute("admin", {
	method: "put",
	path: "/admin/accounts/{id}/billing",
	tags: ["Admin"],
	summary: "Set an account's billing: its currency, and its duty terms, tax country and VAT number",
	description:
		"`duty_terms`, `tax_country` and `tax_id` left out are kept. A change of `currency` is a 409 `currency_change_refused` while the account has a ledger entry (either mode) in the current UTC month or a balance other than zero: settle the balance with an adjustment, then change the currency next month before its first entry. Orders and quotes made already keep their currency.",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: BillingPutBody } } },
	},
	responses: {
		200: jsonResponse(AccountBillingSchema, "The account's billing now."),
		...errorResponses(400, 404, 409, 422),
	},
});

/** The admin's `PUT /v1/admin/accounts/{id}/billing`. */
export const adminBillingRoutes = createApp<AuthedEnv>().openapi(putBilling, async (c) => {
	const { id } = c.req.valid("param");
	if (!(await accountExists(directoryDatabase(c.env), id)))
		throw new ApiError("account_not_found", `No account ${id}.`, "id");
	const { billing } = okOrThrow(await setBillingByAdmin(c.env, id, c.req.valid("json"), new Date()));
	return c.json({ account_id: id, ...billing }, 200);
});
