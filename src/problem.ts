/**
 * What is wrong with a request, as domain code says it: the request field at fault and a message for
 * the partner. Pricing, framing and file checks return it; only the routes' services turn it into an
 * HTTP error (a 422), and validation into a hold. A leaf: it imports only the error catalog.
 */

import type { ErrorCode } from "./error-catalog.ts";

/**
 * What is wrong, and in which field of the request (`items[2].print_file_id`, `quote_id`); `code`
 * names the rule when a specific one applies (the 422 is `invalid_field` without it).
 */
export type Problem = { field: string; message: string; code?: ErrorCode };

/** A result that is a problem: what a check returns instead of its value. */
export type Refusal = { ok: false } & Problem;

/** The refusal of `field`, for `message`, under `code`. */
export function refusal(code: ErrorCode, field: string, message: string): Refusal {
	return { ok: false, code, field, message };
}
