import { describe, expect, it } from "vitest";
import { decideRequest } from "../../src/rate-limit/sliding-window.ts";

const MINUTE = 60_000;
/** A fixed "now" on a whole second, so the arithmetic below is exact. */
const NOW = 1_800_000_000_000;

describe("decideRequest (sliding log)", () => {
	it("admits the first request in an empty window, with limit - 1 remaining", () => {
		const decision = decideRequest({ count: 0, oldestAt: null, freesSlotAt: null }, 120, MINUTE, NOW);
		expect(decision).toEqual({
			allowed: true,
			limit: 120,
			remaining: 119,
			resetAt: (NOW + MINUTE) / 1000,
			retryAfterSeconds: 0,
		});
	});

	it("counts remaining down as the window fills", () => {
		const at = (count: number) =>
			decideRequest({ count, oldestAt: NOW - 1_000, freesSlotAt: null }, 120, MINUTE, NOW).remaining;
		expect([at(0), at(1), at(60), at(118), at(119)]).toEqual([119, 118, 59, 1, 0]);
	});

	it("admits the last request under the limit and refuses the next", () => {
		const last = decideRequest({ count: 119, oldestAt: NOW - 10_000, freesSlotAt: null }, 120, MINUTE, NOW);
		expect(last.allowed).toBe(true);
		expect(last.remaining).toBe(0);
		const over = decideRequest({ count: 120, oldestAt: NOW - 10_000, freesSlotAt: NOW - 10_000 }, 120, MINUTE, NOW);
		expect(over.allowed).toBe(false);
		expect(over.remaining).toBe(0);
	});

	it("resetAt is when the oldest counted request leaves the window, in unix seconds", () => {
		const decision = decideRequest({ count: 5, oldestAt: NOW - 15_000, freesSlotAt: null }, 120, MINUTE, NOW);
		expect(decision.resetAt).toBe((NOW - 15_000 + MINUTE) / 1000);
		expect(Number.isInteger(decision.resetAt)).toBe(true);
	});

	it("resetAt rounds a part second up", () => {
		const decision = decideRequest({ count: 1, oldestAt: NOW - 14_999, freesSlotAt: null }, 120, MINUTE, NOW);
		expect(decision.resetAt).toBe((NOW - 14_000 + MINUTE) / 1000);
	});

	it("a refusal says to retry when the request that frees a slot expires", () => {
		const decision = decideRequest({ count: 120, oldestAt: NOW - 45_000, freesSlotAt: NOW - 45_000 }, 120, MINUTE, NOW);
		expect(decision.retryAfterSeconds).toBe(15);
	});

	it("retry-after rounds up to whole seconds", () => {
		const decision = decideRequest({ count: 120, oldestAt: NOW - 45_500, freesSlotAt: NOW - 45_500 }, 120, MINUTE, NOW);
		expect(decision.retryAfterSeconds).toBe(15);
		const sliver = decideRequest({ count: 120, oldestAt: NOW - 44_001, freesSlotAt: NOW - 44_001 }, 120, MINUTE, NOW);
		expect(sliver.retryAfterSeconds).toBe(16);
	});

	it("retry-after is at least 1 second, even when a slot frees within the millisecond", () => {
		const decision = decideRequest(
			{ count: 120, oldestAt: NOW - MINUTE + 1, freesSlotAt: NOW - MINUTE + 1 },
			120,
			MINUTE,
			NOW,
		);
		expect(decision.retryAfterSeconds).toBe(1);
		const stale = decideRequest({ count: 120, oldestAt: NOW - MINUTE, freesSlotAt: NOW - MINUTE }, 120, MINUTE, NOW);
		expect(stale.retryAfterSeconds).toBe(1);
	});

	it("after a lowered limit, retry-after waits for enough requests to expire, not just the oldest", () => {
		// 50 requests in the window and a new limit of 10: the 41st oldest must leave before one fits.
		const decision = decideRequest({ count: 50, oldestAt: NOW - 50_000, freesSlotAt: NOW - 20_000 }, 10, MINUTE, NOW);
		expect(decision.allowed).toBe(false);
		expect(decision.retryAfterSeconds).toBe(40);
		expect(decision.resetAt).toBe((NOW + 10_000) / 1000);
	});

	it("a refusal reports the limit it applied", () => {
		const decision = decideRequest({ count: 7, oldestAt: NOW - 1_000, freesSlotAt: NOW - 1_000 }, 7, MINUTE, NOW);
		expect(decision).toMatchObject({ allowed: false, limit: 7, remaining: 0 });
	});
});
