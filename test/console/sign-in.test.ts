import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { hashApiKey } from "../../src/accounts/keys.ts";
import { app } from "../../src/app.ts";
import { SESSION_COOKIE_HEADER_NAME } from "../../src/console/session.ts";
import { verifySessionCookie } from "../../src/http/signed-session.ts";
import { PAGE_SECURITY_HEADERS } from "../../src/production/slip-page.ts";
import { createAdminKey, createKeyWithScopes, createPartner, insertKeyRow, send } from "../helpers.ts";
import {
	alertOf,
	consoleRequest,
	expectRedirect,
	htmlOf,
	ORIGIN,
	postForm,
	SERVICE_NAMES,
	sessionCookieOf,
	sessionSetCookieHeader,
	signIn,
	TEST_SECRET,
} from "./console-helpers.ts";

/** The key's id, by its hash. */
async function keyIdOf(key: string): Promise<string> {
	const row = await env.DB.prepare("SELECT id FROM api_keys WHERE key_hash = ?1")
		.bind(await hashApiKey(key))
		.first<{ id: string }>();
	if (row === null) throw new Error("no such key");
	return row.id;
}

/** A sign-in attempt that must fail with `status`: the alert's text (and no cookie was set). */
async function refusedSignIn(key: string, status: number): Promise<string> {
	const response = await postForm("/ops/sign-in", { key });
	const html = await htmlOf(response, status);
	expect(sessionCookieOf(response)).toBeNull();
	expect(html).toContain('<form method="post" action="/ops/sign-in">');
	// The key is never echoed back into the page.
	if (key !== "") expect(html).not.toContain(key);
	return alertOf(html) ?? "";
}

describe("GET /ops", () => {
	it("sends a visitor without a session to the sign-in page", async () => {
		expectRedirect(await consoleRequest("/ops"), "/ops/sign-in");
	});

	it("sends a signed-in operator to the queue", async () => {
		const cookie = await signIn(await createKeyWithScopes(["ops"]));
		expectRedirect(await consoleRequest("/ops", { cookie }), "/ops/orders");
	});
});

describe("GET /ops/sign-in", () => {
	it("shows the sign-in form with the key field, as HTML with the page security headers", async () => {
		const response = await consoleRequest("/ops/sign-in");
		const html = await htmlOf(response, 200);
		expect(html).toContain('<form method="post" action="/ops/sign-in">');
		expect(html).toContain('<label for="key">API key</label>');
		expect(html).toContain('<input id="key" name="key" type="password" autocomplete="off" required=""/>');
		expect(html).toContain('<button type="submit">Sign in</button>');
		expect(html).toContain("Production floor");
		expect(html).not.toMatch(SERVICE_NAMES);
		expect(html).not.toContain("<script");
		for (const [name, value] of Object.entries(PAGE_SECURITY_HEADERS)) expect(response.headers.get(name)).toBe(value);
	});
});

describe("POST /ops/sign-in", () => {
	it("an ops key signs in: 303 to the queue with an HttpOnly, Secure, SameSite=Strict, host-only session cookie for a shift", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const response = await postForm("/ops/sign-in", { key });
		expectRedirect(response, "/ops/orders");
		const header = sessionSetCookieHeader(response) ?? "";
		expect(header.startsWith(`${SESSION_COOKIE_HEADER_NAME}=`)).toBe(true);
		const attributes = header.split(";").map((part) => part.trim());
		expect(attributes).toEqual(
			expect.arrayContaining(["HttpOnly", "Secure", "SameSite=Strict", "Path=/", "Max-Age=43200"]),
		);
		expect(attributes.some((part) => part.toLowerCase().startsWith("domain="))).toBe(false);

		const cookie = sessionCookieOf(response) ?? "";
		const signed = await verifySessionCookie(TEST_SECRET, cookie, Math.floor(Date.now() / 1000));
		expect(signed).not.toBeNull();
		const row = await env.DB.prepare("SELECT key_id, expires_at FROM ops_sessions WHERE id = ?1")
			.bind(signed?.sessionId ?? "")
			.first<{ key_id: string; expires_at: string }>();
		expect(row?.key_id).toBe(await keyIdOf(key));
		expect(Date.parse(row?.expires_at ?? "")).toBe((signed?.expiresUnix ?? 0) * 1000);
	});

	it("the session cookie opens the queue", async () => {
		const cookie = await signIn(await createKeyWithScopes(["ops"]));
		const html = await htmlOf(await consoleRequest("/ops/orders", { cookie }), 200);
		expect(html).toContain("<h1>Production queue</h1>");
	});

	it("a sign-in deletes sessions that have expired, so the table does not grow without end", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const stale = "ses_expiredexpiredexpiredexpired0";
		await env.DB.prepare("INSERT INTO ops_sessions (id, key_id, created_at, expires_at) VALUES (?1, ?2, ?3, ?4)")
			.bind(stale, await keyIdOf(key), "2020-01-01T00:00:00.000Z", "2020-01-01T12:00:00.000Z")
			.run();
		await signIn(key);
		expect(await env.DB.prepare("SELECT id FROM ops_sessions WHERE id = ?1").bind(stale).first()).toBeNull();
	});

	it("each sign-in opens a new session", async () => {
		const key = await createKeyWithScopes(["ops"]);
		expect(await signIn(key)).not.toBe(await signIn(key));
	});

	it("a partner key is refused with a 403 page that says the console is for ops keys, and no cookie", async () => {
		const partner = await createPartner("Harbour Gallery");
		const message = await refusedSignIn(partner.keys.live.key, 403);
		expect(message).toMatch(/ops/);
		await refusedSignIn(partner.keys.test.key, 403);
	});

	it("a test-mode ops key (a row issued before ops keys were live-only) is refused with a 403 page", async () => {
		const message = await refusedSignIn(await insertKeyRow(["ops"], "test"), 403);
		expect(message).toMatch(/live/);
	});

	it("an admin-only key is refused with a 403 page", async () => {
		await refusedSignIn(await createAdminKey(), 403);
	});

	it("an unknown key is a 401 page", async () => {
		const message = await refusedSignIn(`fps_live_${"x".repeat(32)}`, 401);
		expect(message).toMatch(/not valid/);
	});

	it("a revoked ops key is a 401 page", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const revoked = await send("POST", `/v1/admin/keys/${await keyIdOf(key)}/revoke`, await createAdminKey(), {});
		expect(revoked.status).toBe(200);
		expect(await refusedSignIn(key, 401)).toMatch(/revoked/);
	});

	it("a malformed key is a 401 page, and an empty field too", async () => {
		expect(await refusedSignIn("hunter2", 401)).toMatch(/not an API key/);
		expect(await refusedSignIn("", 401)).toMatch(/Enter your API key/);
	});

	it("a sign-in posted from another site (cross-origin Origin) is refused with a 403 page and no cookie", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const response = await postForm("/ops/sign-in", { key }, { headers: { Origin: "https://evil.example" } });
		const html = await htmlOf(response, 403);
		expect(alertOf(html)).toMatch(/another site/);
		expect(sessionCookieOf(response)).toBeNull();
		const opaque = await postForm("/ops/sign-in", { key }, { headers: { Origin: "null" } });
		expect(opaque.status).toBe(403);
	});

	it("a sign-in as a browser sends it from a no-referrer page (Origin null, Sec-Fetch-Site same-origin) is accepted", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const headers = { Origin: "null", "Sec-Fetch-Site": "same-origin" };
		expectRedirect(await postForm("/ops/sign-in", { key }, { headers }), "/ops/orders");
	});

	it("a sign-in the browser marks as cross-site is refused with a 403 page, whatever its Origin says", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const claims: Record<string, string>[] = [
			{ "Sec-Fetch-Site": "cross-site" },
			{ Origin: ORIGIN, "Sec-Fetch-Site": "same-site" },
			{ Origin: "null", "Sec-Fetch-Site": "cross-site" },
		];
		for (const headers of claims) {
			const response = await postForm("/ops/sign-in", { key }, { headers });
			expect(alertOf(await htmlOf(response, 403))).toMatch(/another site/);
			expect(sessionCookieOf(response)).toBeNull();
		}
	});

	it("a body that is not the form it claims to be (multipart without a boundary) is a 400 page, not a 500", async () => {
		const response = await consoleRequest("/ops/sign-in", {
			method: "POST",
			body: "key=fps_live_x",
			headers: { "Content-Type": "multipart/form-data" },
		});
		expect(alertOf(await htmlOf(response, 400))).toMatch(/form could not be read/);
		expect(sessionCookieOf(response)).toBeNull();
	});

	it("a sign-in from the console's own origin is accepted", async () => {
		const key = await createKeyWithScopes(["ops"]);
		expectRedirect(await postForm("/ops/sign-in", { key }, { headers: { Origin: ORIGIN } }), "/ops/orders");
	});

	it("without CONSOLE_SESSION_SECRET nobody can sign in: a 503 page says the console is not configured", async () => {
		const key = await createKeyWithScopes(["ops"]);
		const unconfigured = { ...env, CONSOLE_SESSION_SECRET: undefined };
		const form = {
			method: "POST",
			headers: { "Content-Type": "application/x-www-form-urlencoded" },
			body: new URLSearchParams({ key }).toString(),
		};
		const posted = await app.request(`${ORIGIN}/ops/sign-in`, form, unconfigured);
		expect(alertOf(await htmlOf(posted, 503))).toMatch(/not configured/);
		expect(sessionCookieOf(posted)).toBeNull();
		const shown = await app.request(`${ORIGIN}/ops/sign-in`, {}, unconfigured);
		expect(alertOf(await htmlOf(shown, 503))).toMatch(/not configured/);
	});
});
