/**
 * A partner user's sign-in by email and password. It answers alike, and takes about as long, whether the
 * address is unknown, the user is invited but has no password yet, revoked, or the password is wrong,
 * so the form tells nobody which addresses have users. Wrong passwords count towards the lock-out; a
 * locked user is refused even with the right password, with words that say to wait.
 */
import { lockedAt } from "./lockout.ts";
import { decoyHash, passwordMatches } from "./password.ts";
import { clearFailures, findUserByEmail, recordFailure } from "./store.ts";
import type { PartnerUserRow } from "./users.ts";

/** What a sign-in came to. */
export type SignedIn = { ok: true; user: PartnerUserRow } | { ok: false; reason: "invalid" | "locked" };

/** Checks `email` and `password` at `now`, counting a wrong password against the user. */
export async function signIn(db: D1Database, email: string, password: string, now: Date): Promise<SignedIn> {
	const user = await findUserByEmail(db, email);
	const usable = user !== null && user.revoked_at === null && user.password_hash !== null;
	// The hash is checked in every case, against a decoy when there is no usable one: the same work either way.
	const matches = await passwordMatches(password, usable ? (user.password_hash ?? "") : await decoyHash());
	if (!usable) return { ok: false, reason: "invalid" };
	if (lockedAt(user, now)) return { ok: false, reason: "locked" };
	if (!matches) {
		const after = await recordFailure(db, user, now);
		return { ok: false, reason: lockedAt(after, now) ? "locked" : "invalid" };
	}
	await clearFailures(db, user.id);
	return { ok: true, user };
}
