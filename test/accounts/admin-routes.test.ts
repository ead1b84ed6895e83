import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import type { IssuedKey } from "../../src/accounts/provisioning.ts";
import { PARTNER_SCOPES } from "../../src/accounts/scopes.ts";
import type { KeySummary } from "../../src/accounts/store.ts";
import type { NewAccount } from "../../src/admin/provisioning.ts";
import { sha256Hex } from "../../src/ids.ts";
import { api, createAdminKey, createPartner, expectError, ISO_UTC, send } from "../helpers.ts";

async function createAccountThroughApi(name: string): Promise<NewAccount> {
	const response = await send("POST", "/v1/admin/accounts", await createAdminKey(), { name });
	expect(response.status).toBe(201);
	return (await response.json()) as NewAccount;
}

function expectIssuedKey(key: IssuedKey, accountId: string, mode: "live" | "test"): void {
	expect(key.id).toMatch(/^key_[0-9A-Za-z]{24}$/);
	expect(key.account_id).toBe(accountId);
	expect(key.mode).toBe(mode);
	expect(key.key).toMatch(new RegExp(`^fps_${mode}_[0-9A-Za-z]{32}$`));
	expect(key.key.startsWith(key.display_prefix)).toBe(true);
	expect(key.display_prefix.length).toBeLessThan(key.key.length - 16);
	expect(key.created_at).toMatch(ISO_UTC);
}

describe("POST /v1/admin/accounts", () => {
	it("creates an account with a live key, a test key and a webhook secret (201)", async () => {
		const created = await createAccountThroughApi("Northwind Prints");
		expect(created.account.id).toMatch(/^acct_[0-9A-Za-z]{24}$/);
		expect(created.account.name).toBe("Northwind Prints");
		expect(created.account.created_at).toMatch(ISO_UTC);
		expectIssuedKey(created.keys.live, created.account.id, "live");
		expectIssuedKey(created.keys.test, created.account.id, "test");
		expect(created.keys.live.scopes).toEqual([...PARTNER_SCOPES]);
		expect(created.keys.test.scopes).toEqual([...PARTNER_SCOPES]);
		expect(created.keys.live.key).not.toBe(created.keys.test.key);
		expect(created.webhook_secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
	});

	it("the new live and test keys work at once", async () => {
		const created = await createAccountThroughApi("Keys Work");
		expect((await api("/v1/catalog", { key: created.keys.live.key })).status).toBe(200);
		expect((await api("/v1/catalog", { key: created.keys.test.key })).status).toBe(200);
	});

	it("the new keys are partner keys: they are refused on admin routes", async () => {
		const created = await createAccountThroughApi("No Admin");
		await expectError(await send("POST", "/v1/admin/accounts", created.keys.live.key, { name: "x" }), "forbidden");
	});

	it("the database keeps only a hash and a display prefix of each key", async () => {
		const created = await createAccountThroughApi("Hash Only");
		for (const issued of [created.keys.live, created.keys.test]) {
			const row = await env.DB.prepare("SELECT * FROM api_keys WHERE id = ?1")
				.bind(issued.id)
				.first<Record<string, unknown>>();
			if (row === null) throw new Error(`no row for ${issued.id}`);
			for (const value of Object.values(row)) expect(String(value)).not.toContain(issued.key);
			expect(row.key_hash).toBe(await sha256Hex(issued.key));
			expect(row.display_prefix).toBe(issued.display_prefix);
		}
	});

	it("stores the webhook secret for the account", async () => {
		const created = await createAccountThroughApi("Secret Kept");
		const row = await env.DB.prepare("SELECT secret FROM webhook_secrets WHERE account_id = ?1")
			.bind(created.account.id)
			.first<{ secret: string }>();
		expect(row?.secret).toBe(created.webhook_secret);
	});

	it("cannot ask for scopes: the account's live and test keys are always partner keys (scopes is an unknown field)", async () => {
		const admin = await createAdminKey();
		const response = await send("POST", "/v1/admin/accounts", admin, { name: "Sneaky", scopes: ["ops"] });
		await expectError(response, "validation_error", "scopes");
	});

	it("a missing name is a 400 and a blank one a 422", async () => {
		const admin = await createAdminKey();
		await expectError(await send("POST", "/v1/admin/accounts", admin, {}), "bad_request", "name");
		await expectError(await send("POST", "/v1/admin/accounts", admin, { name: "   " }), "validation_error", "name");
		await expectError(
			await send("POST", "/v1/admin/accounts", admin, { name: "a\u0007b" }),
			"validation_error",
			"name",
		);
	});
});

describe("POST /v1/admin/accounts/{id}/keys", () => {
	it("issues a test key with the given scopes (201), and it works", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		const response = await send("POST", `/v1/admin/accounts/${partner.account.id}/keys`, admin, {
			mode: "test",
			scopes: ["orders:read"],
		});
		expect(response.status).toBe(201);
		const issued = (await response.json()) as IssuedKey;
		expectIssuedKey(issued, partner.account.id, "test");
		expect(issued.scopes).toEqual(["orders:read"]);
		expect((await api("/v1/catalog", { key: issued.key })).status).toBe(200);
		// Its scopes are the ones asked for: no admin.
		await expectError(await send("POST", "/v1/admin/accounts", issued.key, { name: "x" }), "forbidden");
	});

	it("issues partner scopes when none are given", async () => {
		const partner = await createPartner();
		const response = await send("POST", `/v1/admin/accounts/${partner.account.id}/keys`, await createAdminKey(), {
			mode: "live",
		});
		expect(response.status).toBe(201);
		const issued = (await response.json()) as IssuedKey;
		expectIssuedKey(issued, partner.account.id, "live");
		expect(issued.scopes).toEqual([...PARTNER_SCOPES]);
	});

	it("the scopes given are the scopes granted: an admin key issued here passes admin routes", async () => {
		const partner = await createPartner();
		const response = await send("POST", `/v1/admin/accounts/${partner.account.id}/keys`, await createAdminKey(), {
			mode: "live",
			scopes: ["admin"],
		});
		const issued = (await response.json()) as IssuedKey;
		expect((await send("POST", "/v1/admin/accounts", issued.key, { name: "By new admin" })).status).toBe(201);
	});

	it("an unknown account is a 404 naming the id", async () => {
		const response = await send("POST", "/v1/admin/accounts/acct_doesnotexist/keys", await createAdminKey(), {
			mode: "live",
		});
		await expectError(response, "not_found", "id");
	});

	it.each([[["ops"]], [["admin"]], [["orders:read", "ops"]]])(
		"a test-mode key with %j is a 422 on mode (ops and admin keys are live-only), and no key is written",
		async (scopes) => {
			const partner = await createPartner();
			const response = await send("POST", `/v1/admin/accounts/${partner.account.id}/keys`, await createAdminKey(), {
				mode: "test",
				scopes,
			});
			const error = await expectError(response, "validation_error", "mode");
			expect(error.message).toContain("live");
			const row = await env.DB.prepare("SELECT COUNT(*) AS n FROM api_keys WHERE account_id = ?1")
				.bind(partner.account.id)
				.first<{ n: number }>();
			expect(row?.n).toBe(2);
		},
	);

	it("a missing mode is a 400, an unknown mode or scope a 422", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		const path = `/v1/admin/accounts/${partner.account.id}/keys`;
		await expectError(await send("POST", path, admin, {}), "bad_request", "mode");
		await expectError(await send("POST", path, admin, { mode: "prod" }), "validation_error", "mode");
		await expectError(
			await send("POST", path, admin, { mode: "live", scopes: ["orders:read", "root"] }),
			"validation_error",
			"scopes[1]",
		);
		await expectError(await send("POST", path, admin, { mode: "live", scopes: [] }), "validation_error", "scopes");
	});
});

describe("POST /v1/admin/keys/{key_id}/revoke", () => {
	it("revokes a key (200 with revoked_at), and the key is refused from then on", async () => {
		const partner = await createPartner();
		const response = await api(`/v1/admin/keys/${partner.keys.live.id}/revoke`, {
			method: "POST",
			key: await createAdminKey(),
		});
		expect(response.status).toBe(200);
		const summary = (await response.json()) as KeySummary;
		expect(summary.id).toBe(partner.keys.live.id);
		expect(summary.account_id).toBe(partner.account.id);
		expect(summary.revoked_at).toMatch(ISO_UTC);
		expect(summary).not.toHaveProperty("key");
		expect(summary).not.toHaveProperty("key_hash");
		await expectError(await api("/v1/catalog", { key: partner.keys.live.key }), "unauthorized");
	});

	it("a second revoke keeps the first revoked_at", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		const path = `/v1/admin/keys/${partner.keys.live.id}/revoke`;
		expect((await api(path, { method: "POST", key: admin })).status).toBe(200);
		// Move the first revocation into the past, so an overwrite could not go unnoticed.
		const firstRevokedAt = "2026-01-02T03:04:05.678Z";
		await env.DB.prepare("UPDATE api_keys SET revoked_at = ?2 WHERE id = ?1")
			.bind(partner.keys.live.id, firstRevokedAt)
			.run();
		const again = await api(path, { method: "POST", key: admin });
		expect(again.status).toBe(200);
		expect(((await again.json()) as KeySummary).revoked_at).toBe(firstRevokedAt);
	});

	it("an unknown key is a 404 naming key_id", async () => {
		const response = await api("/v1/admin/keys/key_doesnotexist/revoke", {
			method: "POST",
			key: await createAdminKey(),
		});
		await expectError(response, "not_found", "key_id");
	});
});

describe("PUT /v1/admin/accounts/{id}/limits", () => {
	it("sets requests_per_minute, and the account's next response shows it in X-RateLimit-Limit", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		const response = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, admin, {
			requests_per_minute: 600,
		});
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			account_id: partner.account.id,
			requests_per_minute: 600,
			orders_per_second: 1,
			order_burst: 30,
		});
		const next = await api("/v1/catalog", { key: partner.keys.live.key });
		expect(next.status).toBe(200);
		expect(next.headers.get("X-RateLimit-Limit")).toBe("600");
		// The override is per account: both of its keys get it.
		expect((await api("/v1/catalog", { key: partner.keys.test.key })).headers.get("X-RateLimit-Limit")).toBe("600");
	});

	it("null restores the default of 120, and an absent field is left as it is", async () => {
		const partner = await createPartner();
		const admin = await createAdminKey();
		const path = `/v1/admin/accounts/${partner.account.id}/limits`;
		await send("PUT", path, admin, { requests_per_minute: 600, order_burst: 50 });
		const response = await send("PUT", path, admin, { requests_per_minute: null });
		expect(response.status).toBe(200);
		expect(await response.json()).toEqual({
			account_id: partner.account.id,
			requests_per_minute: 120,
			orders_per_second: 1,
			order_burst: 50,
		});
		const next = await api("/v1/catalog", { key: partner.keys.live.key });
		expect(next.headers.get("X-RateLimit-Limit")).toBe("120");
	});

	it("sets the order-creation limits", async () => {
		const partner = await createPartner();
		const response = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			orders_per_second: 2.5,
			order_burst: 100,
		});
		expect(response.status).toBe(200);
		const row = await env.DB.prepare("SELECT orders_per_second, order_burst FROM accounts WHERE id = ?1")
			.bind(partner.account.id)
			.first();
		expect(row).toEqual({ orders_per_second: 2.5, order_burst: 100 });
	});

	it("an unknown account is a 404 naming the id", async () => {
		const response = await send("PUT", "/v1/admin/accounts/acct_doesnotexist/limits", await createAdminKey(), {
			requests_per_minute: 10,
		});
		await expectError(response, "not_found", "id");
	});

	it.each([
		["requests_per_minute", 0],
		["requests_per_minute", 1.5],
		["requests_per_minute", -5],
		["requests_per_minute", "100"],
		["orders_per_second", 0],
		["order_burst", 0],
		["order_burst", 2.5],
	])("%s = %j is a 422 naming the field", async (field, value) => {
		const partner = await createPartner();
		const response = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			[field]: value,
		});
		await expectError(response, "validation_error", field);
	});

	it("an unknown field is a 422 naming it", async () => {
		const partner = await createPartner();
		const response = await send("PUT", `/v1/admin/accounts/${partner.account.id}/limits`, await createAdminKey(), {
			requests_per_hour: 10,
		});
		await expectError(response, "validation_error", "requests_per_hour");
	});
});
