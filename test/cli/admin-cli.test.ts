/**
 * The admin CLI end to end, in Node: it writes to a throwaway local D1 folder, and a real
 * `wrangler dev` on that folder then accepts (or refuses) the keys it issued.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AccountListing, KeyListing } from "../../scripts/lib/accounts.ts";
import { type DevServer, freePort, startDevServer } from "../../scripts/lib/dev-server.ts";
import { migrateFreshFolder } from "../../scripts/lib/migrated-template.ts";
import { PROJECT_ROOT } from "../../scripts/lib/wrangler.ts";
import type { IssuedKey } from "../../src/accounts/provisioning.ts";
import type { NewAccount, NewServiceAccount } from "../../src/admin/provisioning.ts";
import { PRINCIPAL_TTL_MS } from "../../src/rate-limit/principal-hold.ts";

const run = promisify(execFile);

let persistTo = "";
let server: DevServer | undefined;

async function admin(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
	try {
		const { stdout, stderr } = await run(
			process.execPath,
			[path.join(PROJECT_ROOT, "scripts", "admin.ts"), ...args, "--persist-to", persistTo],
			{ cwd: PROJECT_ROOT },
		);
		return { code: 0, stdout, stderr };
	} catch (error) {
		const failed = error as { code?: number; stdout?: string; stderr?: string };
		return { code: failed.code ?? 1, stdout: failed.stdout ?? "", stderr: failed.stderr ?? "" };
	}
}

async function adminJson<T>(...args: string[]): Promise<T> {
	const result = await admin(...args, "--json");
	expect(result.code, result.stderr).toBe(0);
	return JSON.parse(result.stdout) as T;
}

function callApi(key: string, pathname: string, init: RequestInit = {}): Promise<Response> {
	if (server === undefined) throw new Error("dev server not started");
	const headers = new Headers(init.headers);
	headers.set("Authorization", `Bearer ${key}`);
	return fetch(`${server.origin}${pathname}`, { ...init, headers });
}

beforeAll(async () => {
	persistTo = await mkdtemp(path.join(tmpdir(), "fps-admin-cli-"));
	await migrateFreshFolder(persistTo);
});

afterAll(async () => {
	await server?.stop();
	await rm(persistTo, { recursive: true, force: true });
});

describe("npm run admin", () => {
	let created: NewAccount;

	it("create-account makes an account whose live and test keys then work on the API", async () => {
		created = await adminJson<NewAccount>("create-account", "--name", "Harbour Museum Store");
		expect(created.account.id).toMatch(/^acct_/);
		expect(created.keys.live.key).toMatch(/^fps_live_/);
		expect(created.keys.test.key).toMatch(/^fps_test_/);
		expect(created.webhook_secret).toMatch(/^whsec_/);

		// The consoles' secret, so the partner console's sign-in works on it (npm start sets one too).
		const vars = { CONSOLE_SESSION_SECRET: "admin-cli-test-console-secret-0123456789" };
		server = await startDevServer({ port: await freePort(), persistTo, vars });
		expect((await callApi(created.keys.live.key, "/v1/catalog")).status).toBe(200);
		expect((await callApi(created.keys.test.key, "/v1/catalog")).status).toBe(200);
	});

	it("create-key issues a key with the scopes asked for, which the admin routes then accept", async () => {
		const issued = await adminJson<IssuedKey>(
			"create-key",
			"--account",
			created.account.id,
			"--mode",
			"live",
			"--scopes",
			"admin",
		);
		expect(issued.scopes).toEqual(["admin"]);
		const response = await callApi(issued.key, "/v1/admin/accounts", {
			method: "POST",
			headers: { "Content-Type": "application/json" },
			body: JSON.stringify({ name: "Made with a CLI-issued admin key" }),
		});
		expect(response.status).toBe(201);
	});

	it("create-key for an unknown account fails with exit code 1 and says so", async () => {
		const result = await admin("create-key", "--account", "acct_missing", "--mode", "test");
		expect(result.code).toBe(1);
		expect(result.stderr).toContain("No account acct_missing");
	});

	it(
		"revoke-key revokes: the key, which its limiter held, is refused with 401 within PRINCIPAL_TTL_MS",
		async () => {
			expect((await callApi(created.keys.live.key, "/v1/catalog")).status).toBe(200);
			const revoked = await adminJson<KeyListing>("revoke-key", "--key", created.keys.live.id);
			expect(revoked.revoked_at).not.toBeNull();
			// The CLI writes D1 alone and cannot reach the key's limiter, which held the principal it had read:
			// the revocation is read again within PRINCIPAL_TTL_MS (the API's revoke is immediate).
			const started = Date.now();
			let response = await callApi(created.keys.live.key, "/v1/catalog");
			while (response.status !== 401 && Date.now() - started < PRINCIPAL_TTL_MS + 5_000) {
				await new Promise((resolve) => setTimeout(resolve, 1_000));
				response = await callApi(created.keys.live.key, "/v1/catalog");
			}
			expect(response.status).toBe(401);
			expect(Date.now() - started).toBeLessThan(PRINCIPAL_TTL_MS + 5_000);
			expect(((await response.json()) as { error: { message: string } }).error.message).toContain("revoked");
		},
		PRINCIPAL_TTL_MS + 30_000,
	);

	it("invite-user prints a link that sets the user's password once; then the user signs in to the partner console", async () => {
		type Invitation = { user: { id: string; email: string; role: string }; invitation_url: string; expires_at: string };
		if (server === undefined) throw new Error("dev server not started");
		const email = `Maya.${Date.now()}@Harbour.example`;
		const args = ["--account", created.account.id, "--email", email, "--name", "Maya", "--role", "support"];
		const invited = await adminJson<Invitation>("invite-user", ...args, "--origin", server.origin);
		expect(invited.user).toMatchObject({ email: email.toLowerCase(), role: "support" });
		expect(invited.invitation_url).toMatch(new RegExp(`^${server.origin}/partner/invitations/[0-9A-Za-z]{40}$`));
		const form = (fields: Record<string, string>) => ({
			method: "POST",
			body: new URLSearchParams(fields).toString(),
			headers: { "Content-Type": "application/x-www-form-urlencoded" },
			redirect: "manual" as const,
		});
		const password = "a harbour at dusk";
		const set = await fetch(invited.invitation_url, form({ password, confirm: password }));
		expect(set.status).toBe(303);
		const signedIn = await fetch(`${server.origin}/partner/sign-in`, form({ email, password }));
		expect(signedIn.status).toBe(303);
		expect(signedIn.headers.getSetCookie().some((cookie) => cookie.startsWith("__Host-partner_session="))).toBe(true);
		const again = await admin("invite-user", ...args);
		expect(again.code).toBe(1);
		expect(again.stderr).toContain("already has a user");
		const unknown = await admin(
			"invite-user",
			"--account",
			"acct_missing",
			"--email",
			"x@example.com",
			"--name",
			"X",
			"--role",
			"viewer",
		);
		expect([unknown.code, unknown.stderr.includes("No account acct_missing")]).toEqual([1, true]);
		const badRole = await admin("invite-user", ...args.slice(0, -1), "superuser");
		expect(badRole.code).toBe(2);
	});

	it("list-accounts lists each account with its active and revoked key counts", async () => {
		const accounts = await adminJson<AccountListing[]>("list-accounts");
		const listed = accounts.find((account) => account.id === created.account.id);
		expect(listed).toMatchObject({ name: "Harbour Museum Store", active_keys: 2, revoked_keys: 1 });
	});

	it("an unknown command prints the usage and exits with code 2", async () => {
		const result = await admin("make-coffee");
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("Usage: npm run admin");
	});

	it("create-key refuses a test-mode ops or admin key with exit code 2, saying they are live-only, and writes nothing", async () => {
		const before = await adminJson<AccountListing[]>("list-accounts");
		for (const scopes of ["ops", "admin", "orders:read,ops"]) {
			const result = await admin("create-key", "--account", created.account.id, "--mode", "test", "--scopes", scopes);
			expect(result.code, result.stdout).toBe(2);
			expect(result.stderr).toContain("live-only");
		}
		expect(await adminJson<AccountListing[]>("list-accounts")).toEqual(before);
	});

	it("create-account with --scopes ops makes a service-team account with a live key only, no test key", async () => {
		const team = await adminJson<NewServiceAccount>("create-account", "--name", "Floor team", "--scopes", "ops");
		expect(team.keys.live.mode).toBe("live");
		expect(team.keys.live.scopes).toEqual(["ops"]);
		expect(team.keys).not.toHaveProperty("test");
		const accounts = await adminJson<AccountListing[]>("list-accounts");
		expect(accounts.find((account) => account.id === team.account.id)).toMatchObject({ active_keys: 1 });
		expect((await callApi(team.keys.live.key, "/v1/ops/orders")).status).toBe(200);
	});

	it("a bad scope is refused before anything is written", async () => {
		const before = await adminJson<AccountListing[]>("list-accounts");
		const result = await admin("create-account", "--name", "Nope", "--scopes", "orders:read,superuser");
		expect(result.code).toBe(2);
		expect(result.stderr).toContain("superuser");
		expect(await adminJson<AccountListing[]>("list-accounts")).toHaveLength(before.length);
	});
});
