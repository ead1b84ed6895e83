import { describe, expect, it } from "vitest";
import { SESSION_SECONDS } from "../../src/console/session.ts";
import {
	csrfTokenMatches,
	csrfTokenOf,
	newSessionId,
	signSessionCookie,
	verifySessionCookie,
} from "../../src/http/signed-session.ts";

const SECRET = "a-test-secret";
const NOW = 1_800_000_000;

/** The same text with the character at `index` swapped for another valid base64url character. */
function flipCharacter(text: string, index: number): string {
	const current = text.charAt(index);
	return `${text.slice(0, index)}${current === "A" ? "B" : "A"}${text.slice(index + 1)}`;
}

describe("session cookie signing", () => {
	it("a cookie verifies until its expiry and names its session", async () => {
		const id = newSessionId();
		const cookie = await signSessionCookie(SECRET, id, NOW + SESSION_SECONDS);
		expect(cookie).toMatch(/^ses_[0-9A-Za-z]{32}\.\d+\.[A-Za-z0-9_-]{43}$/);
		expect(await verifySessionCookie(SECRET, cookie, NOW)).toEqual({
			sessionId: id,
			expiresUnix: NOW + SESSION_SECONDS,
		});
		expect(await verifySessionCookie(SECRET, cookie, NOW + SESSION_SECONDS - 1)).not.toBeNull();
	});

	it("a session lasts one twelve-hour shift", () => {
		expect(SESSION_SECONDS).toBe(12 * 60 * 60);
	});

	it("an expired cookie is refused, at its expiry second and after", async () => {
		const cookie = await signSessionCookie(SECRET, newSessionId(), NOW);
		expect(await verifySessionCookie(SECRET, cookie, NOW)).toBeNull();
		expect(await verifySessionCookie(SECRET, cookie, NOW + 1)).toBeNull();
	});

	it("a changed signature byte is refused", async () => {
		const cookie = await signSessionCookie(SECRET, newSessionId(), NOW + 60);
		for (const index of [cookie.length - 1, cookie.length - 20, cookie.lastIndexOf(".") + 1]) {
			expect(await verifySessionCookie(SECRET, flipCharacter(cookie, index), NOW)).toBeNull();
		}
	});

	it("a changed session id is refused", async () => {
		const cookie = await signSessionCookie(SECRET, newSessionId(), NOW + 60);
		const [, expires, mac] = cookie.split(".");
		expect(await verifySessionCookie(SECRET, `${newSessionId()}.${expires}.${mac}`, NOW)).toBeNull();
	});

	it("a pushed-back expiry is refused", async () => {
		const id = newSessionId();
		const cookie = await signSessionCookie(SECRET, id, NOW + 60);
		const [, , mac] = cookie.split(".");
		expect(await verifySessionCookie(SECRET, `${id}.${NOW + 999_999}.${mac}`, NOW)).toBeNull();
	});

	it("a cookie signed with another secret is refused", async () => {
		const cookie = await signSessionCookie("another-secret", newSessionId(), NOW + 60);
		expect(await verifySessionCookie(SECRET, cookie, NOW)).toBeNull();
	});

	it("malformed values are refused without throwing", async () => {
		const id = newSessionId();
		const good = await signSessionCookie(SECRET, id, NOW + 60);
		const candidates = [
			"",
			"garbage",
			`${good}.extra`,
			good.replace(".", ""),
			`${id}.0${NOW + 60}.${good.split(".")[2]}`,
			`${id}.-1.${good.split(".")[2]}`,
			`${id}.1e10.${good.split(".")[2]}`,
			`${id}.${NOW + 60}.not base64!`,
			`not_a_session.${NOW + 60}.${good.split(".")[2]}`,
		];
		for (const candidate of candidates) expect(await verifySessionCookie(SECRET, candidate, NOW)).toBeNull();
	});

	it("a NaN clock refuses rather than accepts", async () => {
		const cookie = await signSessionCookie(SECRET, newSessionId(), NOW + 60);
		expect(await verifySessionCookie(SECRET, cookie, Number.NaN)).toBeNull();
	});
});

describe("form tokens", () => {
	it("a session's token matches only that session", async () => {
		const mine = newSessionId();
		const theirs = newSessionId();
		const token = await csrfTokenOf(SECRET, mine);
		expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(await csrfTokenMatches(SECRET, mine, token)).toBe(true);
		expect(await csrfTokenMatches(SECRET, theirs, token)).toBe(false);
	});

	it("a token under another secret, a changed byte, or an empty one does not match", async () => {
		const session = newSessionId();
		const token = await csrfTokenOf(SECRET, session);
		expect(await csrfTokenMatches(SECRET, session, await csrfTokenOf("another-secret", session))).toBe(false);
		expect(await csrfTokenMatches(SECRET, session, flipCharacter(token, 5))).toBe(false);
		expect(await csrfTokenMatches(SECRET, session, "")).toBe(false);
	});

	it("a session cookie's signature is never a valid form token, nor the other way round", async () => {
		const session = newSessionId();
		const cookie = await signSessionCookie(SECRET, session, NOW + 60);
		const cookieMac = cookie.split(".")[2] ?? "";
		expect(await csrfTokenMatches(SECRET, session, cookieMac)).toBe(false);
		const token = await csrfTokenOf(SECRET, session);
		expect(await verifySessionCookie(SECRET, `${session}.${NOW + 60}.${token}`, NOW)).toBeNull();
	});
});
