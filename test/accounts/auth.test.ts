import { describe, expect, it } from "vitest";
import { api, createAdminKey, createKeyWithScopes, createPartner, expectError, insertKeyRow } from "../helpers.ts";

/** A key of the right shape that was never issued. */
const UNISSUED_KEY = `fps_live_${"A1b2C3d4".repeat(4)}`;

async function revoke(keyId: string): Promise<void> {
	const admin = await createAdminKey();
	const response = await api(`/v1/admin/keys/${keyId}/revoke`, { method: "POST", key: admin });
	expect(response.status).toBe(200);
}

describe("bearer authentication (GET /v1/catalog)", () => {
	it("no Authorization header is a 401", async () => {
		const error = await expectError(await api("/v1/catalog"), "unauthorized");
		expect(error.message).toContain("Bearer");
	});

	it.each([undefined, "", "   "])("an Authorization header missing or empty (%j) is a 401 saying so", async (value) => {
		const headers: Record<string, string> = value === undefined ? {} : { Authorization: value };
		const error = await expectError(await api("/v1/catalog", { headers }), "unauthorized");
		expect(error.message).toMatch(/^No API key: the Authorization header is missing or empty/);
	});

	it.each(["Bearer ", "Bearer", "bearer   "])(
		"'%s' with no key after the scheme is a 401 api_key_missing saying the key is missing, not that the scheme is wrong",
		async (authorization) => {
			const error = await expectError(
				await api("/v1/catalog", { headers: { Authorization: authorization } }),
				"unauthorized",
			);
			expect(error.message).toContain("no API key after 'Bearer '");
			expect(error.message).not.toContain("scheme");
			expect(error.code).toBe("api_key_missing");
		},
	);

	it("another scheme is a 401 saying the header must use Bearer", async () => {
		const error = await expectError(
			await api("/v1/catalog", { headers: { Authorization: "Token fps_live_x" } }),
			"unauthorized",
		);
		expect(error.message).toContain("must use the Bearer scheme");
	});

	it("a non-Bearer scheme is a 401, even with a valid key", async () => {
		const partner = await createPartner();
		const basic = `Basic ${btoa(`${partner.keys.live.key}:`)}`;
		await expectError(await api("/v1/catalog", { headers: { Authorization: basic } }), "unauthorized");
		const raw = partner.keys.live.key;
		await expectError(await api("/v1/catalog", { headers: { Authorization: raw } }), "unauthorized");
	});

	it.each(["fps_live_short", "sk_123", "fps_prod_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA", `fps_live_${"x".repeat(31)}`])(
		"a malformed key (%s) is a 401",
		async (key) => {
			const error = await expectError(await api("/v1/catalog", { key }), "unauthorized");
			expect(error.message).toContain("malformed");
		},
	);

	it("an unknown well-formed key is a 401", async () => {
		const error = await expectError(await api("/v1/catalog", { key: UNISSUED_KEY }), "unauthorized");
		expect(error.message).not.toContain(UNISSUED_KEY);
	});

	it("a key with one character changed is a 401", async () => {
		const partner = await createPartner();
		const key = partner.keys.live.key;
		const tampered = `${key.slice(0, -1)}${key.endsWith("a") ? "b" : "a"}`;
		await expectError(await api("/v1/catalog", { key: tampered }), "unauthorized");
	});

	it("a revoked key is a 401", async () => {
		const partner = await createPartner();
		expect((await api("/v1/catalog", { key: partner.keys.live.key })).status).toBe(200);
		await revoke(partner.keys.live.id);
		const error = await expectError(await api("/v1/catalog", { key: partner.keys.live.key }), "unauthorized");
		expect(error.message).toContain("revoked");
	});

	it("revoking one key leaves the account's other key working", async () => {
		const partner = await createPartner();
		await revoke(partner.keys.live.id);
		expect((await api("/v1/catalog", { key: partner.keys.test.key })).status).toBe(200);
	});

	it("the scheme name is case-insensitive", async () => {
		const partner = await createPartner();
		const response = await api("/v1/catalog", { headers: { Authorization: `bearer ${partner.keys.live.key}` } });
		expect(response.status).toBe(200);
	});

	it("a 401 carries no rate-limit headers (there is no key to count against)", async () => {
		const response = await api("/v1/catalog", { key: UNISSUED_KEY });
		expect(response.status).toBe(401);
		expect(response.headers.get("X-RateLimit-Limit")).toBeNull();
	});
});

describe("scopes", () => {
	it("a partner key without the admin scope is a 403 on /v1/admin/accounts", async () => {
		const partner = await createPartner();
		const response = await api("/v1/admin/accounts", {
			method: "POST",
			key: partner.keys.live.key,
			body: JSON.stringify({ name: "Sneaky" }),
		});
		const error = await expectError(response, "forbidden");
		expect(error.message).toContain('"admin"');
	});

	it("an ops key is a 403 on an admin route", async () => {
		const ops = await createKeyWithScopes(["ops"]);
		const response = await api("/v1/admin/accounts", { method: "POST", key: ops, body: '{"name":"x"}' });
		await expectError(response, "forbidden");
	});

	it("a key with the admin scope passes the admin route", async () => {
		const admin = await createAdminKey();
		const response = await api("/v1/admin/accounts", { method: "POST", key: admin, body: '{"name":"Allowed"}' });
		expect(response.status).toBe(201);
	});

	it("any valid key passes GET /v1/catalog: partner keys of either mode, ops and admin keys", async () => {
		const partner = await createPartner();
		for (const key of [
			partner.keys.live.key,
			partner.keys.test.key,
			await createKeyWithScopes(["ops"]),
			await createKeyWithScopes(["admin"]),
		]) {
			expect((await api("/v1/catalog", { key })).status).toBe(200);
		}
	});

	it("a test-mode key holding ops or admin (a row issued before they were live-only) is a 403 on every route", async () => {
		const testOps = await insertKeyRow(["ops"], "test");
		const testAdmin = await insertKeyRow(["orders:read", "admin"], "test");
		const error = await expectError(await api("/v1/ops/orders", { key: testOps }), "forbidden");
		expect(error.message).toContain("live");
		await expectError(await api("/v1/catalog", { key: testOps }), "forbidden");
		await expectError(
			await api("/v1/admin/accounts", { method: "POST", key: testAdmin, body: '{"name":"x"}' }),
			"forbidden",
		);
		await expectError(await api("/v1/orders", { key: testAdmin }), "forbidden");
	});

	it("authentication comes before validation: a bad body with no key is a 401", async () => {
		const response = await api("/v1/admin/accounts", { method: "POST", body: '{"name":' });
		await expectError(response, "unauthorized");
	});

	it("the scope check comes before validation: a bad body with a partner key is a 403", async () => {
		const partner = await createPartner();
		const response = await api("/v1/admin/accounts", { method: "POST", key: partner.keys.live.key, body: '{"name":' });
		await expectError(response, "forbidden");
	});
});
