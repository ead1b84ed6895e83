/**
 * Revoking an API key, as the admin route and the partner console both do it: the row is marked, and
 * the key's limiter drops the principal it holds, so the key's very next request is refused.
 */
import { revokeKeyStatement } from "../accounts/provisioning.ts";
import { findKeyById, type KeySummary, keyHashesOf, runBatch } from "../accounts/store.ts";
import { directoryDatabase } from "../databases.ts";
import { forgetKeys } from "../rate-limit/middleware.ts";

/** Revokes the key (a key revoked already keeps its first time) and answers it as it is now; null when there is no such key. */
export async function revokeApiKey(env: Env, keyId: string, now: Date): Promise<KeySummary | null> {
	const db = directoryDatabase(env);
	await runBatch(db, [revokeKeyStatement(keyId, now)]);
	// The key's limiter holds its principal: it must read the revoked row on the key's very next request.
	await forgetKeys(env, await keyHashesOf(db, { keyId }));
	return findKeyById(db, keyId);
}
