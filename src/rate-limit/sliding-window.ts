/** What a per-key request limiter reports for one request; the numbers behind the X-RateLimit headers. */
export type RequestDecision = {
	allowed: boolean;
	limit: number;
	/** Requests left in the window after this one. */
	remaining: number;
	/** Unix seconds when the oldest counted request leaves the window (and a slot frees up). */
	resetAt: number;
	/** Whole seconds to wait before a retry can succeed; 0 when allowed. */
	retryAfterSeconds: number;
};

/** The window as stored: how many requests it holds, the oldest one's time, and the time of the one whose expiry frees a slot. */
export type WindowSnapshot = {
	count: number;
	oldestAt: number | null;
	/** Time of the (count - limit + 1)-th oldest request; null while under the limit. */
	freesSlotAt: number | null;
};

/**
 * Sliding-log decision: a request is admitted while fewer than `limit` requests were admitted in the
 * last `windowMs`. Pure; the caller prunes expired entries first and records the request if admitted.
 */
export function decideRequest(window: WindowSnapshot, limit: number, windowMs: number, now: number): RequestDecision {
	const allowed = window.count < limit;
	const oldestAt = window.oldestAt ?? now;
	const resetAt = Math.ceil((oldestAt + windowMs) / 1000);
	if (allowed) {
		return { allowed, limit, remaining: limit - window.count - 1, resetAt, retryAfterSeconds: 0 };
	}
	const freesSlotAt = window.freesSlotAt ?? oldestAt;
	const retryAfterSeconds = Math.max(1, Math.ceil((freesSlotAt + windowMs - now) / 1000));
	return { allowed, limit, remaining: 0, resetAt, retryAfterSeconds };
}
