/**
 * How long a key's limiter trusts the principal it loaded from D1. Changes made through the API (a
 * revocation, new limits) reach it at once; this bounds how long a change written to D1 by other
 * means (the admin CLI) takes. Apart from the Durable Object so that Node (the CLI's tests) can read it.
 */
export const PRINCIPAL_TTL_MS = 30_000;
