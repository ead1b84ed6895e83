import { describe, expect, it } from "vitest";
import { type BucketState, takeToken } from "../../src/rate-limit/token-bucket.ts";

const NOW = 1_800_000_000_000;

/** Takes `times` tokens at the same instant, threading the state; returns every decision. */
function takeMany(previous: BucketState | null, times: number, rate: number, burst: number, now: number) {
	const decisions: ReturnType<typeof takeToken>[] = [];
	let state = previous;
	for (let i = 0; i < times; i++) {
		const decision = takeToken(state, rate, burst, now);
		decisions.push(decision);
		state = decision.state;
	}
	return decisions;
}

describe("takeToken (order-creation bucket)", () => {
	it("a new bucket starts full: the first take leaves burst - 1", () => {
		const decision = takeToken(null, 1, 30, NOW);
		expect(decision).toEqual({
			allowed: true,
			state: { tokens: 29, updatedAt: NOW },
			remaining: 29,
			retryAfterSeconds: 0,
		});
	});

	it("a burst of 30 is admitted at once and the 31st is refused", () => {
		const decisions = takeMany(null, 31, 1, 30, NOW);
		expect(decisions.slice(0, 30).every((decision) => decision.allowed)).toBe(true);
		expect(decisions.slice(0, 30).map((decision) => decision.remaining)).toEqual(
			Array.from({ length: 30 }, (_, i) => 29 - i),
		);
		const refused = decisions[30];
		expect(refused?.allowed).toBe(false);
		expect(refused?.remaining).toBe(0);
		expect(refused?.retryAfterSeconds).toBe(1);
	});

	it("refills at the sustained rate", () => {
		const empty: BucketState = { tokens: 0, updatedAt: NOW };
		expect(takeToken(empty, 1, 30, NOW + 999).allowed).toBe(false);
		const afterOneSecond = takeToken(empty, 1, 30, NOW + 1_000);
		expect(afterOneSecond.allowed).toBe(true);
		expect(afterOneSecond.remaining).toBe(0);
		const afterFiveSeconds = takeMany(empty, 6, 1, 30, NOW + 5_000);
		expect(afterFiveSeconds.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
	});

	it("refill stops at the burst size", () => {
		const decision = takeToken({ tokens: 0, updatedAt: NOW }, 1, 30, NOW + 3_600_000);
		expect(decision.state.tokens).toBe(29);
		expect(decision.remaining).toBe(29);
	});

	it("a refusal keeps the fractional tokens earned so far", () => {
		const decision = takeToken({ tokens: 0, updatedAt: NOW }, 1, 30, NOW + 400);
		expect(decision.allowed).toBe(false);
		expect(decision.state).toEqual({ tokens: 0.4, updatedAt: NOW + 400 });
		// 0.6 of a token to go at 1 a second: rounded up to a whole second.
		expect(decision.retryAfterSeconds).toBe(1);
		// And the 0.4 is not lost: 600 ms later a token is there.
		expect(takeToken(decision.state, 1, 30, NOW + 1_000).allowed).toBe(true);
	});

	it("retry-after rounds up to whole seconds for slow rates", () => {
		expect(takeToken({ tokens: 0, updatedAt: NOW }, 0.3, 5, NOW).retryAfterSeconds).toBe(4);
		expect(takeToken({ tokens: 0.5, updatedAt: NOW }, 0.1, 5, NOW).retryAfterSeconds).toBe(5);
	});

	it("retry-after is at least 1 even for fast rates", () => {
		const decision = takeToken({ tokens: 0, updatedAt: NOW }, 1000, 5, NOW);
		expect(decision.allowed).toBe(false);
		expect(decision.retryAfterSeconds).toBe(1);
	});

	it("remaining is whole tokens, rounded down", () => {
		const decision = takeToken({ tokens: 3.9, updatedAt: NOW }, 1, 30, NOW);
		expect(decision.allowed).toBe(true);
		expect(decision.remaining).toBe(2);
	});

	it("a clock that steps backwards adds no tokens", () => {
		const decision = takeToken({ tokens: 0, updatedAt: NOW }, 1, 30, NOW - 10_000);
		expect(decision.allowed).toBe(false);
		expect(decision.state.tokens).toBe(0);
	});

	it("an overridden burst and rate apply", () => {
		const decisions = takeMany(null, 6, 10, 5, NOW);
		expect(decisions.map((decision) => decision.allowed)).toEqual([true, true, true, true, true, false]);
		expect(takeToken(decisions[5]?.state ?? null, 10, 5, NOW + 100).allowed).toBe(true);
	});
});
