/** What every fuzzed answer must be, shared by the fuzz tests. */
import { ERROR_CODES, isErrorCode } from "../../src/error-catalog.ts";
import { ERROR_STATUS } from "../../src/http/errors.ts";

/**
 * The property: below 500, and a 4xx is the error envelope whose type's status is the response's,
 * whose code (when sent) is a declared one of that type, with a non-empty message and the X-Request-Id as request_id. Throws with the whole response
 * otherwise; returns the status.
 */
export async function checkResponse(response: Response): Promise<number> {
	const text = await response.text();
	function fail(why: string): never {
		throw new Error(`${why}: HTTP ${response.status} ${text.slice(0, 500)}`);
	}
	if (response.status >= 500) fail("5xx");
	if (response.status < 400) return response.status;
	if (!/^application\/json/.test(response.headers.get("Content-Type") ?? "")) fail("error body not JSON");
	let body: unknown;
	try {
		body = JSON.parse(text);
	} catch {
		fail("error body does not parse");
	}
	const error: unknown = typeof body === "object" && body !== null ? Reflect.get(body, "error") : undefined;
	if (typeof error !== "object" || error === null) fail("no error object");
	const { type, code, message, request_id: requestId } = error as Record<string, unknown>;
	if (typeof type !== "string" || !Object.hasOwn(ERROR_STATUS, type)) fail("unknown error.type");
	if (ERROR_STATUS[type as keyof typeof ERROR_STATUS] !== response.status) fail("status is not the type's");
	if (code !== undefined && (typeof code !== "string" || !isErrorCode(code))) fail("undeclared error.code");
	if (code !== undefined && ERROR_CODES[code].type !== type) fail("error.code sent with another type");
	if (typeof message !== "string" || message.length === 0) fail("no error.message");
	if (typeof requestId !== "string" || requestId === "") fail("no error.request_id");
	if (requestId !== response.headers.get("X-Request-Id")) fail("request_id is not X-Request-Id");
	return response.status;
}
