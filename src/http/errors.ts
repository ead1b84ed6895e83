import { z } from "@hono/zod-openapi";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorType, isErrorCode } from "../error-catalog.ts";
import type { Refusal } from "../problem.ts";

export { ERROR_STATUS, type ErrorCode, type ErrorType };
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorType];

const ERROR_TYPES = Object.keys(ERROR_STATUS) as [ErrorType, ...ErrorType[]];
const CODES = Object.keys(ERROR_CODES) as [ErrorCode, ...ErrorCode[]];

/**
 * The one error the service throws on purpose; `onError` renders it as the error envelope below.
 * Built from a code (`new ApiError("order_not_found", …)`) it carries that code and the code's type;
 * built from a bare type it has no code.
 */
export class ApiError extends Error {
	override readonly name = "ApiError";
	readonly type: ErrorType;
	readonly code: ErrorCode | undefined;

	constructor(
		kind: ErrorType | ErrorCode,
		message: string,
		readonly field?: string,
		/** Extra response headers, such as `Retry-After` on a 429. */
		readonly headers: Readonly<Record<string, string>> = {},
	) {
		super(message);
		this.code = isErrorCode(kind) ? kind : undefined;
		this.type = isErrorCode(kind) ? ERROR_CODES[kind].type : kind;
	}

	get status(): ErrorStatus {
		return ERROR_STATUS[this.type];
	}
}

/** What a refusal says, whatever carries it: a domain result's `Refusal`, or a check's `Problem`. */
type Refused = Pick<Refusal, "code" | "field" | "message">;

/**
 * The one way a domain refusal becomes HTTP: the API's error under the refusal's code (whose type, and
 * so the status, the error catalog gives; `invalid_field`, a 422, when it names none), with its message
 * and field. API routes and console pages throw it; the API's `onError` renders it as the JSON
 * envelope, the console's as an error page.
 */
export function refusalError(refused: Refused): ApiError {
	return new ApiError(refused.code ?? "invalid_field", refused.message, refused.field);
}

/** A domain result's value, or its refusal thrown as `refusalError`: how a route reads a service's result. */
export function okOrThrow<T extends { ok: true }>(result: T | Refusal): T {
	if (!result.ok) throw refusalError(result);
	return result;
}

/** The status a refusal answers with, its code's: for a page that shows the refusal in place (a form again). */
export function refusalStatus(refused: Pick<Refusal, "code">): ErrorStatus {
	return ERROR_STATUS[ERROR_CODES[refused.code ?? "invalid_field"].type];
}

/** The error envelope, shared by every error response and the OpenAPI document. */
export const ErrorEnvelopeSchema = z
	.object({
		error: z.object({
			type: z.enum(ERROR_TYPES),
			code: z.enum(CODES).optional().openapi({
				description:
					"Which rule refused the request, when a specific one applies: stable, and always sent with the same `type`. Switch on `type` first, then refine on `code`; the error catalog (docs/errors.md) says what to do about each.",
				example: "print_file_not_found",
			}),
			message: z.string(),
			field: z.string().optional().openapi({ example: "items[0].print_file_id" }),
			request_id: z.string(),
		}),
	})
	.openapi("Error");

export type ErrorEnvelope = z.infer<typeof ErrorEnvelopeSchema>;

/** The envelope body for an error, stamped with the request id. */
export function errorEnvelope(error: ApiError, requestId: string): ErrorEnvelope {
	return {
		error: {
			type: error.type,
			...(error.code === undefined ? {} : { code: error.code }),
			message: error.message,
			...(error.field === undefined ? {} : { field: error.field }),
			request_id: requestId,
		},
	};
}

/** OpenAPI response entries for the given error statuses, all sharing the envelope schema. */
export function errorResponses<S extends ErrorStatus>(
	...statuses: S[]
): Record<S, { description: string; content: { "application/json": { schema: typeof ErrorEnvelopeSchema } } }> {
	const entries = statuses.map((status) => {
		const type = ERROR_TYPES.find((candidate) => ERROR_STATUS[candidate] === status) ?? "server_error";
		return [
			status,
			{ description: `Error \`${type}\``, content: { "application/json": { schema: ErrorEnvelopeSchema } } },
		];
	});
	return Object.fromEntries(entries) as Record<
		S,
		{ description: string; content: { "application/json": { schema: typeof ErrorEnvelopeSchema } } }
	>;
}
