import { env, exports } from "cloudflare:workers";
import { expect } from "vitest";
import type { KeyMode } from "../../src/accounts/scopes.ts";
import { SESSION_COOKIE_HEADER_NAME } from "../../src/console/session.ts";
import type { OrderStatus } from "../../src/orders/state-machine.ts";
import { createKeyWithScopes } from "../helpers.ts";
import { insertRawOrder } from "../orders/order-helpers.ts";

/** The origin the tests send requests to. */
export const ORIGIN = "https://api.test";

/** The secret the workers test project sets (vitest.config.ts), for signing cookies by hand. */
export const TEST_SECRET = "test-console-session-secret-0123456789";

/** A browser-like request to the console: the session cookie when given, redirects not followed. */
export function consoleRequest(path: string, init: RequestInit & { cookie?: string } = {}): Promise<Response> {
	const { cookie, ...rest } = init;
	const headers = new Headers(rest.headers);
	if (cookie !== undefined) headers.set("Cookie", `${SESSION_COOKIE_HEADER_NAME}=${cookie}`);
	return exports.default.fetch(new Request(`${ORIGIN}${path}`, { ...rest, headers, redirect: "manual" }));
}

/** A form post (urlencoded, as a browser sends it) with the session cookie when given. */
export function postForm(
	path: string,
	fields: Record<string, string>,
	options: { cookie?: string; headers?: Record<string, string> } = {},
): Promise<Response> {
	return consoleRequest(path, {
		method: "POST",
		body: new URLSearchParams(fields).toString(),
		headers: { "Content-Type": "application/x-www-form-urlencoded", ...options.headers },
		...(options.cookie === undefined ? {} : { cookie: options.cookie }),
	});
}

/** The session cookie's value in a response's Set-Cookie, or null when it sets none. */
export function sessionCookieOf(response: Response): string | null {
	for (const header of response.headers.getSetCookie()) {
		const [pair] = header.split(";");
		const prefix = `${SESSION_COOKIE_HEADER_NAME}=`;
		if (pair?.startsWith(prefix)) return pair.slice(prefix.length);
	}
	return null;
}

/** The whole Set-Cookie header of the session cookie, or null. */
export function sessionSetCookieHeader(response: Response): string | null {
	return response.headers.getSetCookie().find((header) => header.startsWith(`${SESSION_COOKIE_HEADER_NAME}=`)) ?? null;
}

/** Asserts a 303 to `location` and returns the response. */
export function expectRedirect(response: Response, location: string): Response {
	expect(response.status).toBe(303);
	expect(response.headers.get("Location")).toBe(location);
	return response;
}

/** Asserts an HTML page of `status` and returns its text. */
export async function htmlOf(response: Response, status: number): Promise<string> {
	const text = await response.text();
	expect(response.status, text.slice(0, 2000)).toBe(status);
	expect(response.headers.get("Content-Type")).toMatch(/^text\/html/);
	expect(text.startsWith("<!doctype html>")).toBe(true);
	return text;
}

/** The `_csrf` value of the first form on a page. */
export function csrfOf(html: string): string {
	const token = /name="_csrf" value="([^"]+)"/.exec(html)?.[1];
	if (token === undefined) throw new Error("no _csrf field on the page");
	return token;
}

/** Markup turned back into the text a reader sees: tags dropped, the escapes JSX writes undone. */
export function textOf(markup: string): string {
	return markup
		.replace(/<[^>]*>/g, "")
		.replaceAll("&quot;", '"')
		.replaceAll("&#39;", "'")
		.replaceAll("&lt;", "<")
		.replaceAll("&gt;", ">")
		.replaceAll("&amp;", "&");
}

/** The text of `<div role="alert">` on a page, or null. */
export function alertOf(html: string): string | null {
	const inner = /<div role="alert">([\s\S]*?)<\/div>/.exec(html)?.[1];
	return inner === undefined ? null : textOf(inner);
}

/** The text of `<div role="status">` on a page, or null. */
export function statusMessageOf(html: string): string | null {
	const inner = /<div role="status">([\s\S]*?)<\/div>/.exec(html)?.[1];
	return inner === undefined ? null : textOf(inner);
}

/** Signs in with `key`, expecting success; the session cookie's value. */
export async function signIn(key: string): Promise<string> {
	const response = await postForm("/ops/sign-in", { key });
	expectRedirect(response, "/ops/orders");
	const cookie = sessionCookieOf(response);
	if (cookie === null) throw new Error("sign-in set no session cookie");
	return cookie;
}

/** A signed-in operator: their ops key, session cookie and form token. */
export type Operator = { key: string; cookie: string; csrf: string };

/** A new ops key, signed in, with the form token read from the queue page. */
export async function signedInOperator(): Promise<Operator> {
	const key = await createKeyWithScopes(["ops"]);
	const cookie = await signIn(key);
	const queue = await htmlOf(await consoleRequest("/ops/orders", { cookie }), 200);
	return { key, cookie, csrf: csrfOf(queue) };
}

/**
 * An order written straight to D1 in `status` (nothing wakes its Durable Object, so it stays there),
 * with one 8 × 10 in item from a partner URL. Returns its id and external id.
 */
export function insertOrderIn(
	owner: { accountId: string; mode: KeyMode },
	status: OrderStatus,
	options: { externalId?: string; now?: Date } = {},
): Promise<{ id: string; externalId: string }> {
	return insertRawOrder(owner, status, "https://files.partner.example/console/print.png", options);
}

/** A fresh live order of `partner`'s in production, written straight to D1 (see insertOrderIn); its id. */
export async function orderInProduction(partner: { account: { id: string } }): Promise<string> {
	return (await insertOrderIn({ accountId: partner.account.id, mode: "live" }, "in_production")).id;
}

/** The order's status in D1. */
export async function statusOf(orderId: string): Promise<OrderStatus | null> {
	const row = await env.DB.prepare("SELECT status FROM orders WHERE id = ?1").bind(orderId).first<{
		status: OrderStatus;
	}>();
	return row?.status ?? null;
}

/** The product's own names, which no console page may show (the console is white-label). */
export const SERVICE_NAMES = /Framed-Print|framed-print|Fulfillment API/;
