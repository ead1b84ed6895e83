import type { z } from "@hono/zod-openapi";
import { type ErrorCode, isErrorCode } from "../error-catalog.ts";
import type { Problem } from "../problem.ts";
import { ApiError } from "./errors.ts";

type Issue = z.core.$ZodIssue;

/** A zod issue path as the API's errors write it in `field`: `items[0].width_in`. */
export function fieldPath(path: ReadonlyArray<PropertyKey>): string {
	let out = "";
	for (const segment of path) {
		if (typeof segment === "number") out += `[${segment}]`;
		else out += out === "" ? String(segment) : `.${String(segment)}`;
	}
	return out;
}

/** Whether `input` holds a defined value at `path`. */
function hasValueAt(input: unknown, path: ReadonlyArray<PropertyKey>): boolean {
	let current: unknown = input;
	for (const segment of path) {
		if (typeof current !== "object" || current === null) return false;
		current = (current as Record<PropertyKey, unknown>)[segment];
	}
	return current !== undefined;
}

/** Codes zod 4 reports for an absent value: `invalid_type`, and `invalid_value` (enum, literal) or `invalid_union`. */
const MISSING_VALUE_CODES: ReadonlySet<string> = new Set(["invalid_type", "invalid_value", "invalid_union"]);

/** The catalog code a schema's own check put on its issue (`params.errorCode`), if any. */
function codeOf(issue: Issue): ErrorCode | undefined {
	const code: unknown = issue.code === "custom" ? issue.params?.errorCode : undefined;
	return typeof code === "string" && isErrorCode(code) ? code : undefined;
}

function describeIssue(issue: Issue): { field: string; message: string } {
	if (issue.code === "unrecognized_keys") {
		const key = issue.keys[0] ?? "";
		const field = fieldPath([...issue.path, key]);
		return { field, message: `Unknown field "${field}": it cannot be set by a request.` };
	}
	const field = fieldPath(issue.path);
	return { field, message: `${field}: ${issue.message}` };
}

/** Whether `issue` is about a value absent from `input` (zod reports those as a type or value mismatch). */
function isMissing(issue: Issue, input: unknown): boolean {
	return MISSING_VALUE_CODES.has(issue.code) && !hasValueAt(input, issue.path);
}

/**
 * What one issue of a failed zod parse of `input` refuses: `field_required` (400) for a missing field,
 * `body_not_object` (400) for a body that is not a JSON object, else `invalid_field` (422).
 */
export function problemOfIssue(issue: Issue, input: unknown): Required<Problem> {
	if (isMissing(issue, input) || (issue.path.length === 0 && issue.code === "invalid_type")) {
		if (issue.path.length === 0) {
			return { code: "body_not_object", field: "", message: "The request must carry a JSON object." };
		}
		const field = fieldPath(issue.path);
		return { code: "field_required", field, message: `${field} is required.` };
	}
	return { code: codeOf(issue) ?? "invalid_field", ...describeIssue(issue) };
}

/**
 * The ApiError for a failed zod parse of `input`: a missing field first (400), else the first issue
 * (as problemOfIssue says); `field` names the path.
 */
export function validationErrorFrom(error: z.ZodError, input: unknown): ApiError {
	const chosen = error.issues.find((issue) => isMissing(issue, input)) ?? error.issues[0];
	if (chosen === undefined) return new ApiError("invalid_field", "The request failed validation.");
	const { code, field, message } = problemOfIssue(chosen, input);
	return new ApiError(code, message, field === "" ? undefined : field);
}

/** The message for text that is not well-formed Unicode. */
export const NOT_WELL_FORMED = "must be well-formed Unicode (it holds half of an emoji or symbol)";

/**
 * The path of the first string in `value` that is not well-formed Unicode (a lone UTF-16 surrogate,
 * which JSON can carry as an escape), or null when there is none.
 */
export function malformedTextPath(value: unknown, path: PropertyKey[] = []): PropertyKey[] | null {
	if (typeof value === "string") return value.isWellFormed() ? null : path;
	if (Array.isArray(value)) {
		for (const [index, entry] of value.entries()) {
			const found = malformedTextPath(entry, [...path, index]);
			if (found !== null) return found;
		}
		return null;
	}
	if (typeof value === "object" && value !== null) {
		for (const [key, entry] of Object.entries(value)) {
			const found = malformedTextPath(entry, [...path, key]);
			if (found !== null) return found;
		}
	}
	return null;
}

/**
 * The `defaultHook` of every OpenAPIHono app: a failed validation throws, and `onError` renders it.
 * The validator also passes the raw input as `data`, which tells a missing field from a wrong one.
 * A valid request is refused too (422 on the field) if any of its text is half an emoji: D1 would
 * store replacement characters, and what is read back would differ from what was sent.
 */
export function throwOnInvalid(result: { success: true; data: unknown } | { success: false; error: z.ZodError }): void {
	if (!result.success) throw validationErrorFrom(result.error, Reflect.get(result, "data"));
	const malformed = malformedTextPath(result.data);
	if (malformed === null) return;
	const field = fieldPath(malformed);
	throw new ApiError("text_not_well_formed", `${field}: ${NOT_WELL_FORMED}`, field === "" ? undefined : field);
}
