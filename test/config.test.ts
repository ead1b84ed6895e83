import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ConfigError, configOf } from "../src/config.ts";

describe("configuration", () => {
	it("reads each setting once, with its default when unset", () => {
		const config = configOf({});
		expect(config).toMatchObject({
			ENVIRONMENT: "production",
			UPLOAD_METHOD: "worker",
			UPLOAD_URL_TTL_SECONDS: 3600,
			SANDBOX_STEP_SECONDS: 60,
			WEBHOOK_TIMEOUT_SECONDS: 10,
			STALLED_ORDER_SECONDS: 300,
			WEBHOOK_SWEEP_OVERDUE_SECONDS: 120,
		});
		expect(config.UPLOAD_SIGNING_SECRET).toBeUndefined();
	});

	it("turns the variables' strings into numbers within their bounds", () => {
		expect(configOf({ SANDBOX_STEP_SECONDS: "5", WEBHOOK_TIMEOUT_SECONDS: "1" })).toMatchObject({
			SANDBOX_STEP_SECONDS: 5,
			WEBHOOK_TIMEOUT_SECONDS: 1,
		});
	});

	it.each([
		["SANDBOX_STEP_SECONDS", "soon"],
		["WEBHOOK_TIMEOUT_SECONDS", "0"],
		["UPLOAD_URL_TTL_SECONDS", "99999999"],
		["UPLOAD_URL_TTL_SECONDS", "0"],
		["UPLOAD_METHOD", "ftp"],
		["ENVIRONMENT", "staging"],
	])("a bad %s (%j) fails with a message naming the variable", (variable, value) => {
		expect(() => configOf({ [variable]: value })).toThrow(ConfigError);
		expect(() => configOf({ [variable]: value })).toThrow(new RegExp(`^${variable} is`));
	});

	it("a bad setting fails the first request as a logged 500, naming nothing to the client", async () => {
		const broken = { ...env, SANDBOX_STEP_SECONDS: "soon" };
		const { app } = await import("../src/app.ts");
		const response = await app.request("/v1/health", {}, broken);
		expect(response.status).toBe(500);
		const body = (await response.json()) as { error: { type: string; message: string } };
		expect(body.error.type).toBe("server_error");
		expect(body.error.message).not.toMatch(/SANDBOX_STEP_SECONDS/);
	});
});
