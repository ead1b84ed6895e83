import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { KEY_MODES, keyScopeProblem, PARTNER_SCOPES, SCOPES } from "./scopes.ts";
import { DEFAULT_LIMITS } from "./store.ts";

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters.
const NO_CONTROL_CHARACTERS = /^[^\u0000-\u001f\u007f]*$/;

export const AccountIdParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "acct_4fQ9v2" }),
});
export const KeyIdParams = z.object({
	key_id: z.string().openapi({ param: { name: "key_id", in: "path" }, example: "key_8hT2x0" }),
});

export const CreateAccountBody = z
	.strictObject({
		name: z
			.string()
			.trim()
			.min(1)
			.max(200)
			.regex(NO_CONTROL_CHARACTERS, "must not contain control characters")
			.openapi({ example: "Harbour Museum Store" }),
	})
	.openapi("CreateAccountRequest");

export const CreateKeyBody = z
	.strictObject({
		mode: z.enum(KEY_MODES),
		scopes: z
			.array(z.enum(SCOPES))
			.min(1)
			.optional()
			.openapi({
				description:
					"Defaults to the partner scopes: orders:read, orders:write, files:write, events:read. " +
					"Keys with ops or admin are live-only.",
				example: ["orders:read", "orders:write", "files:write", "events:read"],
			}),
	})
	.superRefine((body, ctx) => {
		const problem = keyScopeProblem(body.mode, body.scopes ?? PARTNER_SCOPES);
		if (problem !== null) ctx.addIssue({ code: "custom", path: ["mode"], message: `must be live: ${problem}` });
	})
	.openapi("CreateKeyRequest");

export const LimitsBody = z
	.strictObject({
		requests_per_minute: z.number().int().min(1).max(1_000_000).nullable().optional().openapi({ example: 600 }),
		orders_per_second: z.number().positive().max(10_000).nullable().optional().openapi({ example: 5 }),
		order_burst: z.number().int().min(1).max(1_000_000).nullable().optional().openapi({ example: null }),
	})
	.openapi("LimitsRequest", {
		description: "A number sets an override, null restores the default, an absent field is left as is.",
	});

export const IssuedKeySchema = z
	.object({
		id: z.string().openapi({ example: "key_8hT2x0" }),
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		key: z.string().openapi({
			description: "The secret key. Shown only in this response.",
			example: "fps_live_7Rk2mQ9xW4vB8nL3pT6yH1cJ5dF0sG2a",
		}),
		display_prefix: z.string().openapi({ example: "fps_live_7Rk2" }),
		mode: z.enum(KEY_MODES),
		scopes: z.array(z.enum(SCOPES)),
		created_at: dateTime(),
		expires_at: dateTime()
			.nullable()
			.openapi({ description: "When the key stops working by itself (401 `api_key_expired`); null: never." }),
	})
	.openapi("IssuedKey");

export const KeySummarySchema = IssuedKeySchema.omit({ key: true })
	.extend({
		revoked_at: dateTime().nullable(),
		last_used_at: dateTime().nullable().openapi({
			description:
				"When the key was last used, to the nearest 15 minutes (written at most once per 15 minutes); null: never.",
		}),
	})
	.openapi("KeySummary");

export const NewAccountSchema = z
	.object({
		account: z.object({
			id: z.string().openapi({ example: "acct_4fQ9v2" }),
			name: z.string().openapi({ example: "Harbour Museum Store" }),
			created_at: dateTime(),
		}),
		keys: z.object({ live: IssuedKeySchema, test: IssuedKeySchema }),
		webhook_secret: z.string().openapi({
			description:
				"Signs the account's live webhooks (the same as `webhook_secrets.live`). Shown only in this response.",
			example: "whsec_Zp4LqT8vX2nR6cW1yK9mB3sD7fH5gJ0a",
		}),
		webhook_secrets: z
			.object({
				live: z.string().openapi({ example: "whsec_Zp4LqT8vX2nR6cW1yK9mB3sD7fH5gJ0a" }),
				test: z.string().openapi({ example: "whsec_Qe7NvY2kU5tA9rM4xC8bL1pS6wG3hJ0d" }),
			})
			.openapi({
				description:
					"The secrets that sign live and test webhooks: separate, so a test key never rotates the live one. Shown only in this response.",
			}),
	})
	.openapi("NewAccount");

export const LimitsSchema = z
	.object({
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		requests_per_minute: z.number().openapi({ example: DEFAULT_LIMITS.requestsPerMinute }),
		orders_per_second: z.number().openapi({ example: DEFAULT_LIMITS.ordersPerSecond }),
		order_burst: z.number().openapi({ example: DEFAULT_LIMITS.orderBurst }),
	})
	.openapi("Limits");

/** The most an edit window can be: a day. */
export const MAX_EDIT_WINDOW_MINUTES = 1440;

export const SettingsBody = z
	.strictObject({
		edit_window_minutes: z.number().int().min(0).max(MAX_EDIT_WINDOW_MINUTES).openapi({
			description:
				"Minutes after its creation during which an order's recipient, shipping method and items can still be changed, and the floor does not see it (0 to 1440; 0: no window). Applies to orders created from now on; an order keeps the window it was created with.",
			example: 30,
		}),
	})
	.openapi("AccountSettingsRequest");

export const SettingsSchema = z
	.object({
		account_id: z.string().openapi({ example: "acct_4fQ9v2" }),
		edit_window_minutes: z.number().int().openapi({ example: 30 }),
	})
	.openapi("AccountSettings");
