/** When a failed webhook delivery is tried again: a fixed backoff with jitter, inside 24 hours from the event. */

/** Wait after attempt n fails is entry n - 1; after the 8th failure the last entry (8 h) repeats. */
export const RETRY_DELAYS_SECONDS = [30, 120, 600, 1800, 3600, 7200, 14400, 28800] as const;

/** Deliveries are retried until this long after the event was created, then marked `failed`. */
export const RETRY_WINDOW_MS = 24 * 3600 * 1000;

/** Cloudflare Queues refuse a longer `delaySeconds`; later attempts are re-queued in hops. */
export const MAX_QUEUE_DELAY_SECONDS = 43_200;

/** ±10% so that deliveries failed together by one outage do not all come back in the same second. */
const JITTER = 0.1;

/**
 * When to try a delivery again after `attempts` attempts have failed, or null when the window has closed.
 *
 * The delay is the table entry with ±10% jitter, or `retryAfterSeconds` (a 429/503 `Retry-After`) when that is
 * later. A time past the window's end (event + 24 h) is clamped to exactly the window's end while `now` is still
 * before it, so the window is used to its last moment; once `now` has reached the end, the answer is null.
 */
export function nextAttemptAt(args: {
	attempts: number;
	eventCreatedAt: Date;
	now: Date;
	retryAfterSeconds?: number | null;
	random?: () => number;
}): Date | null {
	const now = args.now.getTime();
	const windowEnd = args.eventCreatedAt.getTime() + RETRY_WINDOW_MS;
	if (Number.isNaN(now) || Number.isNaN(windowEnd) || now >= windowEnd) return null;

	const attempts = Number.isInteger(args.attempts) ? Math.max(args.attempts, 1) : 1;
	const scheduledSeconds = RETRY_DELAYS_SECONDS[Math.min(attempts, RETRY_DELAYS_SECONDS.length) - 1] ?? 28_800;
	// A random source outside [0, 1] must not widen the jitter beyond ±10%.
	const unit = Math.min(Math.max((args.random ?? Math.random)(), 0), 1);
	let delayMs = Math.round(scheduledSeconds * 1000 * (1 + JITTER * (2 * unit - 1)));

	const retryAfter = args.retryAfterSeconds;
	if (retryAfter != null && Number.isFinite(retryAfter) && retryAfter * 1000 > delayMs) delayMs = retryAfter * 1000;

	return new Date(Math.min(now + delayMs, windowEnd));
}

/** Whole seconds from `now` until `next`, for `queue.send({ delaySeconds })`: rounded up, 0 to 12 h. */
export function queueDelaySeconds(next: Date, now: Date): number {
	const seconds = Math.ceil((next.getTime() - now.getTime()) / 1000);
	if (Number.isNaN(seconds)) return 0;
	return Math.min(Math.max(seconds, 0), MAX_QUEUE_DELAY_SECONDS);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const DAY_NAME = "(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun)";
const LONG_DAY_NAME = "(?:Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)";
const MONTH = "(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)";
const TIME = "(\\d{2}):(\\d{2}):(\\d{2})";
/** The three forms RFC 9110 section 5.6.7 tells recipients to accept: IMF-fixdate, rfc850 and asctime. */
const IMF_FIXDATE = new RegExp(`^${DAY_NAME}, (\\d{2}) ${MONTH} (\\d{4}) ${TIME} GMT$`);
const RFC850_DATE = new RegExp(`^${LONG_DAY_NAME}, (\\d{2})-${MONTH}-(\\d{2}) ${TIME} GMT$`);
const ASCTIME_DATE = new RegExp(`^${DAY_NAME} ${MONTH} ([ \\d]\\d) ${TIME} (\\d{4})$`);

/** Milliseconds since the epoch, or null when a field is out of range (31 Feb, 25:00). */
function utcMillis(year: number, month: string, day: number, hour: number, minute: number, second: number) {
	const monthIndex = MONTHS.indexOf(month);
	if (monthIndex < 0 || hour > 23 || minute > 59 || second > 60) return null;
	const millis = Date.UTC(year, monthIndex, day, hour, minute, Math.min(second, 59));
	// Date.UTC rolls 31 Feb over into March; a date that does not survive the round trip was not a real one.
	return new Date(millis).getUTCDate() === day ? millis : null;
}

function httpDateMillis(value: string, now: Date): number | null {
	let match = IMF_FIXDATE.exec(value);
	if (match) {
		const [, day, month = "", year, hour, minute, second] = match;
		return utcMillis(Number(year), month, Number(day), Number(hour), Number(minute), Number(second));
	}
	match = RFC850_DATE.exec(value);
	if (match) {
		const [, day, month = "", shortYear, hour, minute, second] = match;
		// RFC 9110: a two-digit year more than 50 years ahead belongs to the previous century.
		const thisYear = now.getUTCFullYear();
		let year = thisYear - (thisYear % 100) + Number(shortYear);
		if (year > thisYear + 50) year -= 100;
		return utcMillis(year, month, Number(day), Number(hour), Number(minute), Number(second));
	}
	match = ASCTIME_DATE.exec(value);
	if (match) {
		const [, month = "", day = "", hour, minute, second, year] = match;
		return utcMillis(Number(year), month, Number(day.trim()), Number(hour), Number(minute), Number(second));
	}
	return null;
}

/**
 * Seconds to wait from a `Retry-After` header (delta-seconds or HTTP-date), or null when absent or invalid.
 * A date in the past gives 0; a negative or fractional number is not valid delta-seconds and gives null.
 */
export function parseRetryAfter(header: string | null, now: Date): number | null {
	if (header === null) return null;
	const value = header.trim();
	if (/^\d+$/.test(value)) {
		// A huge but valid value still means "not within the window"; the caller caps it there.
		return Math.min(Number(value), Number.MAX_SAFE_INTEGER);
	}
	const millis = httpDateMillis(value, now);
	if (millis === null || Number.isNaN(now.getTime())) return null;
	return Math.max(Math.ceil((millis - now.getTime()) / 1000), 0);
}
