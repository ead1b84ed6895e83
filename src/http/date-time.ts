import { z } from "@hono/zod-openapi";

/** A timestamp the service writes: ISO 8601 in UTC with milliseconds, documented as `format: date-time`. */
export function dateTime() {
	return z.string().openapi({ format: "date-time", example: "2026-11-22T10:00:00.000Z" });
}
