/**
 * The partner console's front door, as a browser uses it: an invitation link sets the password, the
 * sign-in opens a session (a signed `__Host-` cookie), wrong and unknown answers read alike, forms need
 * their token, and sign-out here, everywhere, or a revocation ends sessions at once.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { inviteUser, revokeUser } from "../../src/partner-users/store.ts";
import { createPartner } from "../helpers.ts";
import { COOKIE, cookieOf, csrfOf, PASSWORD, post, request, signedInUser } from "./console-client.ts";

describe("partner console sign-in", () => {
	it("an invitation sets the password once; sign-in then opens a Secure, HttpOnly, SameSite=Strict session showing the account", async () => {
		const { cookie, token } = await signedInUser();
		const home = await request("/partner", { cookie });
		expect(home.status).toBe(200);
		const html = await home.text();
		expect(html).toContain("Harbour Museum Store");
		expect(html).toContain("Support: orders and claims");
		const again = await post(`/partner/invitations/${token}`, {
			password: "another password!",
			confirm: "another password!",
		});
		expect(again.status).toBe(404);
	});

	it("sets the cookie with the __Host- prefix, HttpOnly, Secure and SameSite=Strict", async () => {
		const partner = await createPartner();
		const email = `c.${crypto.randomUUID().slice(0, 8)}@example.com`;
		const invited = await inviteUser(
			env.DB,
			{ accountId: partner.account.id, email, name: "C", role: "viewer" },
			new Date(),
		);
		if (!invited.ok) throw new Error(invited.message);
		await post(`/partner/invitations/${invited.token}`, { password: PASSWORD, confirm: PASSWORD });
		const response = await post("/partner/sign-in", { email, password: PASSWORD });
		const header = response.headers.getSetCookie().find((value) => value.startsWith(`${COOKIE}=`)) ?? "";
		expect(header).toMatch(/HttpOnly/);
		expect(header).toMatch(/Secure/);
		expect(header).toMatch(/SameSite=Strict/);
		expect(header).toMatch(/Path=\//);
	});

	it("answers a wrong password and an unknown email with the same page and status, echoing no password", async () => {
		const { email } = await signedInUser();
		const wrong = await post("/partner/sign-in", { email, password: "not the password" });
		const unknown = await post("/partner/sign-in", { email: "nobody@nowhere.example", password: "not the password" });
		expect([wrong.status, unknown.status]).toEqual([401, 401]);
		const [wrongText, unknownText] = [await wrong.text(), await unknown.text()];
		expect(wrongText.replace(email, "EMAIL")).toBe(unknownText.replace("nobody@nowhere.example", "EMAIL"));
		expect(wrongText).not.toContain("not the password");
		expect(cookieOf(wrong)).toBeNull();
	});

	it("refuses a password the invitation form does not accept, or two that differ, keeping the link usable", async () => {
		const partner = await createPartner();
		const invited = await inviteUser(
			env.DB,
			{
				accountId: partner.account.id,
				email: `d.${crypto.randomUUID().slice(0, 8)}@example.com`,
				name: "D",
				role: "viewer",
			},
			new Date(),
		);
		if (!invited.ok) throw new Error(invited.message);
		const short = await post(`/partner/invitations/${invited.token}`, { password: "short", confirm: "short" });
		expect(short.status).toBe(422);
		expect(await short.text()).toContain("Use at least 12 characters.");
		const differ = await post(`/partner/invitations/${invited.token}`, { password: PASSWORD, confirm: `${PASSWORD}!` });
		expect(await differ.text()).toContain("The two passwords are not the same.");
		expect(
			(await post(`/partner/invitations/${invited.token}`, { password: PASSWORD, confirm: PASSWORD })).status,
		).toBe(303);
	});

	it("refuses a sign-out without its form token or with a forged one (403), and a post from another site", async () => {
		const { cookie } = await signedInUser();
		expect((await post("/partner/sign-out", {}, cookie)).status).toBe(403);
		expect((await post("/partner/sign-out", { _csrf: "forged" }, cookie)).status).toBe(403);
		const crossSite = await post("/partner/sign-in", { email: "x@example.com", password: PASSWORD }, undefined, {
			Origin: "https://evil.example",
		});
		expect(crossSite.status).toBe(403);
		expect((await request("/partner", { cookie })).status).toBe(200);
	});

	it("signs out here, and everywhere: every session of the user ends", async () => {
		const { cookie, email } = await signedInUser();
		const second = cookieOf(await post("/partner/sign-in", { email, password: PASSWORD })) ?? "";
		const token = csrfOf(await (await request("/partner", { cookie })).text());
		const out = await post("/partner/sign-out-everywhere", { _csrf: token }, cookie);
		expect(out.status).toBe(303);
		expect((await request("/partner", { cookie: second })).headers.get("Location")).toBe("/partner/sign-in");
		expect((await request("/partner", { cookie })).headers.get("Location")).toBe("/partner/sign-in");
	});

	it("ends a revoked user's session at once", async () => {
		const { cookie, partner, userId } = await signedInUser();
		await revokeUser(env.DB, partner.account.id, userId, new Date(Date.now() + 1000));
		expect((await request("/partner", { cookie })).status).toBe(303);
	});

	it("marks the test data's pages as test data", async () => {
		const { cookie } = await signedInUser();
		expect(await (await request("/partner?mode=test", { cookie })).text()).toContain(
			"Test data: nothing on these pages",
		);
		expect(await (await request("/partner", { cookie })).text()).not.toContain("Test data: nothing on these pages");
	});
});
