/** Whether an API key may sign in to the console, judged as the API judges its bearer keys. */
import { hashApiKey, modeOfApiKey } from "../accounts/keys.ts";
import { keyScopeProblem } from "../accounts/scopes.ts";
import { findKeyByHash } from "../accounts/store.ts";

/** The key's id, or why it cannot sign in: 401 for no key, or one unknown or revoked; 403 for a key not for the console. */
export type SignInCheck = { ok: true; keyId: string } | { ok: false; status: 401 | 403; message: string };

/** Checks a key typed on the sign-in page (already trimmed). */
export async function checkSignInKey(db: D1Database, key: string): Promise<SignInCheck> {
	const refuse = (status: 401 | 403, message: string): SignInCheck => ({ ok: false, status, message });
	if (key === "") return refuse(401, "Enter your API key.");
	// Checked before any database read, like the API's bearer auth: junk never reaches D1.
	if (modeOfApiKey(key) === null) {
		return refuse(401, "That is not an API key: keys look like fps_live_… or fps_test_….");
	}
	const found = await findKeyByHash(db, await hashApiKey(key));
	if (found === null) return refuse(401, "That API key is not valid.");
	if (found === "revoked") return refuse(401, "That API key has been revoked.");
	if (!found.scopes.includes("ops")) {
		return refuse(403, "This key cannot sign in: the console is for operations keys (scope ops) only.");
	}
	// As on the API: ops keys are live-only, and a test-mode key that still holds the scope must not reach live orders.
	const problem = keyScopeProblem(found.mode, found.scopes);
	if (problem !== null) return refuse(403, `This key cannot sign in: ${problem}. Ask for a live ops key.`);
	return { ok: true, keyId: found.keyId };
}
