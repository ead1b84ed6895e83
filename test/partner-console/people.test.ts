/**
 * The people section of the partner console (owners only): the account's users with their standing,
 * an invitation whose link is shown once, and a revocation that ends the user's sessions at once;
 * never a user of another account, never oneself, never the last owner.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOCK_AFTER } from "../../src/partner-users/lockout.ts";
import { findUser, recordFailure, revokeTeammate, usersOfAccount } from "../../src/partner-users/store.ts";
import { post, request, signedInUser } from "./console-client.ts";

/** The account's users by email. */
async function usersByEmail(accountId: string) {
	return new Map((await usersOfAccount(env.DB, accountId)).map((user) => [user.email, user]));
}

describe("partner console: the people page", () => {
	it("lists the account's users with role, status and last sign-in, and never another account's", async () => {
		const owner = await signedInUser("owner");
		const support = await signedInUser("support", owner.partner);
		const other = await signedInUser("viewer");
		const locked = await findUser(env.DB, support.userId);
		if (locked === null) throw new Error("no user");
		let state = locked;
		for (let attempt = 0; attempt < LOCK_AFTER; attempt += 1)
			state = { ...state, ...(await recordFailure(env.DB, state, new Date())) };
		const response = await owner.get("/partner/people");
		expect(response.status).toBe(200);
		const html = await response.text();
		expect(html).toContain(owner.email);
		expect(html).toContain(support.email);
		expect(html).not.toContain(other.email);
		expect(html).toContain("Locked for now");
		expect(html).toContain("Active");
		expect(html).toMatch(/\d{4}-\d{2}-\d{2} \d{2}:\d{2} UTC/);
	});

	it("an owner invites a user: the link is shown once, the user is listed as invited, and the link sets their password", async () => {
		const owner = await signedInUser("owner");
		const invited = await owner.post("/partner/people/invite", {
			email: "  New.Person@Harbour.example ",
			name: "New Person",
			role: "developer",
		});
		expect(invited.status).toBe(201);
		const html = await invited.text();
		const link = /value="(https:\/\/api\.test\/partner\/invitations\/[A-Za-z0-9]+)"/.exec(html)?.[1];
		expect(link).toBeDefined();
		expect(html).toContain("It is shown only now.");
		const users = await usersByEmail(owner.partner.account.id);
		expect(users.get("new.person@harbour.example")).toMatchObject({ role: "developer", password_hash: null });
		const again = await (await owner.get("/partner/people")).text();
		expect(again).not.toContain("/partner/invitations/");
		expect(again).toContain("Invited");
		const path = new URL(link ?? "").pathname;
		const set = await post(path, { password: "a new long password", confirm: "a new long password" });
		expect(set.status).toBe(303);
	});

	it("refuses an invitation the admin route refuses: a taken address (409), a bad email, role or name (422)", async () => {
		const owner = await signedInUser("owner");
		const taken = await owner.post("/partner/people/invite", { email: owner.email, name: "Again", role: "viewer" });
		expect(taken.status).toBe(409);
		expect(await taken.text()).toContain("already has a user");
		const badEmail = await owner.post("/partner/people/invite", { email: "not-an-email", name: "A", role: "viewer" });
		expect(badEmail.status).toBe(422);
		expect(await badEmail.text()).toContain("must be an email address");
		const badRole = await owner.post("/partner/people/invite", {
			email: "x@harbour.example",
			name: "A",
			role: "admin",
		});
		expect(badRole.status).toBe(422);
		const noName = await owner.post("/partner/people/invite", { email: "y@harbour.example", role: "viewer" });
		expect(noName.status).toBe(422);
		expect((await usersByEmail(owner.partner.account.id)).size).toBe(1);
	});

	it("revoking a user ends their session at once: their very next request is signed out", async () => {
		const owner = await signedInUser("owner");
		const support = await signedInUser("support", owner.partner);
		expect((await support.get("/partner")).status).toBe(200);
		const revoked = await owner.post(`/partner/people/${support.userId}/revoke`, { confirm: "yes" });
		expect(revoked.status).toBe(303);
		expect(revoked.headers.get("Location")).toBe("/partner/people?done=revoked");
		const next = await support.get("/partner");
		expect(next.status).toBe(303);
		expect(next.headers.get("Location")).toBe("/partner/sign-in");
		const html = await (await owner.get("/partner/people?done=revoked")).text();
		expect(html).toContain("The user is revoked");
		expect(html).toContain("Revoked");
	});

	it("revokes only with the confirmation ticked", async () => {
		const owner = await signedInUser("owner");
		const viewer = await signedInUser("viewer", owner.partner);
		const unconfirmed = await owner.post(`/partner/people/${viewer.userId}/revoke`, {});
		expect(unconfirmed.status).toBe(422);
		expect(await unconfirmed.text()).toContain("Tick the box to confirm");
		expect((await viewer.get("/partner")).status).toBe(200);
	});

	it("an owner cannot revoke themself (409, still signed in)", async () => {
		const owner = await signedInUser("owner");
		const self = await owner.post(`/partner/people/${owner.userId}/revoke`, { confirm: "yes" });
		expect(self.status).toBe(409);
		expect(await self.text()).toContain("You cannot revoke yourself");
		expect((await owner.get("/partner")).status).toBe(200);
	});

	it("the last owner not revoked cannot be revoked; another owner can be", async () => {
		const owner = await signedInUser("owner");
		const second = await signedInUser("owner", owner.partner);
		expect((await owner.post(`/partner/people/${second.userId}/revoke`, { confirm: "yes" })).status).toBe(303);
		// Past the console's own check (an owner never revokes themself), the rule holds in the write itself.
		const refused = await revokeTeammate(
			env.DB,
			{ id: second.userId, account_id: owner.partner.account.id },
			owner.userId,
			new Date(),
		);
		expect(refused).toMatchObject({ ok: false, code: "partner_user_revoke_refused" });
		expect((await findUser(env.DB, owner.userId))?.revoked_at).toBeNull();
	});
});

describe("partner console: who may manage people", () => {
	it("developers, support users and viewers get 403 on the page and every form", async () => {
		const owner = await signedInUser("owner");
		for (const role of ["developer", "support", "viewer"] as const) {
			const user = await signedInUser(role, owner.partner);
			expect((await user.get("/partner/people")).status).toBe(403);
			expect(
				(await user.post("/partner/people/invite", { email: `${role}.x@harbour.example`, name: "X", role: "owner" }))
					.status,
			).toBe(403);
			expect((await user.post(`/partner/people/${owner.userId}/revoke`, { confirm: "yes" })).status).toBe(403);
			expect(await (await user.get("/partner")).text()).not.toContain('href="/partner/people"');
		}
		expect((await findUser(env.DB, owner.userId))?.revoked_at).toBeNull();
		expect((await usersByEmail(owner.partner.account.id)).has("viewer.x@harbour.example")).toBe(false);
	});

	it("another account's user id is a 404 on the revoke form, and that user keeps their session", async () => {
		const owner = await signedInUser("owner");
		const stranger = await signedInUser("viewer");
		const response = await owner.post(`/partner/people/${stranger.userId}/revoke`, { confirm: "yes" });
		expect(response.status).toBe(404);
		expect((await owner.post("/partner/people/usr_nobody/revoke", { confirm: "yes" })).status).toBe(404);
		expect((await stranger.get("/partner")).status).toBe(200);
	});

	it("every people form refuses a missing or a forged _csrf (403) and changes nothing", async () => {
		const owner = await signedInUser("owner");
		const viewer = await signedInUser("viewer", owner.partner);
		for (const token of [undefined, "forged-token"]) {
			const extra: Record<string, string> = token === undefined ? {} : { _csrf: token };
			const invite = { email: "forged@harbour.example", name: "F", role: "owner", ...extra };
			expect((await post("/partner/people/invite", invite, owner.cookie)).status).toBe(403);
			expect(
				(await post(`/partner/people/${viewer.userId}/revoke`, { confirm: "yes", ...extra }, owner.cookie)).status,
			).toBe(403);
		}
		expect((await usersByEmail(owner.partner.account.id)).has("forged@harbour.example")).toBe(false);
		expect((await viewer.get("/partner")).status).toBe(200);
	});

	it("signed out, the people page goes to the sign-in page", async () => {
		const response = await request("/partner/people");
		expect(response.status).toBe(303);
		expect(response.headers.get("Location")).toBe("/partner/sign-in");
	});
});
