import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { CLAIM_WITHIN_DAYS } from "../src/claims/rules.ts";
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
			EVENT_RETENTION_DAYS: 90,
		});
		expect(config.UPLOAD_SIGNING_SECRET).toBeUndefined();
	});

	it("keeps events the days EVENT_RETENTION_DAYS says, from a week to ten years", () => {
		expect(configOf({ EVENT_RETENTION_DAYS: "7" }).EVENT_RETENTION_DAYS).toBe(7);
		expect(configOf({ EVENT_RETENTION_DAYS: "3650" }).EVENT_RETENTION_DAYS).toBe(3650);
	});

	it("keeps print files 45 days after their last use unless told, and never less than the claims window", () => {
		expect(configOf({}).PRINT_FILE_RETENTION_DAYS).toBe(45);
		expect(configOf({ PRINT_FILE_RETENTION_DAYS: "31" }).PRINT_FILE_RETENTION_DAYS).toBe(31);
		expect(CLAIM_WITHIN_DAYS).toBeLessThan(31);
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
		["EVENT_RETENTION_DAYS", "6"],
		["EVENT_RETENTION_DAYS", "3651"],
		["EVENT_RETENTION_DAYS", "30.5"],
		["PRINT_FILE_RETENTION_DAYS", "30"],
		["PRINT_FILE_RETENTION_DAYS", "45.5"],
		["PRINT_FILE_RETENTION_DAYS", "3651"],
		["SHIP_FROM_ADDRESS", "200 Industrial Way, Newark"],
		["SHIP_FROM_ADDRESS", '{"name":"Dock","address1":"200 Industrial Way","city":"Newark"}'],
		["SHIP_FROM_ADDRESS", '{"name":"Dock","address1":"200 Industrial Way","city":"Newark","country":"usa"}'],
		["SHIP_FROM_ADDRESS", '{"name":"Dock\\nRear","address1":"1 Way","city":"Newark","country":"US"}'],
		["SHIP_FROM_ADDRESS", '{"name":"Dock","address1":"1 Way","city":"Newark","country":"US","floor":"2"}'],
		["IOSS_NUMBER", "IM37200000"],
		["IOSS_NUMBER", "EU3720000001"],
	])("a bad %s (%j) fails with a message naming the variable", (variable, value) => {
		expect(() => configOf({ [variable]: value })).toThrow(ConfigError);
		expect(() => configOf({ [variable]: value })).toThrow(new RegExp(`^${variable} is`));
	});

	it.each([
		["CONSOLE_SESSION_SECRET", "a", "must be at least 32 characters"],
		["UPLOAD_SIGNING_SECRET", " ", "must be at least 32 characters"],
		["UPLOAD_SIGNING_SECRET", " ".repeat(40), "must not begin or end with whitespace"],
		["CONSOLE_SESSION_SECRET", "ab".repeat(20), "must have at least 8 different characters"],
		["UPLOAD_SIGNING_SECRET", "short-but-s3cret", "must be at least 32 characters"],
	])("a guessable %s (%j) is refused, naming the variable but never showing the secret", (variable, value, why) => {
		let thrown: unknown;
		try {
			configOf({ [variable]: value });
		} catch (error) {
			thrown = error;
		}
		expect(thrown).toBeInstanceOf(ConfigError);
		const message = (thrown as Error).message;
		expect(message).toBe(
			`${variable} is a secret of ${value.length} characters: ${why}${why.startsWith("must be at least") ? " (openssl rand -base64 32 makes one)" : ""}`,
		);
		// Long enough to be told apart from the message's own words.
		if (value.trim().length > 4) expect(message).not.toContain(value);
	});

	it("a secret of 32 varied characters is taken, and an empty one counts as unset", () => {
		const secret = "Zq8rT2vX9mW4pL7nB3kY6hD1fG5sJ0cA";
		expect(configOf({ UPLOAD_SIGNING_SECRET: secret, CONSOLE_SESSION_SECRET: "" })).toMatchObject({
			UPLOAD_SIGNING_SECRET: secret,
			CONSOLE_SESSION_SECRET: undefined,
		});
	});

	it("reads the facility's address from JSON and the IOSS number, each absent when unset or empty", () => {
		const address = {
			name: "Dock",
			address1: "200 Industrial Way",
			city: "Newark",
			state: "NJ",
			zip: "07114",
			country: "US",
		};
		expect(configOf({ SHIP_FROM_ADDRESS: JSON.stringify(address), IOSS_NUMBER: "IM3720000001" })).toMatchObject({
			SHIP_FROM_ADDRESS: address,
			IOSS_NUMBER: "IM3720000001",
		});
		for (const unset of [configOf({ SHIP_FROM_ADDRESS: "", IOSS_NUMBER: "" }), configOf({})]) {
			expect(unset.SHIP_FROM_ADDRESS).toBeUndefined();
			expect(unset.IOSS_NUMBER).toBeUndefined();
		}
	});

	it("wrangler.toml sets the facility's address and the IOSS number for the tests and the local service", () => {
		expect(configOf(env)).toMatchObject({
			SHIP_FROM_ADDRESS: { country: "US" },
			IOSS_NUMBER: expect.stringMatching(/^IM\d{10}$/),
		});
	});

	it("a dead-letter queue named as the webhooks' own queue is refused, naming WEBHOOK_DEAD_LETTER_QUEUE", () => {
		expect(() => configOf({ WEBHOOK_DEAD_LETTER_QUEUE: "framed-print-webhooks" })).toThrow(
			'WEBHOOK_DEAD_LETTER_QUEUE is "framed-print-webhooks": must differ from WEBHOOK_QUEUE (framed-print-webhooks)',
		);
		expect(() => configOf({ WEBHOOK_QUEUE: "hooks-staging", WEBHOOK_DEAD_LETTER_QUEUE: "hooks-staging" })).toThrow(
			/^WEBHOOK_DEAD_LETTER_QUEUE is "hooks-staging": must differ from WEBHOOK_QUEUE/,
		);
		expect(configOf({ WEBHOOK_QUEUE: "a", WEBHOOK_DEAD_LETTER_QUEUE: "b" })).toMatchObject({
			WEBHOOK_QUEUE: "a",
			WEBHOOK_DEAD_LETTER_QUEUE: "b",
		});
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
