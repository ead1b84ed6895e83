/**
 * The people section, /partner/people (owners only: manage_people): the account's users, an invitation
 * (inviteUser, as the admin route's; the link shown once, on this answer only), and a revocation
 * (revokeTeammate: revokeUser's write, refused for oneself and for the last owner). A user of another
 * account is not found.
 */
import type { Context } from "hono";
import { Hono } from "hono";
import { directoryDatabase } from "../databases.ts";
import { page, readForm } from "../http/html-pages.ts";
import { validationErrorFrom } from "../http/validation.ts";
import { InviteUserBody } from "../partner-users/schema.ts";
import { lastSignInsOf } from "../partner-users/sessions.ts";
import { findUser, inviteUser, revokeTeammate, usersOfAccount } from "../partner-users/store.ts";
import { invitationUrl, standingOf } from "../partner-users/users.ts";
import { partnerErrorPage } from "./pages.tsx";
import type { SignedInPartnerEnv } from "./partner-env.ts";
import { type InviteValues, PEOPLE_DONE, PeoplePage, type PeoplePageProps } from "./people-page.tsx";
import { modeOf, withMode } from "./scope.ts";
import { requireAbility, requirePartner, requirePartnerCsrf } from "./session-gate.ts";

type PeopleContext = Context<SignedInPartnerEnv>;
type PageState = Pick<PeoplePageProps, "invited" | "done" | "refusal" | "refusedForm" | "inviteValues">;

const EMPTY_INVITE: InviteValues = { email: "", name: "", role: "viewer" };
const NOTHING: PageState = { invited: null, done: null, refusal: null, inviteValues: EMPTY_INVITE };

/** The people page as it stands now, with what the last action left to say. */
async function peoplePage(c: PeopleContext, state: PageState, status: 200 | 201 | 400 | 409 | 422 = 200) {
	const { user, csrfToken } = c.var.signedIn;
	const db = directoryDatabase(c.env);
	const [users, lastSignIns] = await Promise.all([
		usersOfAccount(db, user.account_id),
		lastSignInsOf(db, user.account_id),
	]);
	const now = new Date();
	const people = users.map((row) => ({
		user: row,
		standing: standingOf(row, now),
		lastSignIn: lastSignIns.get(row.id) ?? null,
	}));
	const props: PeoplePageProps = {
		viewer: { csrfToken, role: user.role },
		mode: modeOf(c),
		selfId: user.id,
		people,
		...state,
	};
	return page(c, <PeoplePage {...props} />, status);
}

/** The text of a posted field, capped; "" when absent or a file. */
function textField(form: Record<string, unknown>, name: string, cap: number): string {
	const value = form[name];
	return typeof value === "string" ? value.slice(0, cap) : "";
}

export const partnerPeopleRoutes = new Hono<SignedInPartnerEnv>();

partnerPeopleRoutes.use("*", requirePartner, requireAbility("manage_people"));

partnerPeopleRoutes.get("/", (c) =>
	peoplePage(c, { ...NOTHING, done: c.req.query("done") === "revoked" ? PEOPLE_DONE.revoked : null }),
);

partnerPeopleRoutes.post("/invite", requirePartnerCsrf, async (c) => {
	const form = await readForm(c);
	const inviteValues: InviteValues = {
		email: textField(form, "email", 1000),
		name: textField(form, "name", 1000),
		role: textField(form, "role", 50),
	};
	const refused = (refusal: string, status: 400 | 409 | 422) =>
		peoplePage(c, { ...NOTHING, refusal, refusedForm: "invite", inviteValues }, status);
	const parsed = InviteUserBody.safeParse(inviteValues);
	if (!parsed.success) {
		const error = validationErrorFrom(parsed.error, inviteValues);
		return refused(error.message, error.status === 400 ? 400 : 422);
	}
	const accountId = c.var.signedIn.user.account_id;
	const invited = await inviteUser(directoryDatabase(c.env), { accountId, ...parsed.data }, new Date());
	if (!invited.ok) return refused(invited.message, 409);
	const url = invitationUrl(new URL(c.req.url).origin, invited.token);
	const shown = { name: invited.user.name, email: invited.user.email, url, expiresAt: invited.expiresAt };
	return peoplePage(c, { ...NOTHING, invited: shown }, 201);
});

partnerPeopleRoutes.post("/:userId/revoke", requirePartnerCsrf, async (c) => {
	const { user: actor, csrfToken } = c.var.signedIn;
	const userId = c.req.param("userId");
	const db = directoryDatabase(c.env);
	const target = await findUser(db, userId);
	if (target === null || target.account_id !== actor.account_id) {
		return partnerErrorPage(c, 404, "This account has no such user.", { csrfToken, role: actor.role });
	}
	const form = await readForm(c);
	if (form.confirm !== "yes") {
		const refusal = `Tick the box to confirm that ${target.name} is to be revoked: nothing changed.`;
		return peoplePage(c, { ...NOTHING, refusal, refusedForm: "revoke" }, 422);
	}
	const revoked = await revokeTeammate(db, actor, userId, new Date());
	if (!revoked.ok) {
		if (revoked.code === "partner_user_not_found") {
			return partnerErrorPage(c, 404, "This account has no such user.", { csrfToken, role: actor.role });
		}
		return peoplePage(c, { ...NOTHING, refusal: revoked.message, refusedForm: "revoke" }, 409);
	}
	return c.redirect(withMode("/partner/people?done=revoked", modeOf(c)), 303);
});
