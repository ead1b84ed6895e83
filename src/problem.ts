/**
 * What is wrong, as domain code says it. A check or a service returns its value or a `Refusal`: a code
 * from the error catalog, a message, and the request field at fault when there is one. It never builds
 * an HTTP error and never carries a status: the status follows from the code, and only the edge (API
 * routes and console pages, through `refusalError` in src/http/errors.ts) turns a refusal into HTTP.
 * A leaf: it imports only the error catalog.
 */

import type { ErrorCode } from "./error-catalog.ts";

/**
 * What is wrong, and in which field of the request (`items[2].print_file_id`, `quote_id`); `code`
 * names the rule when a specific one applies (the 422 is `invalid_field` without it).
 */
export type Problem = { field: string; message: string; code?: ErrorCode };

/**
 * Why domain code refused: the rule's code (`invalid_field` when none is named), a message for the
 * reader, and the request field at fault when there is one (a refused move of an order has none).
 */
export type Refusal = { ok: false; message: string; code?: ErrorCode; field?: string };

/** The refusal of `field`, for `message`, under `code`. */
export function refusal(code: ErrorCode, field: string, message: string): Refusal & Problem {
	return { ok: false, code, field, message };
}

/** The refusal under `code` of something no one field of the request is at fault for (an order's status, say). */
export function refusalOf(code: ErrorCode, message: string): Refusal {
	return { ok: false, code, message };
}
