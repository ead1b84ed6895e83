import { describe, expect, it } from "vitest";
import { api, createKeyWithScopes, createPartner, expectError, send } from "../helpers.ts";

type PrintSettings = { account_id: string; cmyk_files: "convert" | "hold" };

const PATH = "/v1/account/print-settings";

async function readSettings(key: string): Promise<PrintSettings> {
	const response = await api(PATH, { key });
	expect(response.status).toBe(200);
	return (await response.json()) as PrintSettings;
}

async function patchSettings(key: string, body: unknown): Promise<PrintSettings> {
	const response = await send("PATCH", PATH, key, body);
	expect(response.status).toBe(200);
	return (await response.json()) as PrintSettings;
}

describe("GET /v1/account/print-settings", () => {
	it("an account that never chose converts CMYK files; live and test keys read the same; no key is a 401", async () => {
		const partner = await createPartner();
		const settings = await readSettings(partner.keys.live.key);
		expect(settings).toEqual({ account_id: partner.account.id, cmyk_files: "convert" });
		expect(await readSettings(partner.keys.test.key)).toEqual(settings);
		await expectError(await api(PATH), "unauthorized");
	});
});

describe("PATCH /v1/account/print-settings", () => {
	it("sets hold and back to convert; a field left out is kept", async () => {
		const key = (await createPartner()).keys.live.key;
		expect((await patchSettings(key, { cmyk_files: "hold" })).cmyk_files).toBe("hold");
		expect((await readSettings(key)).cmyk_files).toBe("hold");
		expect((await patchSettings(key, {})).cmyk_files).toBe("hold");
		expect((await patchSettings(key, { cmyk_files: "convert" })).cmyk_files).toBe("convert");
	});

	it("a test key's change is the account's: the live key reads it, another account does not", async () => {
		const partner = await createPartner();
		const other = await createPartner();
		await patchSettings(partner.keys.test.key, { cmyk_files: "hold" });
		expect((await readSettings(partner.keys.live.key)).cmyk_files).toBe("hold");
		expect((await readSettings(other.keys.live.key)).cmyk_files).toBe("convert");
		expect((await readSettings(other.keys.test.key)).cmyk_files).toBe("convert");
	});

	it("refuses an unknown choice, null, an unknown field and a body that is not an object, and changes nothing", async () => {
		const key = (await createPartner()).keys.live.key;
		for (const value of ["reject", "HOLD", null, 1]) {
			await expectError(await send("PATCH", PATH, key, { cmyk_files: value }), "validation_error", "cmyk_files");
		}
		const unknown = await expectError(await send("PATCH", PATH, key, { cmyk: "hold" }), "validation_error", "cmyk");
		expect(unknown.message).toContain("Unknown field");
		await expectError(await send("PATCH", PATH, key, ["hold"]), "bad_request");
		expect((await readSettings(key)).cmyk_files).toBe("convert");
	});

	it("needs orders:write: a read-only key may read the setting but not change it", async () => {
		const reader = await createKeyWithScopes(["orders:read"]);
		const refused = await expectError(await send("PATCH", PATH, reader, { cmyk_files: "hold" }), "forbidden");
		expect(refused.code).toBe("scope_missing");
		expect((await readSettings(reader)).cmyk_files).toBe("convert");
	});

	it("honours Idempotency-Key: a retry gets the first answer again, the same key with another body is a 409", async () => {
		const key = (await createPartner()).keys.live.key;
		const headers = { "Content-Type": "application/json", "Idempotency-Key": "print-settings-1" };
		const first = await api(PATH, { method: "PATCH", key, headers, body: JSON.stringify({ cmyk_files: "hold" }) });
		expect(first.status).toBe(200);
		await patchSettings(key, { cmyk_files: "convert" });
		const retry = await api(PATH, { method: "PATCH", key, headers, body: JSON.stringify({ cmyk_files: "hold" }) });
		expect(retry.status).toBe(200);
		expect(retry.headers.get("Idempotent-Replayed")).toBe("true");
		expect(((await retry.json()) as PrintSettings).cmyk_files).toBe("hold");
		// The replay changed nothing: the setting is still the later change's.
		expect((await readSettings(key)).cmyk_files).toBe("convert");
		const reused = await api(PATH, { method: "PATCH", key, headers, body: JSON.stringify({ cmyk_files: "convert" }) });
		expect((await expectError(reused, "conflict", "Idempotency-Key")).code).toBe("idempotency_key_reused");
	});
});
