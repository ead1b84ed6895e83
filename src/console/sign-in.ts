/** Whether an API key may sign in to the console, judged as the API judges its bearer keys. */
import { keyHasExpired } from "../accounts/key-life.ts";
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import { keyScopeProblem } from "../accounts/scopes.ts";
import { findKeyByHash } from "../accounts/store.ts";
import { type Refusal, refusal } from "../problem.ts";

/**
 * The key's id, or why it cannot sign in, under the code the API's bearer auth would answer: no key,
 * one malformed, unknown, revoked or expired (401s); a key without the ops scope, or a test key holding it (403s).
 */
export type SignInCheck = { ok: true; keyId: string } | Refusal;

/** Checks a key typed on the sign-in page (already trimmed). */
export async function checkSignInKey(db: D1Database, key: string): Promise<SignInCheck> {
	if (key === "") return refusal("api_key_missing", "key", "Enter your API key.");
	// Checked before any database read, like the API's bearer auth: junk never reaches D1.
	if (modeOfApiKey(key) === null) {
		return refusal("api_key_malformed", "key", "That is not an API key: keys look like fps_live_… or fps_test_….");
	}
	const found = await findKeyByHash(db, await hashApiKey(key));
	if (found === null) return refusal("api_key_invalid", "key", "That API key is not valid.");
	if (found === "revoked") return refusal("api_key_revoked", "key", "That API key has been revoked.");
	if (keyHasExpired(found.expiresAt, new Date())) return refusal("api_key_expired", "key", "That API key has expired.");
	if (!found.scopes.includes("ops")) {
		const message = "This key cannot sign in: the console is for operations keys (scope ops) only.";
		return refusal("scope_missing", "key", message);
	}
	// As on the API: ops keys are live-only, and a test-mode key that still holds the scope must not reach live orders.
	const problem = keyScopeProblem(found.mode, found.scopes);
	if (problem !== null) {
		return refusal("api_key_refused", "key", `This key cannot sign in: ${problem}. Ask for a live ops key.`);
	}
	return { ok: true, keyId: found.keyId };
}
