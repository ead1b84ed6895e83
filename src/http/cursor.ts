import { ApiError } from "./errors.ts";

/** A keyset position: the last row's creation time and id. */
export type Cursor = { createdAt: string; id: string };

/** An opaque, URL-safe cursor for keyset pagination. */
export function encodeCursor(cursor: Cursor): string {
	return btoa(JSON.stringify([cursor.createdAt, cursor.id]))
		.replaceAll("+", "-")
		.replaceAll("/", "_")
		.replace(/=+$/, "");
}

/** The position a cursor names; 422 on `cursor` for anything this service did not issue. */
export function decodeCursor(text: string): Cursor {
	try {
		const parsed: unknown = JSON.parse(atob(text.replaceAll("-", "+").replaceAll("_", "/")));
		if (
			Array.isArray(parsed) &&
			parsed.length === 2 &&
			typeof parsed[0] === "string" &&
			typeof parsed[1] === "string"
		) {
			return { createdAt: parsed[0], id: parsed[1] };
		}
	} catch {
		// Fall through to the error below.
	}
	throw new ApiError(
		"invalid_cursor",
		"cursor is not one this service issued; pass next_cursor exactly as returned.",
		"cursor",
	);
}

/** A cursor as the service issues it, for the OpenAPI document's examples of `next_cursor`. */
export const CURSOR_EXAMPLE = encodeCursor({ createdAt: "2026-11-22T10:00:00.000Z", id: "ord_3kq9" });
