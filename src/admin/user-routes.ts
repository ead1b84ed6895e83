/**
 * The service team's routes for an account's console users (scope `admin`): invite one (the answer
 * carries the invitation link, shown once), list them, revoke one (no more sign-in, every session over).
 */
import { z } from "@hono/zod-openapi";
import { jsonResponse, protectedRoute } from "../access/protected-route.ts";
import type { AuthedEnv } from "../accounts/authed-env.ts";
import { AccountIdParams } from "../accounts/schema.ts";
import { accountExists } from "../accounts/store.ts";
import { directoryDatabase } from "../databases.ts";
import { createApp } from "../http/create-app.ts";
import { ApiError, errorResponses, okOrThrow } from "../http/errors.ts";
import { InvitedUserSchema, InviteUserBody, PartnerUserSchema, toPartnerUser } from "../partner-users/schema.ts";
import { findUser, inviteUser, revokeUser, usersOfAccount } from "../partner-users/store.ts";
import { invitationUrl } from "../partner-users/users.ts";

const UserParams = z.object({
	id: z.string().openapi({ param: { name: "id", in: "path" }, example: "acct_7Hd2" }),
	user_id: z.string().openapi({ param: { name: "user_id", in: "path" }, example: "usr_4Tq8x2LmP0aZ" }),
});

const inviteRoute = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts/{id}/users",
	tags: ["Admin"],
	summary: "Invite a user to an account's console: the answer's invitation link sets their password, once",
	request: {
		params: AccountIdParams,
		body: { required: true, content: { "application/json": { schema: InviteUserBody } } },
	},
	responses: {
		201: jsonResponse(InvitedUserSchema, "The user, invited; the link is shown this once."),
		...errorResponses(400, 404, 409, 422),
	},
});

const listRoute = protectedRoute("admin", {
	method: "get",
	path: "/admin/accounts/{id}/users",
	tags: ["Admin"],
	summary: "An account's console users, oldest first",
	request: { params: AccountIdParams },
	responses: {
		200: jsonResponse(z.object({ data: z.array(PartnerUserSchema) }).openapi("PartnerUserList"), "The users."),
		...errorResponses(404),
	},
});

const revokeRoute = protectedRoute("admin", {
	method: "post",
	path: "/admin/accounts/{id}/users/{user_id}/revoke",
	tags: ["Admin"],
	summary: "Revoke a console user: no more sign-in, and every session of theirs ends at once",
	request: { params: UserParams },
	responses: { 200: jsonResponse(PartnerUserSchema, "The user, revoked."), ...errorResponses(404) },
});

/** Admin routes for console users. */
export const adminUserRoutes = createApp<AuthedEnv>()
	.openapi(inviteRoute, async (c) => {
		const { id } = c.req.valid("param");
		if (!(await accountExists(directoryDatabase(c.env), id)))
			throw new ApiError("account_not_found", `No account ${id}.`, "id");
		const invited = okOrThrow(
			await inviteUser(directoryDatabase(c.env), { accountId: id, ...c.req.valid("json") }, new Date()),
		);
		const origin = new URL(c.req.url).origin;
		return c.json(
			{
				user: toPartnerUser(invited.user),
				invitation_url: invitationUrl(origin, invited.token),
				expires_at: invited.expiresAt,
			},
			201,
		);
	})
	.openapi(listRoute, async (c) => {
		const { id } = c.req.valid("param");
		const db = directoryDatabase(c.env);
		if (!(await accountExists(db, id))) throw new ApiError("account_not_found", `No account ${id}.`, "id");
		return c.json({ data: (await usersOfAccount(db, id)).map(toPartnerUser) }, 200);
	})
	.openapi(revokeRoute, async (c) => {
		const { id, user_id: userId } = c.req.valid("param");
		const db = directoryDatabase(c.env);
		if (!(await revokeUser(db, id, userId, new Date()))) {
			throw new ApiError("partner_user_not_found", `Account ${id} has no user ${userId}.`, "user_id");
		}
		const user = await findUser(db, userId);
		if (user === null) throw new ApiError("partner_user_not_found", `Account ${id} has no user ${userId}.`, "user_id");
		return c.json(toPartnerUser(user), 200);
	});
