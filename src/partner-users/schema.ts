/** The partner users' shapes as the admin API takes and shows them. */
import { z } from "@hono/zod-openapi";
import { dateTime } from "../http/date-time.ts";
import { singleLineText } from "../text-rules.ts";
import { PARTNER_ROLES, type PartnerUserRow } from "./users.ts";

/** `{email, name, role}` of an invitation. */
export const InviteUserBody = z
	.strictObject({
		email: z
			.string()
			.trim()
			.max(254, "must be at most 254 characters")
			.regex(z.regexes.email, "must be an email address")
			.openapi({
				example: "maya@harbour-museum.example",
				description: "Where the invitation goes; stored lower-cased.",
			}),
		name: singleLineText(200).openapi({ example: "Maya Okafor" }),
		role: z.enum(PARTNER_ROLES).openapi({
			example: "support",
			description:
				"owner: everything, users, keys and secrets; developer: keys, webhooks and orders; support: orders and claims; viewer: reads only.",
		}),
	})
	.openapi("InvitePartnerUser");

/** A user, without anything secret. */
export const PartnerUserSchema = z
	.object({
		id: z.string().openapi({ example: "usr_4Tq8x2LmP0aZ" }),
		account_id: z.string().openapi({ example: "acct_7Hd2" }),
		email: z.string().openapi({ example: "maya@harbour-museum.example" }),
		name: z.string().openapi({ example: "Maya Okafor" }),
		role: z.enum(PARTNER_ROLES),
		status: z.enum(["invited", "active", "revoked"]).openapi({
			description: "invited until the password is set from the invitation; revoked: no more sign-in.",
		}),
		created_at: dateTime(),
	})
	.openapi("PartnerUser");

/** A user and the link that lets them set a password, shown once. */
export const InvitedUserSchema = z
	.object({
		user: PartnerUserSchema,
		invitation_url: z.string().openapi({
			example: "https://api.example.com/partner/invitations/9f3kQ2...",
			description: "Send it to the user: it sets their password once, within 7 days. Shown this once.",
		}),
		expires_at: dateTime(),
	})
	.openapi("InvitedPartnerUser");

/** A stored user as the API shows it. */
export function toPartnerUser(row: PartnerUserRow): z.infer<typeof PartnerUserSchema> {
	const status = row.revoked_at !== null ? "revoked" : row.password_hash === null ? "invited" : "active";
	return {
		id: row.id,
		account_id: row.account_id,
		email: row.email,
		name: row.name,
		role: row.role,
		status,
		created_at: row.created_at,
	};
}
