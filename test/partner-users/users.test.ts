/** Console users: invited by the service team, accepting once, found by email, locked out, revoked. */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOCK_AFTER } from "../../src/partner-users/lockout.ts";
import { hashPassword, passwordMatches } from "../../src/partner-users/password.ts";
import {
	acceptInvitation,
	endSessionsBefore,
	findUserByEmail,
	recordFailure,
	revokeUser,
} from "../../src/partner-users/store.ts";
import { api, createAdminKey, createPartner, expectError, send } from "../helpers.ts";

type Invited = {
	user: { id: string; email: string; role: string; status: string; account_id: string };
	invitation_url: string;
	expires_at: string;
};

async function invite(admin: string, accountId: string, body: Record<string, unknown>): Promise<Invited> {
	const response = await send("POST", `/v1/admin/accounts/${accountId}/users`, admin, body);
	if (response.status !== 201) throw new Error(`invite: ${response.status} ${await response.text()}`);
	return (await response.json()) as Invited;
}

function tokenOf(invited: Invited): string {
	return invited.invitation_url.split("/").at(-1) ?? "";
}

function uniqueEmail(): string {
	return `Maya.${crypto.randomUUID().slice(0, 8)}@Harbour-Museum.example`;
}

describe("console users", () => {
	it("invites a user with a link to set a password, stored lower-cased, listed as invited", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const email = uniqueEmail();
		const invited = await invite(admin, partner.account.id, { email, name: "Maya Okafor", role: "support" });
		expect(invited.user).toMatchObject({ email: email.toLowerCase(), role: "support", status: "invited" });
		expect(invited.invitation_url).toMatch(/^https?:\/\/[^/]+\/partner\/invitations\/[0-9A-Za-z]{40}$/);
		expect(Date.parse(invited.expires_at) - Date.now()).toBeGreaterThan(6.9 * 86_400_000);
		const listed = await api(`/v1/admin/accounts/${partner.account.id}/users`, { key: admin });
		expect(((await listed.json()) as { data: unknown[] }).data).toEqual([invited.user]);
		const stored = await env.DB.prepare("SELECT * FROM partner_invitations WHERE user_id = ?1")
			.bind(invited.user.id)
			.first<{ token_hash: string }>();
		expect(stored?.token_hash).toMatch(/^[0-9a-f]{64}$/);
		expect(stored?.token_hash).not.toContain(tokenOf(invited));
	});

	it("refuses a second user for an address in any case (409), an unknown account (404) and a bad role or email (422)", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const other = await createPartner();
		const email = uniqueEmail();
		await invite(admin, partner.account.id, { email, name: "Maya", role: "owner" });
		const again = await send("POST", `/v1/admin/accounts/${other.account.id}/users`, admin, {
			email: `  ${email.toUpperCase()} `,
			name: "Maya again",
			role: "viewer",
		});
		expect((await expectError(again, "conflict", "email")).code).toBe("partner_user_exists");
		const unknown = await send("POST", "/v1/admin/accounts/acct_missing/users", admin, {
			email: uniqueEmail(),
			name: "X",
			role: "viewer",
		});
		expect((await expectError(unknown, "not_found", "id")).code).toBe("account_not_found");
		for (const body of [
			{ email: "not an address", name: "X", role: "viewer" },
			{ email: uniqueEmail(), name: "X", role: "superuser" },
		]) {
			expect((await send("POST", `/v1/admin/accounts/${partner.account.id}/users`, admin, body)).status).toBe(422);
		}
	});

	it("accepts an invitation once: the password is set, and the same link is then refused", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const invited = await invite(admin, partner.account.id, { email: uniqueEmail(), name: "Maya", role: "owner" });
		const accepted = await acceptInvitation(
			env.DB,
			tokenOf(invited),
			await hashPassword("a harbour at dusk"),
			new Date(),
		);
		expect(accepted.ok).toBe(true);
		const user = await findUserByEmail(env.DB, invited.user.email.toUpperCase());
		expect(await passwordMatches("a harbour at dusk", user?.password_hash ?? "")).toBe(true);
		const again = await acceptInvitation(env.DB, tokenOf(invited), await hashPassword("another password!"), new Date());
		expect(again).toMatchObject({ ok: false, code: "invitation_invalid" });
		expect(
			await passwordMatches(
				"a harbour at dusk",
				(await findUserByEmail(env.DB, invited.user.email))?.password_hash ?? "",
			),
		).toBe(true);
	});

	it("refuses an expired, unknown or revoked user's invitation with the same words", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const late = await invite(admin, partner.account.id, { email: uniqueEmail(), name: "Late", role: "viewer" });
		const revoked = await invite(admin, partner.account.id, { email: uniqueEmail(), name: "Gone", role: "viewer" });
		const response = await api(`/v1/admin/accounts/${partner.account.id}/users/${revoked.user.id}/revoke`, {
			method: "POST",
			key: admin,
		});
		expect(((await response.json()) as { status: string }).status).toBe("revoked");
		const hash = await hashPassword("a long enough secret");
		const eightDaysOn = new Date(Date.now() + 8 * 86_400_000);
		const refusals = [
			await acceptInvitation(env.DB, tokenOf(late), hash, eightDaysOn),
			await acceptInvitation(env.DB, "0".repeat(40), hash, new Date()),
			await acceptInvitation(env.DB, tokenOf(revoked), hash, new Date()),
		];
		const messages = new Set(refusals.map((refusal) => (refusal.ok ? "accepted" : refusal.message)));
		expect(messages.size).toBe(1);
		expect(refusals.every((refusal) => !refusal.ok)).toBe(true);
	});

	it(`locks a user after ${LOCK_AFTER} wrong passwords; revoking or signing out everywhere ends sessions begun before`, async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const invited = await invite(admin, partner.account.id, { email: uniqueEmail(), name: "Maya", role: "owner" });
		let user = await findUserByEmail(env.DB, invited.user.email);
		if (user === null) throw new Error("no user");
		const now = new Date();
		for (let failure = 0; failure < LOCK_AFTER; failure++) {
			const state = await recordFailure(env.DB, user, now);
			user = { ...user, ...state };
		}
		const locked = await findUserByEmail(env.DB, invited.user.email);
		expect(Date.parse(locked?.locked_until ?? "")).toBeGreaterThan(now.getTime());
		await endSessionsBefore(env.DB, invited.user.id, now);
		expect((await findUserByEmail(env.DB, invited.user.email))?.sessions_valid_after).toBe(now.toISOString());
		expect(await revokeUser(env.DB, "acct_other", invited.user.id, now)).toBe(false);
		expect(await revokeUser(env.DB, partner.account.id, invited.user.id, now)).toBe(true);
	});

	it("revoking a user of another account, or no user, is a 404", async () => {
		const admin = await createAdminKey();
		const partner = await createPartner();
		const other = await createPartner();
		const invited = await invite(admin, partner.account.id, { email: uniqueEmail(), name: "Maya", role: "owner" });
		const response = await api(`/v1/admin/accounts/${other.account.id}/users/${invited.user.id}/revoke`, {
			method: "POST",
			key: admin,
		});
		expect((await expectError(response, "not_found", "user_id")).code).toBe("partner_user_not_found");
	});
});
