/** Every scope a key can hold. */
export const SCOPES = ["orders:read", "orders:write", "files:write", "events:read", "ops", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** Scopes a partner key gets unless the admin asks for others. */
export const PARTNER_SCOPES: readonly Scope[] = ["orders:read", "orders:write", "files:write", "events:read"];

/**
 * Scopes whose keys act on every account's live orders (the production floor, the service team). Test
 * mode exists so partners can try the API without touching real orders; these keys have no use there.
 */
export const LIVE_ONLY_SCOPES: readonly Scope[] = ["ops", "admin"];

/** The live-only scopes among `scopes`. */
export function liveOnlyScopesIn(scopes: readonly Scope[]): Scope[] {
	return scopes.filter((scope) => LIVE_ONLY_SCOPES.includes(scope));
}

/** Why a key of `mode` may not hold `scopes`, or null when it may: `ops` and `admin` keys are live-only. */
export function keyScopeProblem(mode: KeyMode, scopes: readonly Scope[]): string | null {
	const liveOnly = liveOnlyScopesIn(scopes);
	if (mode === "live" || liveOnly.length === 0) return null;
	const named = liveOnly.map((scope) => `"${scope}"`).join(" and ");
	const [isA, it] = liveOnly.length === 1 ? ["is a live-only scope", "it"] : ["are live-only scopes", "them"];
	return `${named} ${isA} (ops and admin keys act on live orders), so a test-mode key cannot hold ${it}`;
}

export const KEY_MODES = ["live", "test"] as const;
/** Live and test keys see disjoint data. */
export type KeyMode = (typeof KEY_MODES)[number];

/** Scopes parsed from their stored space-separated form; unknown words are dropped. */
export function parseScopes(stored: string): Scope[] {
	return stored.split(" ").filter((word): word is Scope => (SCOPES as readonly string[]).includes(word));
}
