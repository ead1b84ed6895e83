/** Every scope a key can hold (contract, "Authentication and accounts"). */
export const SCOPES = ["orders:read", "orders:write", "files:write", "events:read", "ops", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes a partner key gets unless the admin asks for others. */
export const PARTNER_SCOPES: readonly Scope[] = ["orders:read", "orders:write", "files:write", "events:read"];

export const KEY_MODES = ["live", "test"] as const;
/** Live and test keys see disjoint data. */
export type KeyMode = (typeof KEY_MODES)[number];

/** Scopes parsed from their stored space-separated form; unknown words are dropped. */
export function parseScopes(stored: string): Scope[] {
	return stored.split(" ").filter((word): word is Scope => (SCOPES as readonly string[]).includes(word));
}
