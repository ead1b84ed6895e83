/**
 * A key's life after it is issued: when it ends by itself (its expiry) and when it was last used. The
 * last use is written at most once per key per KEY_USE_RECORD_MINUTES, not on every request: the
 * bearer check asks `keyUseIsDue` of the principal its limiter holds, and the write itself only lands
 * when the stored time is that old, so even two limiters racing write one row.
 */

/** At most one write of a key's last use per this many minutes: a list of keys shows it to the nearest quarter hour. */
export const KEY_USE_RECORD_MINUTES = 15;
const KEY_USE_RECORD_MS = KEY_USE_RECORD_MINUTES * 60_000;

/** Whether a key with this expiry (null: none) is over at `now`. */
export function keyHasExpired(expiresAt: string | null, now: Date): boolean {
	return expiresAt !== null && Date.parse(expiresAt) <= now.getTime();
}

/** Whether a key last recorded as used at `lastUsedAt` (null: never) should have its use written at `now`. */
export function keyUseIsDue(lastUsedAt: string | null, now: Date): boolean {
	return lastUsedAt === null || now.getTime() - Date.parse(lastUsedAt) >= KEY_USE_RECORD_MS;
}

/**
 * Writes that the key was used at `now`, unless a use within the last KEY_USE_RECORD_MINUTES is
 * stored already. The number of rows written: 1 or 0.
 */
export async function recordKeyUse(db: D1Database, keyId: string, now: Date): Promise<number> {
	const result = await db
		.prepare("UPDATE api_keys SET last_used_at = ?2 WHERE id = ?1 AND (last_used_at IS NULL OR last_used_at <= ?3)")
		.bind(keyId, now.toISOString(), new Date(now.getTime() - KEY_USE_RECORD_MS).toISOString())
		.run();
	return result.meta.changes;
}
