import { z } from "@hono/zod-openapi";
import { ERROR_CODES, ERROR_STATUS, type ErrorCode, type ErrorType, isErrorCode } from "../error-catalog.ts";
import type { Problem } from "../problem.ts";

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

/** A problem the domain found in a request, as the API's 422 on its field. */
export function unprocessable(problem: Problem): ApiError {
	return new ApiError(problem.code ?? "invalid_field", problem.message, problem.field);
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
