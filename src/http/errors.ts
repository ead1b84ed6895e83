import { z } from "@hono/zod-openapi";
import type { Problem } from "../problem.ts";

/** HTTP status of each error type: the eight the API documents, and no others (clients switch on `type`). */
export const ERROR_STATUS = {
	bad_request: 400,
	unauthorized: 401,
	forbidden: 403,
	not_found: 404,
	conflict: 409,
	validation_error: 422,
	rate_limited: 429,
	server_error: 500,
} as const;

export type ErrorType = keyof typeof ERROR_STATUS;
export type ErrorStatus = (typeof ERROR_STATUS)[ErrorType];

const ERROR_TYPES = Object.keys(ERROR_STATUS) as [ErrorType, ...ErrorType[]];

/** The one error the service throws on purpose; `onError` renders it as the error envelope below. */
export class ApiError extends Error {
	override readonly name = "ApiError";

	constructor(
		readonly type: ErrorType,
		message: string,
		readonly field?: string,
		/** Extra response headers, such as `Retry-After` on a 429. */
		readonly headers: Readonly<Record<string, string>> = {},
	) {
		super(message);
	}

	get status(): ErrorStatus {
		return ERROR_STATUS[this.type];
	}
}

/** A problem the domain found in a request, as the API's 422 on its field. */
export function unprocessable(problem: Problem): ApiError {
	return new ApiError("validation_error", problem.message, problem.field);
}

/** The error envelope, shared by every error response and the OpenAPI document. */
export const ErrorEnvelopeSchema = z
	.object({
		error: z.object({
			type: z.enum(ERROR_TYPES),
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
