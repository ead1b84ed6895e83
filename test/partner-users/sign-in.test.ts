/** A console user's sign-in (no enumeration, lock-out) and sessions (sign-out, everywhere, revocation). */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { LOCK_AFTER } from "../../src/partner-users/lockout.ts";
import { hashPassword } from "../../src/partner-users/password.ts";
import { closeSession, openSession, userOfSession } from "../../src/partner-users/sessions.ts";
import { signIn } from "../../src/partner-users/sign-in.ts";
import { acceptInvitation, endSessionsBefore, inviteUser, revokeUser } from "../../src/partner-users/store.ts";
import { createPartner } from "../helpers.ts";

const PASSWORD = "a harbour at dusk";

/** An active user of a fresh account, with its password set from its invitation. */
async function activeUser(role: "owner" | "viewer" = "owner") {
	const partner = await createPartner();
	const email = `user.${crypto.randomUUID().slice(0, 8)}@gallery.example`;
	const invited = await inviteUser(env.DB, { accountId: partner.account.id, email, name: "Ada", role }, new Date());
	if (!invited.ok) throw new Error(invited.message);
	const accepted = await acceptInvitation(env.DB, invited.token, await hashPassword(PASSWORD), new Date());
	if (!accepted.ok) throw new Error(accepted.message);
	return { partner, email, user: accepted.user, invitedToken: invited.token };
}

describe("console sign-in", () => {
	it("signs in with the right password, the email in any case", async () => {
		const { email, user } = await activeUser();
		expect(await signIn(env.DB, email.toUpperCase(), PASSWORD, new Date())).toMatchObject({
			ok: true,
			user: { id: user.id },
		});
	});

	it("answers an unknown address, an invited user without a password and a wrong password alike", async () => {
		const { email, partner } = await activeUser();
		const pending = `pending.${crypto.randomUUID().slice(0, 8)}@gallery.example`;
		await inviteUser(env.DB, { accountId: partner.account.id, email: pending, name: "P", role: "viewer" }, new Date());
		const answers = [
			await signIn(env.DB, "nobody@nowhere.example", PASSWORD, new Date()),
			await signIn(env.DB, pending, PASSWORD, new Date()),
			await signIn(env.DB, email, "not the password", new Date()),
		];
		expect(answers).toEqual([
			{ ok: false, reason: "invalid" },
			{ ok: false, reason: "invalid" },
			{ ok: false, reason: "invalid" },
		]);
	});

	it(`locks the user after ${LOCK_AFTER} wrong passwords, even against the right one, until the lock runs out`, async () => {
		const { email } = await activeUser();
		const now = new Date();
		for (let failure = 1; failure < LOCK_AFTER; failure++) {
			expect(await signIn(env.DB, email, "wrong password!", now)).toEqual({ ok: false, reason: "invalid" });
		}
		expect(await signIn(env.DB, email, "wrong password!", now)).toEqual({ ok: false, reason: "locked" });
		expect(await signIn(env.DB, email, PASSWORD, now)).toEqual({ ok: false, reason: "locked" });
		const later = new Date(now.getTime() + 16 * 60_000);
		expect((await signIn(env.DB, email, PASSWORD, later)).ok).toBe(true);
	});

	it("refuses a revoked user's right password, as an unknown one", async () => {
		const { email, partner, user } = await activeUser();
		await revokeUser(env.DB, partner.account.id, user.id, new Date());
		expect(await signIn(env.DB, email, PASSWORD, new Date())).toEqual({ ok: false, reason: "invalid" });
	});
});

describe("console sessions", () => {
	it("a session stands until it is signed out, and names its user", async () => {
		const { user } = await activeUser();
		const id = `ses_${crypto.randomUUID().replaceAll("-", "")}`;
		await openSession(env.DB, id, user.id, new Date());
		expect((await userOfSession(env.DB, id, new Date()))?.id).toBe(user.id);
		await closeSession(env.DB, id);
		expect(await userOfSession(env.DB, id, new Date())).toBeNull();
	});

	it("ends at its expiry, at a sign-out everywhere and at the user's revocation, at once", async () => {
		const { user, partner } = await activeUser();
		const begun = new Date(Date.now() - 1000);
		const [expiring, everywhere, revoked] = ["a", "b", "c"].map(
			(tag) => `ses_${tag}${crypto.randomUUID().replaceAll("-", "")}`,
		);
		for (const id of [expiring, everywhere, revoked]) await openSession(env.DB, id ?? "", user.id, begun);
		expect(await userOfSession(env.DB, expiring ?? "", new Date(begun.getTime() + 13 * 3_600_000))).toBeNull();
		await endSessionsBefore(env.DB, user.id, new Date());
		expect(await userOfSession(env.DB, everywhere ?? "", new Date())).toBeNull();
		const fresh = `ses_fresh${crypto.randomUUID().replaceAll("-", "")}`;
		await openSession(env.DB, fresh, user.id, new Date(Date.now() + 1000));
		expect((await userOfSession(env.DB, fresh, new Date(Date.now() + 2000)))?.id).toBe(user.id);
		await revokeUser(env.DB, partner.account.id, user.id, new Date(Date.now() + 3000));
		expect(await userOfSession(env.DB, fresh, new Date(Date.now() + 4000))).toBeNull();
	});
});
