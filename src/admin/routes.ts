import { revokeApiKey } from "../access/key-revocation.ts";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { planKey } from "../accounts/provisioning.ts";
import {
	AccountIdParams,
	CreateAccountBody,
	CreateKeyBody,
	IssuedKeySchema,
	KeyIdParams,
	KeySummarySchema,
	LimitsBody,
	LimitsSchema,
	NewAccountSchema,
	SettingsBody,
	SettingsSchema,
} from "../accounts/schema.ts";
import { PARTNER_SCOPES } from "../accounts/scopes.ts";
import { accountExists, keyHashesOf, runBatch, updateLimits, updateSettings } from "../accounts/store.ts";
import { databaseOf, directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";
import { AdjustmentBody, LedgerEntrySchema } from "../ledger/schema.ts";
import { writeAdjustment } from "../ledger/store.ts";
import { forgetKeys } from "../rate-limit/middleware.ts";
import { adjustmentTerms } from "./adjustment-terms.ts";
import { planAccount } from "./provisioning.ts";

const createAccount = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts",
	tags: ["Admin"],
	summary: "Create a partner account with a live key, a test key and a webhook secret",
	request: { body: { required: true, content: { "application/json": { schema: CreateAccountBody } } } },
	responses: {
		201: jsonResponse(NewAccountSchema, "The account; its keys and webhook secret are shown this once."),
		...errorResponses(400, 422),
	},
});

const createKey = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts/{id}/keys",
	tags: ["Admin"],
	summary: "Issue another key for an account",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: CreateKeyBody } } },
	},
	responses: { 201: jsonResponse(IssuedKeySchema, "The key, shown this once."), ...errorResponses(400, 404, 422) },
});

const revokeKey = protectedRoute("admin", {
	method: "post",
	path: "/admin/keys/{key_id}/revoke",
	tags: ["Admin"],
	summary: "Revoke a key; it is refused with 401 from the next request on",
	request: { params: KeyIdParams },
	responses: { 200: jsonResponse(KeySummarySchema, "The revoked key."), ...errorResponses(404) },
});

const setLimits = protectedRoute("admin", {
	method: "put",
	path: "/admin/accounts/{id}/limits",
	tags: ["Admin"],
	summary: "Override an account's rate limits",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: LimitsBody } } },
	},
	responses: { 200: jsonResponse(LimitsSchema, "The limits now in force."), ...errorResponses(400, 404, 422) },
});

const setSettings = protectedRoute("admin", {
	method: "put",
	path: "/admin/accounts/{id}/settings",
	tags: ["Admin"],
	summary: "Set an account's settings: the edit window of its new orders",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: SettingsBody } } },
	},
	responses: { 200: jsonResponse(SettingsSchema, "The settings now in force."), ...errorResponses(400, 404, 422) },
});

const addAdjustment = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts/{id}/adjustments",
	tags: ["Admin"],
	summary: "Add an adjustment to an account's ledger in one mode: a charge (positive) or a credit (negative)",
	description:
		"The entry is in the account's billing currency: `amount_cents` is in its minor units (yen for JPY), non-zero and at most 1,000,000,000 either way; `memo`, one line of 1 to 500 characters, shows on the partner's statement.",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: AdjustmentBody } } },
	},
	responses: {
		201: jsonResponse(LedgerEntrySchema, "The entry, in this month's statement."),
		...errorResponses(400, 404, 422),
	},
});

function noSuchAccount(accountId: string): ApiError {
	return new ApiError("account_not_found", `No account ${accountId}.`, "id");
}

/** Admin routes (scope `admin`): accounts, keys, rate-limit overrides and settings. */
export const adminRoutes = createApp<AuthedEnv>()
	.openapi(createAccount, async (c) => {
		const { name } = c.req.valid("json");
		const { created, statements } = await planAccount(name, PARTNER_SCOPES, new Date());
		await runBatch(directoryDatabase(c.env), statements);
		return c.json(created, 201);
	})
	.openapi(createKey, async (c) => {
		const { id } = c.req.valid("param");
		const { mode, scopes } = c.req.valid("json");
		if (!(await accountExists(directoryDatabase(c.env), id))) throw noSuchAccount(id);
		const { issued, statement } = await planKey(id, mode, scopes ?? PARTNER_SCOPES, new Date());
		await runBatch(directoryDatabase(c.env), [statement]);
		return c.json(issued, 201);
	})
	.openapi(revokeKey, async (c) => {
		const { key_id: keyId } = c.req.valid("param");
		const key = await revokeApiKey(c.env, keyId, new Date());
		if (key === null) throw new ApiError("api_key_not_found", `No key ${keyId}.`, "key_id");
		return c.json(key, 200);
	})
	.openapi(setLimits, async (c) => {
		const { id } = c.req.valid("param");
		const limits = await updateLimits(directoryDatabase(c.env), id, c.req.valid("json"));
		if (limits === null) throw noSuchAccount(id);
		await forgetKeys(c.env, await keyHashesOf(directoryDatabase(c.env), { accountId: id }));
		return c.json(
			{
				account_id: id,
				requests_per_minute: limits.requestsPerMinute,
				orders_per_second: limits.ordersPerSecond,
				order_burst: limits.orderBurst,
			},
			200,
		);
	})
	.openapi(addAdjustment, async (c) => {
		const { id } = c.req.valid("param");
		if (!(await accountExists(directoryDatabase(c.env), id))) throw noSuchAccount(id);
		const { mode, amount_cents, memo } = c.req.valid("json");
		const db = databaseOf(c.env, id);
		const now = new Date();
		// In the account's billing currency, like every other entry of its statement, taxed at its treatment now.
		const { currency, tax } = await adjustmentTerms(db, id, now);
		const adjustment = { amountCents: amount_cents, currency, memo, tax };
		const entry = await writeAdjustment(db, { accountId: id, mode }, adjustment, now);
		return c.json(entry, 201);
	})
	.openapi(setSettings, async (c) => {
		const { id } = c.req.valid("param");
		const settings = await updateSettings(directoryDatabase(c.env), id, c.req.valid("json"));
		if (settings === null) throw noSuchAccount(id);
		// Each key's limiter holds its principal, which carries the window its next create uses.
		await forgetKeys(c.env, await keyHashesOf(directoryDatabase(c.env), { accountId: id }));
		return c.json({ account_id: id, edit_window_minutes: settings.edit_window_minutes }, 200);
	});
