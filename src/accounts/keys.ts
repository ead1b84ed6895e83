import { randomBase62, sha256Hex } from "../ids.ts";
import type { KeyMode } from "./scopes.ts";

const KEY_PATTERN = /^fps_(live|test)_[0-9A-Za-z]{32,64}$/;
const DISPLAY_PREFIX_LENGTH = 13;

/** A new secret API key, `fps_<mode>_<32 base62 chars>` (about 190 bits). Shown once, never stored. */
export function generateApiKey(mode: KeyMode): string {
	return `fps_${mode}_${randomBase62(32)}`;
}

/** The key's mode if it has the shape of one of our keys, else null (so junk never reaches the database). */
export function modeOfApiKey(candidate: string): KeyMode | null {
	const match = KEY_PATTERN.exec(candidate);
	return match?.[1] === "live" || match?.[1] === "test" ? match[1] : null;
}

/** What the database stores instead of the key: its SHA-256 (keys are long random strings, so no salt is needed). */
export function hashApiKey(key: string): Promise<string> {
	return sha256Hex(key);
}

/** The short, non-secret start of a key that lets people tell keys apart, e.g. `fps_live_Ab3x`. */
export function displayPrefix(key: string): string {
	return key.slice(0, DISPLAY_PREFIX_LENGTH);
}

/** A new webhook signing secret, `whsec_<32 base62 chars>`. */
export function generateWebhookSecret(): string {
	return `whsec_${randomBase62(32)}`;
}
