import type { KeyMode } from "./scopes.ts";

/**
 * Whose a partner's resource is (an order, a print file, a quote): an account in one mode. Live and
 * test data never meet, so every lookup on a partner's behalf is by both.
 */
export type Owner = { accountId: string; mode: KeyMode };
