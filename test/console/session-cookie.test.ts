import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/accounts/keys.ts";
import { newSessionId, signSessionCookie, verifySessionCookie } from "../../src/http/signed-session.ts";
import { createAdminKey, createKeyWithScopes, insertKeyRow, send } from "../helpers.ts";
import {
	consoleRequest,
	expectRedirect,
	htmlOf,
	postForm,
	sessionSetCookieHeader,
	signedInOperator,
	signIn,
	TEST_SECRET,
} from "./console-helpers.ts";

const nowUnix = () => Math.floor(Date.now() / 1000);

/** The queue with this cookie must send the browser to sign in, and clear the dead cookie. */
async function expectSentToSignIn(cookie: string): Promise<void> {
	const response = expectRedirect(await consoleRequest("/ops/orders", { cookie }), "/ops/sign-in");
	expect(sessionSetCookieHeader(response)).toMatch(/Max-Age=0/);
}

/** The session id a cookie names (it must be a genuine one). */
async function sessionIdOf(cookie: string): Promise<string> {
	const signed = await verifySessionCookie(TEST_SECRET, cookie, nowUnix());
	if (signed === null) throw new Error("not a valid cookie");
	return signed.sessionId;
}

/** A character swapped in the middle of `text` (a middle one, so its bits all count). */
function tamperAt(text: string, index: number): string {
	const current = text.charAt(index);
	return `${text.slice(0, index)}${current === "A" ? "B" : "A"}${text.slice(index + 1)}`;
}

/** A session row for an ops key, written directly, expiring at `expiresAt`. */
async function insertSessionRow(key: string, expiresAt: Date): Promise<string> {
	const keyRow = await env.DB.prepare("SELECT id FROM api_keys WHERE key_hash = ?1")
		.bind(await hashApiKey(key))
		.first<{ id: string }>();
	const id = newSessionId();
	await env.DB.prepare("INSERT INTO ops_sessions (id, key_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")
		.bind(id, keyRow?.id ?? "", new Date().toISOString(), expiresAt.toISOString())
		.run();
	return id;
}

describe("session cookie", () => {
	it("a cookie with one signature character changed sends the browser to sign in", async () => {
		const cookie = await signIn(await createKeyWithScopes(["ops"]));
		await expectSentToSignIn(tamperAt(cookie, cookie.length - 10));
	});

	it("a cookie whose session id was changed sends the browser to sign in", async () => {
		const cookie = await signIn(await createKeyWithScopes(["ops"]));
		const other = await signIn(await createKeyWithScopes(["ops"]));
		const [, expires, mac] = cookie.split(".");
		// Another live session's id under this cookie's signature.
		await expectSentToSignIn(`${await sessionIdOf(other)}.${expires}.${mac}`);
	});

	it("a cookie whose expiry was pushed back sends the browser to sign in", async () => {
		const cookie = await signIn(await createKeyWithScopes(["ops"]));
		const [id, expires, mac] = cookie.split(".");
		await expectSentToSignIn(`${id}.${Number(expires) + 86_400}.${mac}`);
	});

	it("an expired cookie, correctly signed, sends the browser to sign in", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const past = new Date(Date.now() - 60_000);
		const id = await insertSessionRow(key, past);
		await expectSentToSignIn(await signSessionCookie(TEST_SECRET, id, Math.floor(past.getTime() / 1000)));
	});

	it("a session whose row has expired is refused even when its cookie claims a later expiry", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const id = await insertSessionRow(key, new Date(Date.now() - 1000));
		await expectSentToSignIn(await signSessionCookie(TEST_SECRET, id, nowUnix() + 3600));
	});

	it("a correctly signed cookie for a session that was never opened sends the browser to sign in", async () => {
		await expectSentToSignIn(await signSessionCookie(TEST_SECRET, newSessionId(), nowUnix() + 3600));
	});

	it("a cookie signed with another secret sends the browser to sign in", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const id = await insertSessionRow(key, new Date(Date.now() + 3_600_000));
		await expectSentToSignIn(await signSessionCookie("not-the-worker-secret", id, nowUnix() + 3600));
	});

	it("a session made by hand with the worker's secret and a live row is accepted (the check is the row and the MAC)", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const id = await insertSessionRow(key, new Date(Date.now() + 3_600_000));
		const cookie = await signSessionCookie(TEST_SECRET, id, nowUnix() + 3600);
		await htmlOf(await consoleRequest("/ops/orders", { cookie }), 200);
	});

	it("a session opened by a test-mode ops key (a row from before ops keys were live-only) is over", async () => {
		const id = await insertSessionRow(await insertKeyRow(["ops"], "test"), new Date(Date.now() + 3_600_000));
		await expectSentToSignIn(await signSessionCookie(TEST_SECRET, id, nowUnix() + 3600));
	});

	it("the session of a key revoked since sign-in is over", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const cookie = await signIn(key);
		await htmlOf(await consoleRequest("/ops/orders", { cookie }), 200);
		const keyRow = await env.DB.prepare("SELECT id FROM api_keys WHERE key_hash = ?1")
			.bind(await hashApiKey(key))
			.first<{ id: string }>();
		const revoked = await send("POST", `/v1/admin/keys/${keyRow?.id}/revoke`, await createAdminKey(), {});
		expect(revoked.status).toBe(200);
		await expectSentToSignIn(cookie);
	});

	it("every console page and form post without a session redirects to sign in", async () => {
		for (const path of [
			"/ops/orders",
			"/ops/orders?status=on_hold",
			"/ops/orders/ord_x",
			"/ops/orders/ord_x/packing-slip",
		]) {
			expectRedirect(await consoleRequest(path), "/ops/sign-in");
		}
		for (const path of ["/ops/sign-out", "/ops/orders/ord_x/ship", "/ops/orders/ord_x/cancel"]) {
			expectRedirect(await postForm(path, {}), "/ops/sign-in");
		}
	});
});

describe("POST /ops/sign-out", () => {
	it("deletes the session, clears the cookie and goes to sign in; the old cookie is then refused", async () => {
		const operator = await signedInOperator();
		const sessionId = await sessionIdOf(operator.cookie);
		const response = await postForm("/ops/sign-out", { _csrf: operator.csrf }, { cookie: operator.cookie });
		expectRedirect(response, "/ops/sign-in");
		const cleared = sessionSetCookieHeader(response) ?? "";
		expect(cleared).toMatch(/Max-Age=0/);
		expect(cleared).toMatch(/Path=\//);
		const row = await env.DB.prepare("SELECT id FROM ops_sessions WHERE id = ?1").bind(sessionId).first();
		expect(row).toBeNull();
		await expectSentToSignIn(operator.cookie);
	});

	it("signing out ends only that session: another sign-in of the same key stays open", async () => {
		const operator = await signedInOperator();
		const otherCookie = await signIn(operator.key);
		expectRedirect(
			await postForm("/ops/sign-out", { _csrf: operator.csrf }, { cookie: operator.cookie }),
			"/ops/sign-in",
		);
		await htmlOf(await consoleRequest("/ops/orders", { cookie: otherCookie }), 200);
	});

	it("a sign-out without the form token is a 403 page and the session stays open", async () => {
		const operator = await signedInOperator();
		const response = await postForm("/ops/sign-out", {}, { cookie: operator.cookie });
		await htmlOf(response, 403);
		await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
	});

	it("the header of every signed-in page has the sign-out form with its token", async () => {
		const operator = await signedInOperator();
		const html = await htmlOf(await consoleRequest("/ops/orders", { cookie: operator.cookie }), 200);
		expect(html).toContain(
			`<form method="post" action="/ops/sign-out"><input type="hidden" name="_csrf" value="${operator.csrf}"/><button type="submit">Sign out</button></form>`,
		);
		expect(html).toContain('<a href="/ops/orders">Queue</a>');
	});
});
