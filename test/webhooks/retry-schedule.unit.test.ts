import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
	MAX_QUEUE_DELAY_SECONDS,
	nextAttemptAt,
	parseRetryAfter,
	queueDelaySeconds,
	RETRY_DELAYS_SECONDS,
	RETRY_WINDOW_MS,
} from "../../src/webhooks/retry-schedule.ts";

const EVENT = new Date("2027-01-15T08:00:00Z");
const WINDOW_END = EVENT.getTime() + RETRY_WINDOW_MS;
/** 0.5 lands in the middle of the jitter range: the table's delay exactly. */
const NO_JITTER = () => 0.5;
const SECOND = 1000;
const HOUR = 3600 * SECOND;

/** Delay in ms that nextAttemptAt chose, for an attempt made `afterMs` after the event. */
function delayAfter(attempts: number, afterMs: number, random: () => number, retryAfterSeconds?: number | null) {
	const now = new Date(EVENT.getTime() + afterMs);
	const next = nextAttemptAt({ attempts, eventCreatedAt: EVENT, now, random, retryAfterSeconds });
	return next === null ? null : next.getTime() - now.getTime();
}

describe("nextAttemptAt", () => {
	it("follows the table: 30 s, 2 min, 10 min, 30 min, 1 h, 2 h, 4 h, 8 h", () => {
		expect(RETRY_DELAYS_SECONDS).toEqual([30, 120, 600, 1800, 3600, 7200, 14400, 28800]);
		RETRY_DELAYS_SECONDS.forEach((seconds, index) => {
			expect(delayAfter(index + 1, 0, NO_JITTER)).toBe(seconds * SECOND);
		});
	});

	it("jitters each delay by at most ±10%", () => {
		RETRY_DELAYS_SECONDS.forEach((seconds, index) => {
			expect(delayAfter(index + 1, 0, () => 0)).toBe(Math.round(seconds * SECOND * 0.9));
			expect(delayAfter(index + 1, 0, () => 0.75)).toBe(Math.round(seconds * SECOND * 1.05));
			const longest = delayAfter(index + 1, 0, () => 0.999_999) ?? 0;
			expect(longest).toBeGreaterThan(seconds * SECOND * 1.099);
			expect(longest).toBeLessThanOrEqual(seconds * SECOND * 1.1);
		});
	});

	it("keeps jitter within ±10% even for a random source outside [0, 1)", () => {
		expect(delayAfter(1, 0, () => -3)).toBe(27 * SECOND);
		expect(delayAfter(1, 0, () => 7)).toBe(33 * SECOND);
	});

	it("after the 8th attempt keeps waiting 8 hours", () => {
		expect(delayAfter(9, 0, NO_JITTER)).toBe(8 * HOUR);
		expect(delayAfter(12, 0, NO_JITTER)).toBe(8 * HOUR);
	});

	it("treats a nonsensical attempt count as the first", () => {
		expect(delayAfter(0, 0, NO_JITTER)).toBe(30 * SECOND);
		expect(delayAfter(Number.NaN, 0, NO_JITTER)).toBe(30 * SECOND);
	});

	it("defaults to Math.random for the jitter", () => {
		const now = new Date(EVENT.getTime());
		const next = nextAttemptAt({ attempts: 4, eventCreatedAt: EVENT, now });
		const delay = (next?.getTime() ?? 0) - now.getTime();
		expect(delay).toBeGreaterThanOrEqual(1800 * SECOND * 0.9);
		expect(delay).toBeLessThanOrEqual(1800 * SECOND * 1.1);
	});

	it("clamps an attempt that would land past 24 h to the window's end", () => {
		// The 8 h tail asked for 20 h after the event would land at 28 h.
		const next = nextAttemptAt({ attempts: 9, eventCreatedAt: EVENT, now: new Date(EVENT.getTime() + 20 * HOUR) });
		expect(next?.getTime()).toBe(WINDOW_END);
	});

	it("is null once the window has closed: the delivery is failed", () => {
		expect(nextAttemptAt({ attempts: 9, eventCreatedAt: EVENT, now: new Date(WINDOW_END), random: NO_JITTER })).toBe(
			null,
		);
		expect(
			nextAttemptAt({ attempts: 3, eventCreatedAt: EVENT, now: new Date(WINDOW_END + HOUR), random: NO_JITTER }),
		).toBe(null);
	});

	it("is null for an invalid date", () => {
		expect(nextAttemptAt({ attempts: 1, eventCreatedAt: new Date(Number.NaN), now: EVENT })).toBe(null);
		expect(nextAttemptAt({ attempts: 1, eventCreatedAt: EVENT, now: new Date(Number.NaN) })).toBe(null);
	});

	it("honours a Retry-After later than the scheduled delay", () => {
		expect(delayAfter(1, 0, NO_JITTER, 300)).toBe(300 * SECOND);
	});

	it("keeps the scheduled delay when Retry-After asks for less", () => {
		expect(delayAfter(5, 0, NO_JITTER, 60)).toBe(3600 * SECOND);
		expect(delayAfter(1, 0, NO_JITTER, 0)).toBe(30 * SECOND);
		expect(delayAfter(1, 0, NO_JITTER, -100)).toBe(30 * SECOND);
		expect(delayAfter(1, 0, NO_JITTER, null)).toBe(30 * SECOND);
		expect(delayAfter(1, 0, NO_JITTER, Number.NaN)).toBe(30 * SECOND);
	});

	it("caps Retry-After at the window's end", () => {
		const now = new Date(EVENT.getTime() + 23 * HOUR);
		const next = nextAttemptAt({ attempts: 2, eventCreatedAt: EVENT, now, retryAfterSeconds: 2 * 3600 });
		expect(next?.getTime()).toBe(WINDOW_END);
	});

	it("the table run back to back gives nine attempts and a clamped last one at 24 h", () => {
		const times: number[] = [EVENT.getTime()];
		for (let attempts = 1; ; attempts++) {
			const now = new Date(times.at(-1) ?? 0);
			const next = nextAttemptAt({ attempts, eventCreatedAt: EVENT, now, random: NO_JITTER });
			if (next === null) break;
			times.push(next.getTime());
		}
		// 30 s + 2 min + ... + 8 h = 15 h 42 min 30 s; one more 8 h tail; then the window's end.
		expect(times.map((time) => (time - EVENT.getTime()) / SECOND)).toEqual([
			0, 30, 150, 750, 2550, 6150, 13350, 27750, 56550, 85350, 86400,
		]);
	});

	it("property: successive attempt times increase and never pass event + 24 h", () => {
		const step = fc.record({
			random: fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }),
			retryAfterSeconds: fc.option(fc.integer({ min: -10, max: 200_000 })),
			// Queues and the cron sweep may run an attempt late, never early.
			lateMs: fc.integer({ min: 0, max: 2 * HOUR }),
		});
		fc.assert(
			fc.property(
				fc.integer({ min: 0, max: 30 * SECOND }),
				fc.array(step, { minLength: 1, maxLength: 40 }),
				(startMs, steps) => {
					let now = EVENT.getTime() + startMs;
					let previous = now;
					for (const [index, { random, retryAfterSeconds, lateMs }] of steps.entries()) {
						const next = nextAttemptAt({
							attempts: index + 1,
							eventCreatedAt: EVENT,
							now: new Date(now),
							random: () => random,
							retryAfterSeconds,
						});
						if (next === null) {
							expect(now).toBeGreaterThanOrEqual(WINDOW_END);
							return;
						}
						expect(next.getTime()).toBeGreaterThan(previous);
						expect(next.getTime()).toBeGreaterThan(now);
						expect(next.getTime()).toBeLessThanOrEqual(WINDOW_END);
						previous = next.getTime();
						now = next.getTime() + lateMs;
					}
				},
			),
		);
	});
});

describe("queueDelaySeconds", () => {
	const now = new Date(EVENT.getTime());

	it("is whole seconds, rounded up so a message never arrives early", () => {
		expect(queueDelaySeconds(new Date(now.getTime() + 30 * SECOND), now)).toBe(30);
		expect(queueDelaySeconds(new Date(now.getTime() + 1), now)).toBe(1);
		expect(queueDelaySeconds(new Date(now.getTime() + 29_001), now)).toBe(30);
	});

	it("is 0 for a time already reached", () => {
		expect(queueDelaySeconds(now, now)).toBe(0);
		expect(queueDelaySeconds(new Date(now.getTime() - HOUR), now)).toBe(0);
		expect(queueDelaySeconds(new Date(Number.NaN), now)).toBe(0);
	});

	it("caps at 12 hours, the Queues maximum", () => {
		expect(MAX_QUEUE_DELAY_SECONDS).toBe(43_200);
		expect(queueDelaySeconds(new Date(now.getTime() + 12 * HOUR), now)).toBe(43_200);
		expect(queueDelaySeconds(new Date(now.getTime() + 20 * HOUR), now)).toBe(43_200);
	});
});

describe("parseRetryAfter", () => {
	const now = new Date("2027-01-15T08:00:00Z");

	it("reads delta-seconds", () => {
		expect(parseRetryAfter("120", now)).toBe(120);
		expect(parseRetryAfter(" 120 ", now)).toBe(120);
		expect(parseRetryAfter("0", now)).toBe(0);
	});

	it("is null when absent or invalid", () => {
		expect(parseRetryAfter(null, now)).toBe(null);
		expect(parseRetryAfter("", now)).toBe(null);
		expect(parseRetryAfter("garbage", now)).toBe(null);
		expect(parseRetryAfter("-5", now)).toBe(null);
		expect(parseRetryAfter("1.5", now)).toBe(null);
		expect(parseRetryAfter("2027-01-15T09:00:00Z", now)).toBe(null);
		expect(parseRetryAfter("Fri, 31 Feb 2027 08:00:00 GMT", now)).toBe(null);
	});

	it("reads an HTTP-date (IMF-fixdate) as seconds from now", () => {
		expect(parseRetryAfter("Fri, 15 Jan 2027 08:02:00 GMT", now)).toBe(120);
	});

	it("reads the obsolete rfc850 and asctime forms", () => {
		expect(parseRetryAfter("Friday, 15-Jan-27 09:00:00 GMT", now)).toBe(3600);
		expect(parseRetryAfter("Fri Jan 15 08:00:30 2027", now)).toBe(30);
		expect(parseRetryAfter("Fri Jan  5 08:00:00 2027", now)).toBe(0);
	});

	it("is 0, never negative, for a date already past", () => {
		expect(parseRetryAfter("Thu, 14 Jan 2027 08:00:00 GMT", now)).toBe(0);
	});

	it("caps a huge delta instead of overflowing", () => {
		expect(parseRetryAfter("9".repeat(400), now)).toBe(Number.MAX_SAFE_INTEGER);
	});
});
