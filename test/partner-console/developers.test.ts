/**
 * The partner console's developers' corner: API keys (listed per mode, made and shown once, revoked
 * after a confirmation, and refused by the API at once), webhook endpoints (added, paused, resumed,
 * deleted, tested, the secret rotated), the event log and its resend; and the attacks: other accounts'
 * and the other mode's ids, forms without their token, roles without the ability.
 */
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { KEY_USE_RECORD_MINUTES } from "../../src/accounts/key-life.ts";
import { planKey } from "../../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../../src/accounts/scopes.ts";
import { runBatch } from "../../src/accounts/store.ts";
import { api, createPartner } from "../helpers.ts";
import { waitFor } from "../polling.ts";
import { hookUrl, storedEvent } from "../webhooks/webhook-helpers.ts";
import { type ConsoleUser, post, signedInUser } from "./console-client.ts";

/** The id of the key whose display prefix starts `key`. */
async function keyIdOf(key: string): Promise<string> {
	const row = await env.DB.prepare("SELECT id FROM api_keys WHERE display_prefix = ?1")
		.bind(key.slice(0, 13))
		.first<{ id: string }>();
	if (row === null) throw new Error("no such key");
	return row.id;
}

/** An endpoint of the user's account in `mode`, added through the console. */
async function addedEndpoint(user: ConsoleUser, mode: "live" | "test" = "live"): Promise<string> {
	const url = hookUrl("ok");
	const query = mode === "test" ? "?mode=test" : "";
	const response = await user.post(`/partner/developers/webhooks${query}`, { url, events: "order.shipped" });
	expect(response.status).toBe(303);
	const row = await env.DB.prepare("SELECT id FROM webhook_endpoints WHERE url = ?1").bind(url).first<{ id: string }>();
	if (row === null) throw new Error("no endpoint");
	return row.id;
}

describe("partner console: API keys", () => {
	it("lists the page's mode's keys with prefix, scopes and dates, and never a whole key", async () => {
		const owner = await signedInUser("owner");
		const html = await (await owner.get("/partner/developers")).text();
		expect(html).toContain(owner.partner.keys.live.display_prefix);
		expect(html).not.toContain(owner.partner.keys.test.display_prefix);
		expect(html).not.toContain(owner.partner.keys.live.key);
		expect(html).toMatch(/\d{4}-\d\d-\d\d \d\d:\d\d UTC/);
		const test = await (await owner.get("/partner/developers?mode=test")).text();
		expect(test).toContain(owner.partner.keys.test.display_prefix);
		expect(test).not.toContain(owner.partner.keys.live.display_prefix);
	});

	it("an owner creates a key of the page's mode with the chosen scopes and an expiry, shown once and working on the API", async () => {
		const owner = await signedInUser("owner");
		const response = await owner.post("/partner/developers/keys?mode=test", {
			scopes: "orders:read",
			expires_in_days: "30",
		});
		expect(response.status).toBe(201);
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		const key = /fps_test_[0-9A-Za-z]{32}/.exec(await response.text())?.[0];
		if (key === undefined) throw new Error("no key on the page");
		const row = await env.DB.prepare("SELECT mode, scopes, expires_at, account_id FROM api_keys WHERE id = ?1")
			.bind(await keyIdOf(key))
			.first<{ mode: string; scopes: string; expires_at: string; account_id: string }>();
		expect(row).toMatchObject({ mode: "test", scopes: "orders:read", account_id: owner.partner.account.id });
		expect(Date.parse(row?.expires_at ?? "") - Date.now()).toBeGreaterThan(29 * 86_400_000);
		expect((await api("/v1/orders", { key })).status).toBe(200);
		const again = await (await owner.get("/partner/developers?mode=test")).text();
		expect(again).not.toContain(key);
	});

	it("refuses a key with no scope, or an expiry the form does not offer (422, nothing made)", async () => {
		const owner = await signedInUser("owner");
		const count = () =>
			env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE account_id = ?1")
				.bind(owner.partner.account.id)
				.first<{ n: number }>();
		const before = await count();
		const noScope = await owner.post("/partner/developers/keys", { expires_in_days: "0" });
		expect(noScope.status).toBe(422);
		expect(await noScope.text()).toContain("Choose at least one scope");
		expect((await owner.post("/partner/developers/keys", { scopes: "orders:read", expires_in_days: "3" })).status).toBe(
			422,
		);
		expect(await count()).toEqual(before);
	});

	it("revokes after a confirmation, and the API refuses the key from its very next request", async () => {
		const owner = await signedInUser("owner");
		const key = owner.partner.keys.live.key;
		expect((await api("/v1/orders", { key })).status).toBe(200);
		const id = owner.partner.keys.live.id;
		const confirm = await owner.get(`/partner/developers/keys/${id}/revoke`);
		expect(confirm.status).toBe(200);
		const text = await confirm.text();
		expect(text).toContain("last working live key");
		const revoked = await owner.post(`/partner/developers/keys/${id}/revoke`);
		expect(revoked.status).toBe(303);
		expect(revoked.headers.get("Location")).toBe("/partner/developers?done=revoked");
		const refused = await api("/v1/orders", { key });
		expect(refused.status).toBe(401);
		expect(((await refused.json()) as { error: { code: string } }).error.code).toBe("api_key_revoked");
		expect(await (await owner.get("/partner/developers?done=revoked")).text()).toContain("The key is revoked");
	});

	it("does not warn of the last key when another working key of the mode remains", async () => {
		const owner = await signedInUser("owner");
		await owner.post("/partner/developers/keys", { scopes: "orders:read", expires_in_days: "0" });
		const text = await (await owner.get(`/partner/developers/keys/${owner.partner.keys.live.id}/revoke`)).text();
		expect(text).not.toContain("last working live key");
	});
});

describe("API keys: expiry and last use", () => {
	it("refuses a key past its expiry with 401 api_key_expired in the API's envelope", async () => {
		const partner = await createPartner();
		const now = new Date();
		const { issued, statement } = await planKey(
			partner.account.id,
			"live",
			PARTNER_SCOPES,
			now,
			new Date(now.getTime() - 1),
		);
		await runBatch(env.DB, [statement]);
		const refused = await api("/v1/orders", { key: issued.key });
		expect(refused.status).toBe(401);
		const body = (await refused.json()) as { error: { type: string; code: string } };
		expect(body.error).toMatchObject({ type: "unauthorized", code: "api_key_expired" });
	});

	it("refuses a key from its expiry on even while its limiter holds the principal it loaded before", async () => {
		const partner = await createPartner();
		const now = new Date();
		const { issued, statement } = await planKey(
			partner.account.id,
			"live",
			PARTNER_SCOPES,
			now,
			new Date(now.getTime() + 1500),
		);
		await runBatch(env.DB, [statement]);
		expect((await api("/v1/orders", { key: issued.key })).status).toBe(200);
		// Well within the limiter's 30 s hold of the principal.
		const status = await waitFor(
			async () => (await api("/v1/orders", { key: issued.key })).status,
			(value) => value === 401,
		);
		expect(status).toBe(401);
	});

	it(`writes a key's last use once per ${KEY_USE_RECORD_MINUTES} minutes, not once per request`, async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		// Counts every write of last_used_at, whoever makes it.
		await env.DB.exec("CREATE TABLE IF NOT EXISTS key_use_writes (key_id TEXT)");
		await env.DB.exec(
			"CREATE TRIGGER IF NOT EXISTS count_key_use AFTER UPDATE OF last_used_at ON api_keys BEGIN INSERT INTO key_use_writes VALUES (new.id); END",
		);
		for (let request = 0; request < 12; request += 1) expect((await api("/v1/orders", { key })).status).toBe(200);
		const written = await env.DB.prepare("SELECT count(*) AS n FROM key_use_writes WHERE key_id = ?1")
			.bind(partner.keys.live.id)
			.first<{ n: number }>();
		expect(written?.n).toBe(1);
		const row = await env.DB.prepare("SELECT last_used_at FROM api_keys WHERE id = ?1")
			.bind(partner.keys.live.id)
			.first<{ last_used_at: string | null }>();
		expect(row?.last_used_at).not.toBeNull();
	});
});

describe("partner console: webhook endpoints and the secret", () => {
	it("adds an endpoint with an event filter, pauses it (no delivery for new events), resumes and deletes it", async () => {
		const developer = await signedInUser("developer");
		const id = await addedEndpoint(developer);
		const page = await (await developer.get("/partner/developers/webhooks")).text();
		expect(page).toContain("order.shipped");
		expect(page).toContain("Receiving");
		expect((await developer.post(`/partner/developers/webhooks/${id}/pause`)).headers.get("Location")).toBe(
			"/partner/developers/webhooks?done=paused",
		);
		const listed = await api(`/v1/webhook-endpoints/${id}`, { key: developer.partner.keys.live.key });
		expect(((await listed.json()) as { paused_at: string | null }).paused_at).not.toBeNull();
		expect((await developer.post(`/partner/developers/webhooks/${id}/resume`)).status).toBe(303);
		expect((await developer.post(`/partner/developers/webhooks/${id}/delete`)).status).toBe(303);
		const gone = await env.DB.prepare("SELECT id FROM webhook_endpoints WHERE id = ?1").bind(id).first();
		expect(gone).toBeNull();
	});

	it("a paused endpoint gets no delivery for an event recorded while it is paused", async () => {
		const partner = await createPartner();
		const owner = { accountId: partner.account.id, mode: "live" as const };
		const key = partner.keys.live.key;
		const created = await api("/v1/webhook-endpoints", {
			method: "POST",
			key,
			body: JSON.stringify({ url: hookUrl("ok"), events: ["order.in_production"] }),
		});
		const { id } = (await created.json()) as { id: string };
		expect((await api(`/v1/webhook-endpoints/${id}/pause`, { method: "POST", key })).status).toBe(200);
		const paused = await storedEvent(owner, null);
		const none = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE event_id = ?1 AND endpoint_id = ?2")
			.bind(paused.eventId, id)
			.first<{ n: number }>();
		expect(none?.n).toBe(0);
		expect((await api(`/v1/webhook-endpoints/${id}/resume`, { method: "POST", key })).status).toBe(200);
		const resumed = await storedEvent(owner, null);
		const one = await env.DB.prepare("SELECT count(*) AS n FROM deliveries WHERE event_id = ?1 AND endpoint_id = ?2")
			.bind(resumed.eventId, id)
			.first<{ n: number }>();
		expect(one?.n).toBe(1);
	});

	it("refuses an endpoint URL the API refuses, with its words and the form kept (422)", async () => {
		const developer = await signedInUser("developer");
		const response = await developer.post("/partner/developers/webhooks", {
			url: "http://127.0.0.1/hooks",
			events: "order.shipped",
		});
		expect(response.status).toBe(422);
		const html = await response.text();
		expect(html).toContain('role="alert"');
		expect(html).toContain("http://127.0.0.1/hooks");
	});

	it("sends a signed test event to an endpoint and shows its answer", async () => {
		const developer = await signedInUser("developer");
		const id = await addedEndpoint(developer);
		const response = await developer.post(`/partner/developers/webhooks/${id}/test`);
		expect(response.status).toBe(200);
		expect(await response.text()).toContain("The test event reached");
	});

	it("an owner rotates the mode's secret and sees the new one once; the old one keeps signing for its overlap", async () => {
		const owner = await signedInUser("owner");
		const response = await owner.post("/partner/developers/webhook-secret/rotate?mode=test");
		expect(response.status).toBe(201);
		expect(response.headers.get("Cache-Control")).toBe("no-store");
		const secret = /whsec_[0-9A-Za-z]{32}/.exec(await response.text())?.[0];
		const rows = await env.DB.prepare(
			"SELECT secret, expires_at FROM webhook_secrets WHERE account_id = ?1 AND mode = 'test' ORDER BY id",
		)
			.bind(owner.partner.account.id)
			.all<{ secret: string; expires_at: string | null }>();
		expect(rows.results.at(-1)?.secret).toBe(secret);
		expect(rows.results.at(0)?.expires_at).not.toBeNull();
		const live = await env.DB.prepare(
			"SELECT count(*) AS n FROM webhook_secrets WHERE account_id = ?1 AND mode = 'live' AND expires_at IS NULL",
		)
			.bind(owner.partner.account.id)
			.first<{ n: number }>();
		expect(live?.n).toBe(1);
	});
});

describe("partner console: event log", () => {
	it("lists events newest first with each delivery's attempts, status code and error excerpt, and resends a failed one", async () => {
		const developer = await signedInUser("developer");
		const owner = { accountId: developer.partner.account.id, mode: "live" as const };
		const url = hookUrl("ok");
		const older = await storedEvent(owner, url, new Date(Date.now() - 60_000));
		const { eventId } = await storedEvent(owner, url);
		await env.DB.prepare(
			"UPDATE deliveries SET status = 'failed', attempts = 3, next_attempt_at = NULL, last_attempt_at = ?2, last_status_code = 500, last_error = 'HTTP 500: receiver down' WHERE event_id = ?1",
		)
			.bind(eventId, new Date().toISOString())
			.run();
		const html = await (await developer.get("/partner/developers/events")).text();
		expect(html.indexOf(eventId)).toBeLessThan(html.indexOf(older.eventId));
		expect(html).toContain("Status 500");
		expect(html).toContain("HTTP 500: receiver down");
		expect(html).toContain("Failed");
		const resent = await developer.post(`/partner/developers/events/${eventId}/resend`);
		expect(resent.status).toBe(303);
		expect(resent.headers.get("Location")).toBe("/partner/developers/events?done=resent");
		const row = await env.DB.prepare("SELECT status FROM deliveries WHERE event_id = ?1").bind(eventId).first();
		expect(row).not.toMatchObject({ status: "failed" });
	});
});

describe("partner console developers' corner: attackers", () => {
	it("another account's key, endpoint and event ids are 404 on every page and form, and nothing changes", async () => {
		const owner = await signedInUser("owner");
		const other = await signedInUser("owner");
		const endpointId = await addedEndpoint(other);
		const { eventId } = await storedEvent({ accountId: other.partner.account.id, mode: "live" }, hookUrl("ok"));
		const keyId = other.partner.keys.live.id;
		expect((await owner.get(`/partner/developers/keys/${keyId}/revoke`)).status).toBe(404);
		expect((await owner.post(`/partner/developers/keys/${keyId}/revoke`)).status).toBe(404);
		for (const action of ["pause", "resume", "delete", "test"]) {
			expect((await owner.post(`/partner/developers/webhooks/${endpointId}/${action}`)).status).toBe(404);
		}
		expect((await owner.post(`/partner/developers/events/${eventId}/resend`)).status).toBe(404);
		expect((await api("/v1/orders", { key: other.partner.keys.live.key })).status).toBe(200);
		const endpoint = await env.DB.prepare("SELECT paused_at FROM webhook_endpoints WHERE id = ?1")
			.bind(endpointId)
			.first<{ paused_at: string | null }>();
		expect(endpoint).toEqual({ paused_at: null });
	});

	it("the other mode's ids are 404", async () => {
		const owner = await signedInUser("owner");
		const endpointId = await addedEndpoint(owner, "test");
		const { eventId } = await storedEvent({ accountId: owner.partner.account.id, mode: "test" }, hookUrl("ok"));
		expect((await owner.get(`/partner/developers/keys/${owner.partner.keys.test.id}/revoke`)).status).toBe(404);
		expect((await owner.post(`/partner/developers/keys/${owner.partner.keys.test.id}/revoke`)).status).toBe(404);
		expect((await owner.post(`/partner/developers/webhooks/${endpointId}/pause`)).status).toBe(404);
		expect((await owner.post(`/partner/developers/events/${eventId}/resend`)).status).toBe(404);
		expect((await api("/v1/orders", { key: owner.partner.keys.test.key })).status).toBe(200);
	});

	it("every form refuses a missing or forged _csrf (403) and changes nothing", async () => {
		const owner = await signedInUser("owner");
		const endpointId = await addedEndpoint(owner);
		const { eventId } = await storedEvent({ accountId: owner.partner.account.id, mode: "live" }, hookUrl("ok"));
		const forms: [string, Record<string, string>][] = [
			["/partner/developers/keys", { scopes: "orders:read", expires_in_days: "0" }],
			[`/partner/developers/keys/${owner.partner.keys.live.id}/revoke`, {}],
			["/partner/developers/webhooks", { url: hookUrl("ok"), events: "order.shipped" }],
			[`/partner/developers/webhooks/${endpointId}/pause`, {}],
			[`/partner/developers/webhooks/${endpointId}/resume`, {}],
			[`/partner/developers/webhooks/${endpointId}/test`, {}],
			[`/partner/developers/webhooks/${endpointId}/delete`, {}],
			["/partner/developers/webhook-secret/rotate", {}],
			[`/partner/developers/events/${eventId}/resend`, {}],
		];
		for (const [path, fields] of forms) {
			expect((await post(path, fields, owner.cookie)).status, path).toBe(403);
			expect((await post(path, { ...fields, _csrf: "forged" }, owner.cookie)).status, path).toBe(403);
		}
		const keys = await env.DB.prepare("SELECT count(*) AS n FROM api_keys WHERE account_id = ?1 AND revoked_at IS NULL")
			.bind(owner.partner.account.id)
			.first<{ n: number }>();
		expect(keys?.n).toBe(2);
		const endpoints = await env.DB.prepare("SELECT count(*) AS n FROM webhook_endpoints WHERE account_id = ?1")
			.bind(owner.partner.account.id)
			.first<{ n: number }>();
		expect(endpoints?.n).toBe(1);
		expect((await api("/v1/orders", { key: owner.partner.keys.live.key })).status).toBe(200);
	});

	it("a developer sees keys but cannot create or revoke one or rotate the secret (403)", async () => {
		const developer = await signedInUser("developer");
		const html = await (await developer.get("/partner/developers")).text();
		expect(html).toContain(developer.partner.keys.live.display_prefix);
		expect(html).not.toContain("Create key");
		const id = developer.partner.keys.live.id;
		expect((await developer.post("/partner/developers/keys", { scopes: "orders:read" })).status).toBe(403);
		expect((await developer.get(`/partner/developers/keys/${id}/revoke`)).status).toBe(403);
		expect((await developer.post(`/partner/developers/keys/${id}/revoke`)).status).toBe(403);
		expect((await developer.post("/partner/developers/webhook-secret/rotate")).status).toBe(403);
		expect((await api("/v1/orders", { key: developer.partner.keys.live.key })).status).toBe(200);
	});

	it("support and viewers get 403 on every page and form of the corner, and no key or secret", async () => {
		for (const role of ["support", "viewer"] as const) {
			const user = await signedInUser(role);
			const owner = await signedInUser("owner", user.partner);
			const endpointId = await addedEndpoint(owner);
			const { eventId } = await storedEvent({ accountId: user.partner.account.id, mode: "live" }, hookUrl("ok"));
			for (const path of [
				"/partner/developers",
				"/partner/developers?mode=test",
				"/partner/developers/webhooks",
				"/partner/developers/events",
				`/partner/developers/keys/${user.partner.keys.live.id}/revoke`,
			]) {
				const response = await user.get(path);
				expect(response.status, `${role} ${path}`).toBe(403);
				const html = await response.text();
				expect(html).not.toContain(user.partner.keys.live.display_prefix);
				expect(html).not.toContain("whsec_");
			}
			for (const path of [
				"/partner/developers/keys",
				`/partner/developers/keys/${user.partner.keys.live.id}/revoke`,
				"/partner/developers/webhooks",
				`/partner/developers/webhooks/${endpointId}/pause`,
				`/partner/developers/webhooks/${endpointId}/delete`,
				`/partner/developers/webhooks/${endpointId}/test`,
				"/partner/developers/webhook-secret/rotate",
				`/partner/developers/events/${eventId}/resend`,
			]) {
				expect((await user.post(path, { scopes: "orders:read", url: hookUrl("ok") })).status, `${role} ${path}`).toBe(
					403,
				);
			}
			const home = await (await user.get("/partner")).text();
			expect(home).not.toContain("/partner/developers");
		}
	});
});
