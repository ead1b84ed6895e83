/**
 * `GET` and `PATCH /v1/account/print-settings`: how the account's print files are printed; for now,
 * whether an order with a CMYK file prints converted or is held. The setting is the account's, for both
 * modes, as its billing is; validation reads it when it meets a CMYK file.
 */
import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { CMYK_FILE_CHOICES, changePrintSettings, printSettingsOf } from "../accounts/print-settings.ts";
import { directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses } from "../http/errors.ts";

const CmykFilesSchema = z.enum(CMYK_FILE_CHOICES).openapi({
	description:
		"What an order with a CMYK print file does. `convert` (the default): it prints, the file converted to RGB, and the item carries the `cmyk_converted` warning. `hold`: validation holds the order (`cmyk_file`) until the item is fixed with an RGB file. Orders validated from the change on follow it; an order validated already keeps its verdict.",
	example: "hold",
});

/** The account's print settings as the API answers them. */
const PrintSettingsSchema = z
	.object({ account_id: z.string().openapi({ example: "acct_4fQ9v2" }), cmyk_files: CmykFilesSchema })
	.openapi("PrintSettings");

/** What a partner may change; a field left out is kept. */
const PrintSettingsPatchBody = z.strictObject({ cmyk_files: CmykFilesSchema.optional() }).openapi("PrintSettingsPatch");

const ONE_SETTING = "One setting per account: live and test keys read and change the same.";

const getPrintSettings = protectedRoute(null, {
	method: "get",
	path: "/account/print-settings",
	tags: ["Print files"],
	summary: "How the account's print files are printed: whether an order with a CMYK file prints converted or is held",
	description: ONE_SETTING,
	responses: { 200: jsonResponse(PrintSettingsSchema, "The account's print settings.") },
});

const patchPrintSettings = protectedRoute("orders:write", {
	method: "patch",
	path: "/account/print-settings",
	tags: ["Print files"],
	summary: "Choose whether an order with a CMYK print file prints converted or is held",
	description: `A field left out is kept. ${ONE_SETTING} Orders validated from now on follow the setting; an order validated already keeps its verdict (an order held for \`cmyk_file\` is validated again when its item is fixed, by a new file or the same one).`,
	request: { body: { required: true, content: { "application/json": { schema: PrintSettingsPatchBody } } } },
	responses: {
		200: jsonResponse(PrintSettingsSchema, "The account's print settings now."),
		...errorResponses(400, 422),
	},
});

/** The key's account's settings, or the error when the account is gone. */
function settingsOrNotFound<T>(settings: T | null, accountId: string): T {
	if (settings === null) throw new ApiError("account_not_found", `No account ${accountId}.`);
	return settings;
}

/** `GET` and `PATCH /v1/account/print-settings`: the key's account's print settings. */
export const printSettingsRoutes = createApp<AuthedEnv>()
	.openapi(getPrintSettings, async (c) => {
		const { accountId } = c.var.principal;
		const settings = settingsOrNotFound(await printSettingsOf(directoryDatabase(c.env), accountId), accountId);
		return c.json({ account_id: accountId, ...settings }, 200);
	})
	.openapi(patchPrintSettings, async (c) => {
		const { accountId } = c.var.principal;
		const changed = await changePrintSettings(directoryDatabase(c.env), accountId, c.req.valid("json"));
		const settings = settingsOrNotFound(changed, accountId);
		return c.json({ account_id: accountId, ...settings }, 200);
	});
