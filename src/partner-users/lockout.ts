/**
 * When repeated wrong passwords lock a partner user out: after LOCK_AFTER failures in a row, sign-in is
 * refused for LOCK_MINUTES whatever the password, and the count starts again after it. A right password
 * clears the count. Pure: the store keeps the count and the time.
 */

/** Failures in a row that lock the user out. */
export const LOCK_AFTER = 5;
/** How long the lock lasts. */
export const LOCK_MINUTES = 15;

/** What the store keeps of a user's failures. */
export type FailureState = { failed_attempts: number; locked_until: string | null };

/** Whether the user is locked out at `now`. */
export function lockedAt(state: FailureState, now: Date): boolean {
	return state.locked_until !== null && Date.parse(state.locked_until) > now.getTime();
}

/** The state after one more wrong password at `now`: the count, and the lock once it reaches LOCK_AFTER. */
export function afterFailure(state: FailureState, now: Date): FailureState {
	// A lock that has run out starts a new count.
	const count = (state.locked_until !== null && !lockedAt(state, now) ? 0 : state.failed_attempts) + 1;
	if (count < LOCK_AFTER) return { failed_attempts: count, locked_until: null };
	return { failed_attempts: 0, locked_until: new Date(now.getTime() + LOCK_MINUTES * 60_000).toISOString() };
}
