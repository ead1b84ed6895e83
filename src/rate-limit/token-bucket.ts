/** A token bucket's stored state. */
export type BucketState = { tokens: number; updatedAt: number };

export type BucketDecision = {
	allowed: boolean;
	state: BucketState;
	/** Whole tokens left after this take. */
	remaining: number;
	/** Whole seconds until a token is available; 0 when allowed. */
	retryAfterSeconds: number;
};

/**
 * Takes one token from a bucket that refills at `ratePerSecond` up to `burst` (a new bucket starts
 * full). Pure: the caller stores the returned state.
 */
export function takeToken(
	previous: BucketState | null,
	ratePerSecond: number,
	burst: number,
	now: number,
): BucketDecision {
	const elapsedSeconds = previous === null ? 0 : Math.max(0, now - previous.updatedAt) / 1000;
	const available = previous === null ? burst : Math.min(burst, previous.tokens + elapsedSeconds * ratePerSecond);
	if (available >= 1) {
		const tokens = available - 1;
		return { allowed: true, state: { tokens, updatedAt: now }, remaining: Math.floor(tokens), retryAfterSeconds: 0 };
	}
	return {
		allowed: false,
		state: { tokens: available, updatedAt: now },
		remaining: 0,
		retryAfterSeconds: Math.max(1, Math.ceil((1 - available) / ratePerSecond)),
	};
}
