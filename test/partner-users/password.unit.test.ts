/** Partner users' password hashes and rules, and the lock-out after wrong passwords. */
import { describe, expect, it } from "vitest";
import { afterFailure, LOCK_AFTER, LOCK_MINUTES, lockedAt } from "../../src/partner-users/lockout.ts";
import {
	decoyHash,
	hashPassword,
	PBKDF2_ITERATIONS,
	passwordMatches,
	passwordProblem,
} from "../../src/partner-users/password.ts";

describe("partner passwords", () => {
	it("hashes with PBKDF2-SHA-256 at the runtime's 100,000 iterations and a fresh salt each time", async () => {
		const first = await hashPassword("correct horse battery");
		const second = await hashPassword("correct horse battery");
		expect(first).toMatch(/^pbkdf2-sha256\$100000\$[A-Za-z0-9+/]{22}==\$[A-Za-z0-9+/]{43}=$/);
		expect(first).not.toBe(second);
		expect(PBKDF2_ITERATIONS).toBe(100_000);
	});

	it("matches the password it was made from, and no other (case, spaces and normal form count as written)", async () => {
		const stored = await hashPassword("Café au lait 2026");
		expect(await passwordMatches("Café au lait 2026", stored)).toBe(true);
		expect(await passwordMatches("Cafe\u0301 au lait 2026", stored)).toBe(true);
		for (const wrong of ["café au lait 2026", "Café au lait 2026 ", "Café au lait 202", ""]) {
			expect(await passwordMatches(wrong, stored)).toBe(false);
		}
	});

	it("matches nothing against a stored text it did not write", async () => {
		const stored = await hashPassword("a long enough secret");
		const [, , salt, key] = stored.split("$");
		for (const tampered of [
			`sha1$100000$${salt}$${key}`,
			`pbkdf2-sha256$1000000$${salt}$${key}`,
			`pbkdf2-sha256$0$${salt}$${key}`,
			`pbkdf2-sha256$100000$${salt}$AAAA`,
			`pbkdf2-sha256$100000$not base64$${key}`,
			`${stored}$extra`,
			"",
		]) {
			expect(await passwordMatches("a long enough secret", tampered)).toBe(false);
		}
	});

	it("the decoy hash matches no password a person would type", async () => {
		expect(await passwordMatches("", await decoyHash())).toBe(false);
		expect(await decoyHash()).toBe(await decoyHash());
	});

	it("asks for 12 to 200 characters that are not all spaces", () => {
		expect(passwordProblem("short")).toBe("Use at least 12 characters.");
		expect(passwordProblem(" ".repeat(12))).toBe("Use characters other than spaces.");
		expect(passwordProblem("x".repeat(201))).toBe("Use at most 200 characters.");
		expect(passwordProblem("😀".repeat(12))).toBeNull();
		expect(passwordProblem("twelve chars")).toBeNull();
	});
});

describe("lock-out", () => {
	const now = new Date("2026-11-27T12:00:00.000Z");

	it(`locks after ${LOCK_AFTER} wrong passwords in a row, for ${LOCK_MINUTES} minutes`, () => {
		let state = { failed_attempts: 0, locked_until: null as string | null };
		for (let failure = 1; failure < LOCK_AFTER; failure++) {
			state = afterFailure(state, now);
			expect(state).toEqual({ failed_attempts: failure, locked_until: null });
			expect(lockedAt(state, now)).toBe(false);
		}
		state = afterFailure(state, now);
		expect(state.locked_until).toBe("2026-11-27T12:15:00.000Z");
		expect(lockedAt(state, new Date("2026-11-27T12:14:59.999Z"))).toBe(true);
		expect(lockedAt(state, new Date("2026-11-27T12:15:00.000Z"))).toBe(false);
	});

	it("starts a new count once a lock has run out", () => {
		const expired = { failed_attempts: 0, locked_until: "2026-11-27T11:00:00.000Z" };
		expect(afterFailure(expired, now)).toEqual({ failed_attempts: 1, locked_until: null });
	});
});
