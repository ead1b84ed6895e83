import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import { displayPrefix, generateApiKey, hashApiKey } from "../src/accounts/keys.ts";
import { planKey } from "../src/accounts/provisioning.ts";
import { type KeyMode, PARTNER_SCOPES, type Scope } from "../src/accounts/scopes.ts";
import { runBatch } from "../src/accounts/store.ts";
import { planAccount } from "../src/admin/provisioning.ts";
import { ERROR_STATUS, type ErrorEnvelope, type ErrorType } from "../src/http/errors.ts";
import { newId } from "../src/ids.ts";
import { expectConformance } from "./conformance.ts";

/** An instant as the API writes it: ISO 8601 in UTC, with milliseconds. */
export const ISO_UTC = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/**
 * Sends a request to the Worker's default export, as a partner's HTTP client would, and checks the
 * answer against the OpenAPI document (test/conformance.ts): an undocumented status, field or
 * header fails the test that sent it.
 */
export async function api(path: string, init: RequestInit & { key?: string } = {}): Promise<Response> {
	const { key, ...rest } = init;
	const headers = new Headers(rest.headers);
	if (key !== undefined) headers.set("Authorization", `Bearer ${key}`);
	if (typeof rest.body === "string" && !headers.has("Content-Type")) headers.set("Content-Type", "application/json");
	const request = new Request(`https://api.test${path}`, { ...rest, headers });
	const sent = { method: request.method, url: request.url };
	const response = await exports.default.fetch(request);
	await expectConformance(sent, response);
	return response;
}

/** A JSON POST/PUT/PATCH with a key. */
export function send(method: string, path: string, key: string, body: unknown): Promise<Response> {
	return api(path, { method, key, body: JSON.stringify(body) });
}

/**
 * `json` encoded as UTF-8, with every `marker` in it replaced by the raw `bytes` (which need not be
 * UTF-8 at all): a body no JSON.stringify could produce.
 */
export function jsonWithRawBytes(json: string, marker: string, bytes: readonly number[]): Uint8Array {
	const encoder = new TextEncoder();
	const pieces = json.split(marker).map((piece) => encoder.encode(piece));
	const out: number[] = [];
	for (const [index, piece] of pieces.entries()) {
		if (index > 0) out.push(...bytes);
		out.push(...piece);
	}
	return Uint8Array.from(out);
}

/** A request whose body is these exact bytes, sent as `application/json` unless `contentType` says otherwise. */
export function sendBytes(
	method: string,
	path: string,
	key: string,
	body: Uint8Array,
	contentType = "application/json",
): Promise<Response> {
	return api(path, { method, key, body, headers: { "Content-Type": contentType } });
}

/** A partner account written straight to D1, with its live and test keys. */
export async function createPartner(name = "Test Gallery") {
	const { created, statements } = await planAccount(name, PARTNER_SCOPES, new Date());
	await runBatch(env.DB, statements);
	return created;
}

/** A key with exactly these scopes on a fresh account (e.g. an admin or ops key). */
export async function createKeyWithScopes(scopes: Scope[], mode: "live" | "test" = "live"): Promise<string> {
	const partner = await createPartner("Service team");
	const { issued, statement } = await planKey(partner.account.id, mode, scopes, new Date());
	await runBatch(env.DB, [statement]);
	return issued.key;
}

/**
 * A key row written straight to D1, past the provisioning rules: a key that older code could issue
 * and the database may still hold (say, a test-mode `ops` key). Its secret.
 */
export async function insertKeyRow(scopes: Scope[], mode: KeyMode): Promise<string> {
	const partner = await createPartner("Service team");
	const key = generateApiKey(mode);
	await env.DB.prepare(
		"INSERT INTO api_keys (id, account_id, key_hash, display_prefix, mode, scopes, created_at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
	)
		.bind(
			newId("key"),
			partner.account.id,
			await hashApiKey(key),
			displayPrefix(key),
			mode,
			scopes.join(" "),
			new Date().toISOString(),
		)
		.run();
	return key;
}

/** A fresh `admin` key (on its own account, so its rate-limit window is its own). */
export function createAdminKey(): Promise<string> {
	return createKeyWithScopes(["admin"]);
}

/** The error envelope of a response, checked for its shape. */
export async function errorOf(response: Response): Promise<ErrorEnvelope["error"]> {
	const body = (await response.json()) as ErrorEnvelope;
	return body.error;
}

/**
 * Asserts that `response` is the contract's error envelope of `type`, with the type's status, a
 * JSON body, `request_id` equal to the X-Request-Id header and, when given, `field`. Returns the error.
 */
export async function expectError(
	response: Response,
	type: ErrorType,
	field?: string,
): Promise<ErrorEnvelope["error"]> {
	expect(response.status).toBe(ERROR_STATUS[type]);
	expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
	const error = await errorOf(response);
	expect(error.type).toBe(type);
	expect(typeof error.message).toBe("string");
	expect(error.message.length).toBeGreaterThan(0);
	expect(error.request_id).toBe(response.headers.get("X-Request-Id"));
	expect(error.request_id).not.toBe("");
	if (field === undefined) expect(error).not.toHaveProperty("field");
	else expect(error.field).toBe(field);
	return error;
}

/** The X-RateLimit-* headers of a response as numbers (NaN when absent). */
export function rateLimitHeaders(response: Response): { limit: number; remaining: number; reset: number } {
	return {
		limit: Number(response.headers.get("X-RateLimit-Limit") ?? Number.NaN),
		remaining: Number(response.headers.get("X-RateLimit-Remaining") ?? Number.NaN),
		reset: Number(response.headers.get("X-RateLimit-Reset") ?? Number.NaN),
	};
}
